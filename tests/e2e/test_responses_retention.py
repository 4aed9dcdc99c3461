"""`previous_response_id` with the policy's `responses.retention_s` on: the real `openai` SDK
against `gateway serve` in front of two OpenAI emulators (a priced cloud under a Turkish SCC for
public and personal data, an on-prem node for the rest). A kept conversation is expanded before
classification, so the boundary reads every earlier turn; an unknown id is a 400; a
special-category conversation is served on-prem and never kept; another tenant cannot use an
id it did not create."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.gateway_proc import GatewayProcess
from tests.e2e.helpers import new_key
from tests.e2e.policies import cloud_backend

REPLY = "Ankara Türkiye'nin başkentidir."
SPECIAL = "Hastam Ayşe Yılmaz HIV pozitif, tedavisini özetle"
WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Bir şehrin hava durumu",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}

POLICY = """
version: 1
backends:
{cloud_backend}
  home:
    kind: openai_compat
    zone: on_prem
    base_url: "{home}"
    model: m
    timeouts: {{connect_s: 1, first_token_s: 5, total_s: 10}}
aliases:
  chat: {{backends: [cloud, home]}}
defaults: {{objective: ordered, redact: true}}
responses: {{retention_s: 600}}
"""


class Setup:
    def __init__(
        self,
        proc: GatewayProcess,
        cloud: EmulatorServer,
        home: EmulatorServer,
        keys: tuple[str, str],
    ) -> None:
        self.proc, self.cloud, self.home, self.keys = proc, cloud, home, keys

    def client(self, key: str | None = None) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.proc.url + "/v1", api_key=key or self.keys[0], max_retries=0, timeout=30
        )


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    tmp: Path = tmp_path_factory.mktemp("retention")
    with EmulatorServer(openai_app) as cloud, EmulatorServer(openai_app) as home:
        (tmp / "policy.yaml").write_text(
            POLICY.format(
                cloud_backend=cloud_backend(cloud.url, price_in="0.5", price_out="1.5"),
                home=home.url,
            )
        )
        proc = GatewayProcess(
            tmp,
            "--policy",
            str(tmp / "policy.yaml"),
            "--no-local-engine",
            env={"GECIT_REQUIRE_KEYS": "1"},
        )
        db = f"sqlite:///{proc.db}"
        keys = (new_key(db, "acme", "assistant"), new_key(db, "other", "assistant"))
        proc.start(ready_timeout=60)
        try:
            yield Setup(proc, cloud, home, keys)
        finally:
            proc.stop()


@pytest.fixture
def s(setup: Setup) -> Setup:
    for e in (setup.cloud, setup.home):
        e.state.reset()
        e.state.mode = Mode(reply=REPLY)
    return setup


def _messages(e: EmulatorServer) -> list[dict[str, object]]:
    msgs = e.state.requests[-1].json()["messages"]
    assert isinstance(msgs, list)
    return msgs


@pytest.mark.parametrize("stream", [False, True])
def test_function_call_round_trip_by_previous_response_id(s: Setup, stream: bool) -> None:
    with s.client() as oai:
        if stream:
            events = list(
                oai.responses.create(
                    model="chat", input="İstanbul'da hava nasıl?", tools=[WEATHER], stream=True
                )
            )  # type: ignore[list-item]
            first = events[-1].response  # type: ignore[union-attr]
        else:
            first = oai.responses.create(
                model="chat", input="İstanbul'da hava nasıl?", tools=[WEATHER]
            )  # type: ignore[list-item]
        assert first.store is True
        call = next(o for o in first.output if o.type == "function_call")
        second = oai.responses.create(
            model="chat",
            previous_response_id=first.id,
            tools=[WEATHER],  # type: ignore[list-item]
            input=[
                {
                    "type": "function_call_output",
                    "call_id": call.call_id,
                    "output": '{"derece": 18}',
                }
            ],
        )
    assert second.output_text == REPLY
    assert second.previous_response_id == first.id
    msgs = _messages(s.cloud)  # the whole conversation went out, not only the new item
    assert msgs[0] == {"role": "user", "content": "İstanbul'da hava nasıl?"}
    assert msgs[1]["role"] == "assistant"
    assert msgs[1]["tool_calls"][0]["id"] == call.call_id  # type: ignore[index]
    assert json.loads(msgs[1]["tool_calls"][0]["function"]["arguments"]) == {  # type: ignore[index]
        "city": "İstanbul"
    }
    assert msgs[2] == {"role": "tool", "tool_call_id": call.call_id, "content": '{"derece": 18}'}


def test_unknown_id_is_a_400(s: Setup) -> None:
    with s.client() as oai, pytest.raises(openai.BadRequestError) as err:
        oai.responses.create(model="chat", input="x", previous_response_id="resp_nope")
    body = err.value.body
    assert isinstance(body, dict)
    assert (body["param"], body["code"]) == ("previous_response_id", "previous_response_not_found")
    assert s.cloud.state.requests == [] and s.home.state.requests == []


def test_another_tenant_cannot_continue_it(s: Setup) -> None:
    with s.client() as oai:
        first = oai.responses.create(model="chat", input="Başkent neresi?")
    with s.client(s.keys[1]) as other, pytest.raises(openai.BadRequestError):
        other.responses.create(model="chat", input="Ya nüfusu?", previous_response_id=first.id)


def test_a_special_conversation_is_not_kept(s: Setup) -> None:
    with s.client() as oai:
        first = oai.responses.create(model="chat", input=SPECIAL)
        assert first.store is False
        assert s.cloud.state.requests == [] and len(s.home.state.requests) == 1
        with pytest.raises(openai.BadRequestError) as err:
            oai.responses.create(model="chat", input="Devam et.", previous_response_id=first.id)
    assert isinstance(err.value.body, dict)
    assert err.value.body["param"] == "previous_response_id"


def test_earlier_turns_are_classified_with_the_new_one(s: Setup) -> None:
    """A kept public turn continued with special-category text: the whole expanded
    conversation is classified, goes on-prem, and the result is not kept."""
    with s.client() as oai:
        first = oai.responses.create(model="chat", input="Başkent neresi?")
        assert first.store is True and len(s.cloud.state.requests) == 1
        second = oai.responses.create(model="chat", input=SPECIAL, previous_response_id=first.id)
    assert second.store is False
    assert len(s.cloud.state.requests) == 1  # the special turn never reached the cloud
    msgs = _messages(s.home)
    assert msgs[0] == {"role": "user", "content": "Başkent neresi?"}
    assert msgs[-1] == {"role": "user", "content": SPECIAL}
    r = httpx.post(
        s.proc.url + "/v1/responses",
        timeout=30,
        headers={"authorization": f"Bearer {s.keys[0]}"},
        json={"model": "chat", "input": "x", "previous_response_id": second.id},
    )
    assert r.status_code == 400


def test_kept_conversations_never_reach_the_disk(s: Setup) -> None:
    """In memory only: nothing the gateway writes (ledger, journal, log) holds the text of
    a kept conversation."""
    marker = "Kapadokya balon turu kaçta başlıyor?"
    with s.client() as oai:
        first = oai.responses.create(model="chat", input=marker)
        assert first.store is True
        second = oai.responses.create(
            model="chat", input="Teşekkürler.", previous_response_id=first.id
        )
    assert second.output_text == REPLY
    assert any(marker in str(m.get("content")) for m in _messages(s.cloud))
    s.proc.stop()  # flushes the ledger and the journal
    try:
        written = [p for p in s.proc.db.parent.rglob("*") if p.is_file()]
        assert written
        for path in written:
            assert marker.encode() not in path.read_bytes(), path.name
    finally:
        s.proc.start(ready_timeout=60)
