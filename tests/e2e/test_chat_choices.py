"""Chat `n`: the real `openai` SDK against `gateway serve` (started with `--max-choices 3`) in
front of the OpenAI emulator. `n` choices are `n` calls fanned out to the routed backend, each
asking it for one choice; the answer carries choices 0..n-1 (streamed: each chunk names its
choice), its usage is the sum of what the emulator served, and the request is one ledger row
with those summed tokens and their cost. More than the maximum is a 400 naming `n`."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import openai
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from tests.e2e.client_gateway import Gateway, running_gateway
from tests.e2e.test_client_apis_ledger import PRICE_IN, PRICE_OUT, _rows

REPLY = "Ankara Türkiye'nin başkentidir."
USER = [{"role": "user", "content": "Türkiye'nin başkenti neresi?"}]


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(tmp_path_factory.mktemp("choices"), "--max-choices", "3") as g:
        yield g


@pytest.fixture
def cloud(gw: Gateway) -> EmulatorServer:
    gw.cloud.state.reset()
    gw.cloud.state.mode = Mode(reply=REPLY)
    return gw.cloud


@pytest.fixture
def oai(gw: Gateway) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(
        base_url=gw.url + "/v1", api_key=gw.key, max_retries=0, timeout=30
    ) as client:
        yield client


def _one_choice_each(cloud: EmulatorServer, n: int) -> None:
    sent = [r.json() for r in cloud.state.requests]
    assert len(sent) == n  # fanned out: one backend call per choice
    assert all(body.get("n") in (None, 1) for body in sent)


def test_n_choices_whole(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    raw = oai.chat.completions.with_raw_response.create(model="chat", messages=USER, n=3)
    out = raw.parse()
    assert [c.index for c in out.choices] == [0, 1, 2]
    assert all(c.message.content == REPLY for c in out.choices)
    _one_choice_each(cloud, 3)
    assert out.usage is not None
    assert out.usage.prompt_tokens == cloud.state.served_prompt_tokens
    assert out.usage.completion_tokens == cloud.state.served_completion_tokens
    assert out.usage.completion_tokens > 0


def test_n_choices_streamed(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    texts: dict[int, str] = {}
    usage = None
    with oai.chat.completions.create(
        model="chat", messages=USER, n=3, stream=True, stream_options={"include_usage": True}
    ) as stream:
        for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage
            for choice in chunk.choices:
                texts[choice.index] = texts.get(choice.index, "") + (choice.delta.content or "")
    assert texts == {0: REPLY, 1: REPLY, 2: REPLY}
    _one_choice_each(cloud, 3)
    assert usage is not None
    assert usage.prompt_tokens == cloud.state.served_prompt_tokens
    assert usage.completion_tokens == cloud.state.served_completion_tokens


def test_n_above_the_maximum_is_a_400_naming_n(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    with pytest.raises(openai.BadRequestError) as err:
        oai.chat.completions.create(model="chat", messages=USER, n=4)
    assert err.value.status_code == 400
    body = err.value.body
    assert isinstance(body, dict) and body["param"] == "n"
    assert "3" in body["message"]
    assert cloud.state.requests == []  # refused before any backend call


def test_the_ledger_counts_every_choice(
    gw: Gateway, oai: openai.OpenAI, cloud: EmulatorServer
) -> None:
    """One row per request, its tokens the sum of every choice the emulator served, its
    cost those tokens at the policy's prices."""
    ids = []
    for stream in (False, True):
        r = gw.post(
            "/v1/chat/completions", {"model": "chat", "messages": USER, "n": 3, "stream": stream}
        )
        assert r.status_code == 200, r.text
        ids.append(r.headers["x-request-id"])
    _one_choice_each(cloud, 6)
    rows = _rows(gw, ids)
    assert sorted(r[0] for r in rows) == sorted(ids)  # one row per request, not per choice
    st = cloud.state
    assert sum(r[1] for r in rows) == st.served_prompt_tokens
    assert sum(r[2] for r in rows) == st.served_completion_tokens
    for _rid, prompt, completion, cost, estimated, status, _s, _a in rows:
        assert (status, estimated) == (200, False)
        assert Decimal(str(cost)) == (
            prompt * Decimal(PRICE_IN) + completion * Decimal(PRICE_OUT)
        ) / Decimal(1_000_000)


def test_special_data_with_n_never_reaches_the_cloud(
    oai: openai.OpenAI, cloud: EmulatorServer
) -> None:
    """The one decision covers every choice: blocked once, no call fanned out."""
    special = [{"role": "user", "content": "Hastam Ayşe Yılmaz HIV pozitif, tedavisini özetle"}]
    for stream in (False, True):
        with pytest.raises(openai.PermissionDeniedError):
            oai.chat.completions.create(
                model="chat",
                messages=special,
                n=3,  # type: ignore[call-overload]
                stream=stream,
            )
    assert cloud.state.requests == []
