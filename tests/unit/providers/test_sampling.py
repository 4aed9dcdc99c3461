"""One mapping of the OpenAI sampling fields serves every flat-key vendor body: each vendor
gets its own names, a field the caller leaves out stays out, Bedrock never gets a seed."""

from __future__ import annotations

from typing import Any

from gateway.core.types import ChatRequest
from gateway.providers.bedrock.mapping import inference_config
from gateway.providers.ollama.mapping import to_options
from gateway.providers.replicate.mapping import to_input
from gateway.providers.sampling import SamplingNames, sampling_fields


def req(**kw: Any) -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": "merhaba"}], **kw}
    )


FULL = {
    "max_completion_tokens": 64,
    "temperature": 0.3,
    "top_p": 0.8,
    "stop": ["###", "END"],
    "seed": 7,
}


def test_each_vendor_gets_its_own_names() -> None:
    assert inference_config(req(**FULL)) == {
        "maxTokens": 64,
        "temperature": 0.3,
        "topP": 0.8,
        "stopSequences": ["###", "END"],
    }
    assert to_options(req(**FULL)) == {
        "num_predict": 64,
        "temperature": 0.3,
        "top_p": 0.8,
        "stop": ["###", "END"],
        "seed": 7,
    }
    replicate = to_input(req(**FULL), limit_key="max_new_tokens")
    assert {k: v for k, v in replicate.items() if k != "prompt"} == {
        "max_new_tokens": 64,
        "temperature": 0.3,
        "top_p": 0.8,
        "stop_sequences": "###,END",
        "seed": 7,
    }


def test_a_field_left_out_stays_out() -> None:
    assert sampling_fields(req(), SamplingNames(token_limit="n")) == {}
    assert sampling_fields(req(temperature=0.0, stop=[]), SamplingNames(token_limit="n")) == {
        "temperature": 0.0
    }
    assert to_options(req()) == {}
    assert inference_config(req(seed=3)) == {}
