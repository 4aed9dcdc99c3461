"""LiteLLMProvider with an injected stand-in for the litellm module (mapping, no retries,
classification), plus litellm's own exception classes when the extra is installed."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.policy.schema import LiteLLMBackend
from gateway.providers.base import CallOptions
from gateway.providers.litellm import LiteLLMProvider
from gateway.providers.litellm.adapter import import_litellm
from gateway.providers.litellm.errors import classify_exception
from gateway.providers.litellm.factory import build
from gateway.providers.openai_shape import FORWARDED
from gateway.providers.registry import BackendDisabled, BuildContext

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
SECRET = "hasta Ayşe Yılmaz TCKN 10000000146"


class Dumped:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def model_dump(self) -> dict[str, Any]:
        return self.data


class StandIn:
    """What the adapter uses of litellm: `acompletion` returning OpenAI-shaped objects."""

    def __init__(
        self,
        frames: list[dict[str, Any]] | None = None,
        fail_after: int | None = None,
        exc: BaseException | None = None,
    ) -> None:
        self.calls: list[dict[str, Any]] = []
        self.frames = frames or []
        self.fail_after = fail_after
        self.exc = exc

    async def acompletion(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.exc is not None and self.fail_after is None:
            raise self.exc
        if kwargs.get("stream"):
            return self._frames()
        return Dumped(
            {
                "model": "m",
                "choices": [{"message": {"content": "Tamam"}, "finish_reason": "length"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2},
            }
        )

    async def _frames(self) -> AsyncIterator[Dumped]:
        for i, frame in enumerate(self.frames):
            if self.fail_after is not None and i >= self.fail_after:
                raise self.exc or RuntimeError("cut")
            yield Dumped(frame)


def req(**kw: object) -> ChatRequest:
    body: dict[str, object] = {
        "model": "a",
        "messages": [{"role": "user", "content": "Selam"}],
        "metadata": {"t": "x"},
    }
    body.update(kw)
    return ChatRequest.model_validate(body)


async def test_kwargs_carry_spec_settings_and_disable_retries() -> None:
    fake = StandIn()
    p = LiteLLMProvider(
        "ll",
        "groq/llama3",
        api_base="http://h/v1",
        api_key="k",
        params={"custom_llm_provider": "openai", "num_retries": 5},
        module=fake,
    )
    result = await p.complete(req(max_completion_tokens=9, temperature=0.3), FAST)
    assert result.text == "Tamam" and result.finish_reason == "length"
    assert result.usage is not None and result.usage.total_tokens == 7
    sent = fake.calls[0]
    assert sent["model"] == "groq/llama3" and sent["api_base"] == "http://h/v1"
    assert sent["api_key"] == "k" and sent["custom_llm_provider"] == "openai"
    assert sent["num_retries"] == 0 and sent["max_retries"] == 0
    assert sent["max_tokens"] == 9 and sent["temperature"] == 0.3 and sent["timeout"] == 10.0
    assert "metadata" not in sent and "stream" not in sent


async def test_stream_maps_deltas_tool_calls_and_usage() -> None:
    frames = [
        {"choices": [{"delta": {"role": "assistant"}, "finish_reason": None}]},
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "c1",
                                "function": {"name": "get_weather", "arguments": '{"city": '},
                            }
                        ]
                    },
                    "finish_reason": None,
                }
            ]
        },
        {
            "choices": [
                {
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"Ankara"}'}}]},
                    "finish_reason": "tool_calls",
                }
            ]
        },
        {"choices": [], "usage": {"prompt_tokens": 8, "completion_tokens": 4}},
    ]
    fake = StandIn(frames)
    p = LiteLLMProvider("ll", "openai/m", module=fake)
    chunks = [c async for c in p.stream(req(stream=True), FAST)]
    assert fake.calls[0]["stream_options"] == {"include_usage": True}
    assert len(chunks) == 3  # the empty role-only delta is dropped
    args = "".join(d.arguments or "" for c in chunks for d in c.tool_calls)
    assert args == '{"city": "Ankara"}' and chunks[0].tool_calls[0].id == "c1"
    assert chunks[1].finish_reason == "tool_calls"
    assert chunks[2].usage is not None and chunks[2].usage.completion_tokens == 4


async def test_stream_cut_after_first_chunk_is_interrupted() -> None:
    frames = [{"choices": [{"delta": {"content": "Bir"}, "finish_reason": None}]}] * 3
    p = LiteLLMProvider(
        "ll", "openai/m", module=StandIn(frames, fail_after=1, exc=httpx.ReadError("reset"))
    )
    got = []
    with pytest.raises(ProviderError) as err:
        async for c in p.stream(req(stream=True), FAST):
            got.append(c)
    assert [c.text for c in got] == ["Bir"] and err.value.kind == FailureKind.INTERRUPTED


async def test_failure_to_start_raises_before_any_chunk() -> None:
    exc = _named("RateLimitError", 429, SECRET)
    p = LiteLLMProvider("ll", "openai/m", module=StandIn(exc=exc))
    with pytest.raises(ProviderError) as err:
        async for _ in p.stream(req(stream=True), FAST):
            pytest.fail("no chunk may be yielded")
    assert err.value.kind == FailureKind.RATE_LIMIT and SECRET not in err.value.message


def _named(cls_name: str, status: int | None, text: str) -> Exception:
    exc: Any = type(cls_name, (Exception,), {})(text)
    exc.status_code = status
    return exc  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("cls_name", "status", "kind"),
    [
        ("RateLimitError", 429, FailureKind.RATE_LIMIT),
        ("AuthenticationError", 401, FailureKind.CREDENTIAL),
        ("PermissionDeniedError", 403, FailureKind.CREDENTIAL),
        ("BadRequestError", 400, FailureKind.CALLER),
        ("ContextWindowExceededError", 400, FailureKind.CONTEXT_LENGTH),
        ("UnprocessableEntityError", 422, FailureKind.CALLER),
        ("Timeout", 408, FailureKind.TIMEOUT),
        ("InternalServerError", 500, FailureKind.TRANSIENT),
        ("ServiceUnavailableError", 503, FailureKind.TRANSIENT),
        ("NotFoundError", 404, FailureKind.PROVIDER),
        ("APIError", None, FailureKind.PROVIDER),
    ],
)
def test_status_rules_never_echo_the_text(
    cls_name: str, status: int | None, kind: FailureKind
) -> None:
    err = classify_exception("ll", _named(cls_name, status, SECRET))
    assert err.kind == kind and SECRET not in err.message


def test_factory_needs_the_key_env_var() -> None:
    spec = LiteLLMBackend(kind="litellm", model="groq/llama3", api_key_env="GROQ_KEY")
    with pytest.raises(BackendDisabled, match="GROQ_KEY"):
        build("ll", spec, BuildContext(env={}))


def test_real_litellm_exceptions_are_classified() -> None:
    if importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm is not installed (optional extra)")
    litellm = import_litellm()
    resp = httpx.Response(
        429, headers={"retry-after": "3"}, request=httpx.Request("POST", "http://x")
    )
    cases = [
        (litellm.RateLimitError(SECRET, "openai", "m", response=resp), FailureKind.RATE_LIMIT),
        (litellm.ContextWindowExceededError(SECRET, "m", "openai"), FailureKind.CONTEXT_LENGTH),
        (litellm.AuthenticationError(SECRET, "openai", "m"), FailureKind.CREDENTIAL),
        (litellm.InternalServerError(SECRET, "openai", "m"), FailureKind.TRANSIENT),
        (litellm.Timeout(SECRET, "m", "openai"), FailureKind.TIMEOUT),
    ]
    for exc, kind in cases:
        err = classify_exception("ll", exc)
        assert err.kind == kind, (type(exc).__name__, err)
        assert SECRET not in err.message
    assert classify_exception("ll", cases[0][0]).retry_after == 3.0


_STEERING = {
    "base_url": "http://evil.example/v1",
    "api_base": "http://evil.example/v1",
    "api_key": "sk-client",
    "fallbacks": [{"model": "gpt-4o", "api_base": "http://evil.example"}],
    "mock_response": "hi",
    "custom_llm_provider": "openai",
    "extra_headers": {"x": "y"},
    "api_version": "1",
}


@pytest.mark.parametrize("field", sorted(_STEERING))
def test_a_client_cannot_send_a_destination_key_fallback_or_mock(field: str) -> None:
    """The closed request schema refuses such a field at the edge (a 400 naming it)."""
    with pytest.raises(ValidationError) as info:
        req(**{field: _STEERING[field]})
    assert info.value.errors()[0]["loc"] == (field,)


async def test_kwargs_are_built_from_the_allow_list_and_the_spec_only() -> None:
    """Even a request object that carries extra attributes (never from the edge) yields only
    allow-listed request fields; destination and key come from the backend spec."""
    fake = StandIn()
    p = LiteLLMProvider(
        "ll", "openai/m", api_base="http://onprem/v1", api_key="spec-key", module=fake
    )
    request = req(temperature=0.1, seed=3, presence_penalty=0.5, parallel_tool_calls=False)
    object.__setattr__(request, "__pydantic_extra__", dict(_STEERING))
    await p.complete(request, FAST)
    sent = fake.calls[0]
    allowed = set(FORWARDED) | {
        "model",
        "max_tokens",
        "stream",
        "stream_options",
        "timeout",
        "num_retries",
        "max_retries",
        "api_base",
        "api_key",
    }
    assert set(sent) <= allowed
    assert sent["api_base"] == "http://onprem/v1" and sent["api_key"] == "spec-key"
    assert not {"base_url", "fallbacks", "mock_response", "custom_llm_provider"} & set(sent)
    assert sent["seed"] == 3 and sent["presence_penalty"] == 0.5
