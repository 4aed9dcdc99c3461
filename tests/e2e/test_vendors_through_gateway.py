"""Issue 3, acceptance 3: through the gateway, the openai SDK gets OpenAI-shaped answers,
streams and tool calls from each vendor.

One real `gateway serve` process; its policy has one alias per vendor, each backed by that
vendor's emulator (Bedrock, Vertex, Replicate, Ollama, OpenAI-compatible) spoken to by the
vendor's own SDK inside the gateway. Cloud credentials come the way an operator gives them,
through the process environment: fake AWS keys (boto3 signs SigV4), a Replicate token, and a
freshly generated Google service-account file whose token endpoint is the Vertex emulator's
(google-auth signs a JWT and exchanges it for an access token)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from gateway.emulators.base import EmulatorServer, Mode, free_port
from gateway.emulators.bedrock import build_app as bedrock_app
from gateway.emulators.ollama import build_app as ollama_app
from gateway.emulators.openai import build_app as openai_app
from gateway.emulators.replicate import build_app as replicate_app
from gateway.emulators.vertex import build_app as vertex_app

pytestmark = pytest.mark.e2e

VENDORS = ("bedrock", "vertex", "replicate", "ollama", "openai")
WITH_TOOLS = ("bedrock", "vertex", "ollama", "openai")
PROMPT = "Yarın Ankara'da hava nasıl olacak?"  # public: no personal data
SA_EMAIL = "gecit-e2e@gecit-test.iam.gserviceaccount.com"
WEATHER_TOOL: Any = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}
# a signed, notified standard contract: the record a cloud destination carries in the policy
TRANSFER = (
    '{mechanism: tr_scc, module: C2P, provider_legal_name: "Emulated Cloud Ltd", '
    "signed: 2025-01-10, notified: 2025-01-15, notification_channel: kep, "
    "classes: [public]}"
)


def policy_yaml(urls: dict[str, str]) -> str:
    t = "timeouts: {connect_s: 2, first_token_s: 10, total_s: 20}"
    return f"""
version: 1
backends:
  bedrock:
    kind: bedrock
    zone: cloud
    country: DE
    region: eu-central-1
    endpoint_url: {urls["bedrock"]}
    model: anthropic.claude-3-haiku-20240307-v1:0
    transfer: {TRANSFER}
    {t}
  vertex:
    kind: vertex
    zone: cloud
    country: DE
    project: gecit-test
    location: europe-west3
    base_url: {urls["vertex"]}
    credentials_env: GECIT_CRED_E2E_GOOGLE_SA
    model: gemini-2.5-flash
    transfer: {TRANSFER}
    {t}
  replicate:
    kind: replicate
    zone: cloud
    country: US
    base_url: {urls["replicate"]}
    model: meta/meta-llama-3-8b-instruct
    transfer: {TRANSFER}
    {t}
  replicate-declared:  # the same model, its lack of tools written in the policy
    kind: replicate
    zone: cloud
    base_url: {urls["replicate"]}
    model: meta/meta-llama-3-8b-instruct
    capabilities: {{tools: false}}
    transfer: {TRANSFER}
    {t}
  ollama:
    kind: ollama
    zone: on_prem
    country: TR
    host: {urls["ollama"]}
    model: emulated-model
    {t}
  openai:
    kind: openai_compat
    zone: on_prem
    country: TR
    base_url: {urls["openai"]}
    model: emulated-model
    {t}
aliases:
{"".join(f"  {v}-chat: {{backends: [{v}]}}{chr(10)}" for v in VENDORS)}
  replicate-declared-chat: {{backends: [replicate-declared]}}
rules:
  - name: public-anywhere
    match: {{data_classes: [public]}}
    allow_zones: [on_prem, cloud]
    objective: ordered
  - name: cloud-only-aliases-take-public-text-only
    match: {{aliases: [bedrock-chat, vertex-chat, replicate-chat,
                       replicate-declared-chat]}}
    action: block
    message: this alias reaches a cloud backend and takes public text only
"""


def service_account_file(path: Path, token_uri: str) -> Path:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "gecit-test",
                "private_key_id": "e2e",
                "private_key": pem,
                "client_email": SA_EMAIL,
                "client_id": "1",
                "token_uri": token_uri,
            }
        )
    )
    return path


@pytest.fixture(scope="module")
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    apps = {
        "bedrock": bedrock_app,
        "vertex": vertex_app,
        "replicate": replicate_app,
        "ollama": ollama_app,
        "openai": openai_app,
    }
    servers = {name: EmulatorServer(app).start() for name, app in apps.items()}
    try:
        yield servers
    finally:
        for srv in servers.values():
            srv.stop()


@pytest.fixture(scope="module")
def gateway(
    emulators: dict[str, EmulatorServer], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("vendors")
    policy = tmp / "policy.yaml"
    policy.write_text(policy_yaml({n: s.url for n, s in emulators.items()}))
    sa = service_account_file(tmp / "sa.json", emulators["vertex"].url + "/token")
    port = free_port()
    env = {
        **os.environ,
        "GECIT_DATABASE_URL": f"sqlite:///{tmp / 'ledger.db'}",
        "GECIT_JOURNAL_PATH": str(tmp / "journal"),
        "GECIT_LOG_LEVEL": "warning",
        "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        "REPLICATE_API_TOKEN": "r8_e2e_token",
        "GECIT_CRED_E2E_GOOGLE_SA": str(sa),
    }
    for var in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS"):
        env.pop(var, None)
    log = tmp / "gateway.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gateway",
                "serve",
                "--no-local-engine",
                "--policy",
                str(policy),
                "--port",
                str(port),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(url + "/healthz", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("gateway did not start:\n" + log.read_text()[-3000:])


@pytest.fixture
def client(gateway: str, emulators: dict[str, EmulatorServer]) -> openai.OpenAI:
    for srv in emulators.values():
        srv.state.reset()
    return openai.OpenAI(
        base_url=gateway + "/v1", api_key="sk-placeholder", max_retries=0, timeout=30
    )


def ask(text: str = PROMPT) -> list[Any]:
    return [{"role": "user", "content": text}]


def vendor_calls(srv: EmulatorServer) -> list[Any]:
    """What reached the vendor API (not the OAuth token endpoint or model metadata)."""
    return [r for r in srv.state.requests if r.method == "POST" and r.path != "/token"]


def test_every_vendor_alias_is_listed(client: openai.OpenAI) -> None:
    assert {m.id for m in client.models.list()} == {f"{v}-chat" for v in VENDORS} | {
        "replicate-declared-chat"
    }


@pytest.mark.parametrize("vendor", VENDORS)
def test_completion(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer], vendor: str
) -> None:
    raw = client.chat.completions.with_raw_response.create(
        model=f"{vendor}-chat", messages=ask(), max_tokens=200
    )
    assert raw.status_code == 200
    assert raw.headers["x-gecit-backend"] == vendor
    assert raw.headers["x-gecit-data-class"] == "public"
    assert raw.headers["x-gecit-rule"] == "public-anywhere"
    done = raw.parse()
    assert done.object == "chat.completion" and done.model == f"{vendor}-chat"
    assert len(done.choices) == 1
    choice = done.choices[0]
    assert choice.message.role == "assistant" and choice.finish_reason == "stop"
    assert choice.message.content == emulators[vendor].state.mode.reply
    assert done.usage is not None and done.usage.prompt_tokens > 0
    assert done.usage.completion_tokens > 0
    assert len(vendor_calls(emulators[vendor])) == 1
    others = [n for n in VENDORS if n != vendor]
    assert all(vendor_calls(emulators[n]) == [] for n in others)


@pytest.mark.parametrize("vendor", VENDORS)
def test_stream(client: openai.OpenAI, emulators: dict[str, EmulatorServer], vendor: str) -> None:
    raw = client.chat.completions.with_raw_response.create(
        model=f"{vendor}-chat", messages=ask(), stream=True, stream_options={"include_usage": True}
    )
    assert raw.headers["x-gecit-backend"] == vendor
    assert raw.headers["content-type"].startswith("text/event-stream")
    pieces: list[str] = []
    finishes: list[str] = []
    usage = None
    with raw.parse() as stream:  # the SDK stops cleanly only on `data: [DONE]`
        for chunk in stream:
            assert chunk.object == "chat.completion.chunk"
            assert chunk.model == f"{vendor}-chat"
            if chunk.usage is not None:
                usage = chunk.usage
            for c in chunk.choices:
                if c.delta.content:
                    pieces.append(c.delta.content)
                if c.finish_reason:
                    finishes.append(c.finish_reason)
    assert len(pieces) > 1, pieces  # really streamed, not one blob
    assert "".join(pieces) == emulators[vendor].state.mode.reply
    assert finishes == ["stop"]
    assert usage is not None and usage.completion_tokens > 0


@pytest.mark.parametrize("vendor", WITH_TOOLS)
def test_tool_call_round_trip(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer], vendor: str
) -> None:
    messages = ask("Ankara'da hava nasıl? Aracı kullan.")
    raw = client.chat.completions.with_raw_response.create(
        model=f"{vendor}-chat", messages=messages, tools=[WEATHER_TOOL]
    )
    assert raw.headers["x-gecit-backend"] == vendor
    first = raw.parse().choices[0]
    assert first.finish_reason == "tool_calls"
    calls = first.message.tool_calls
    assert calls is not None and len(calls) == 1
    call: Any = calls[0]
    assert call.type == "function" and call.id
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "İstanbul"}
    messages += [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.function.name, "arguments": call.function.arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call.id, "content": '{"temp_c": 21, "sky": "açık"}'},
    ]
    second = client.chat.completions.create(
        model=f"{vendor}-chat", messages=messages, tools=[WEATHER_TOOL]
    )
    assert second.choices[0].finish_reason == "stop"
    assert second.choices[0].message.content == emulators[vendor].state.mode.reply
    assert len(vendor_calls(emulators[vendor])) == 2


@pytest.mark.parametrize("vendor", WITH_TOOLS)
def test_streamed_tool_call(client: openai.OpenAI, vendor: str) -> None:
    name, args, ids, finishes = "", "", set(), []
    with client.chat.completions.create(
        model=f"{vendor}-chat",
        stream=True,
        messages=ask("Ankara'da hava? Aracı kullan."),
        tools=[WEATHER_TOOL],
    ) as stream:
        for chunk in stream:
            for c in chunk.choices:
                for d in c.delta.tool_calls or []:
                    assert d.index == 0
                    if d.id:
                        ids.add(d.id)
                    if d.function and d.function.name:
                        name += d.function.name
                    if d.function and d.function.arguments:
                        args += d.function.arguments
                if c.finish_reason:
                    finishes.append(c.finish_reason)
    assert len(ids) == 1 and name == "get_weather"
    assert json.loads(args) == {"city": "İstanbul"}
    assert finishes == ["tool_calls"]


def test_replicate_refuses_tools_with_a_clear_400(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    """Refused by the adapter before any call (`replicate-chat`), or by the policy engine
    when the policy declares the backend's capabilities (`replicate-declared-chat`)."""
    for alias in ("replicate-chat", "replicate-declared-chat"):
        for stream in (False, True):
            with pytest.raises(openai.BadRequestError) as err:
                client.chat.completions.create(
                    model=alias, messages=ask(), tools=[WEATHER_TOOL], stream=stream
                )
            body: Any = err.value.body
            assert body["code"] == "unsupported_capability"
            assert body["type"] == "invalid_request_error"
            assert "'replicate" in body["message"] and "tools" in body["message"], body
    assert vendor_calls(emulators["replicate"]) == []
    ok = client.chat.completions.create(model="replicate-declared-chat", messages=ask())
    assert ok.choices[0].message.content == emulators["replicate"].state.mode.reply


def test_a_canceled_replicate_stream_reaches_the_client_as_an_error(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    emulators["replicate"].state.mode = Mode(kind="canceled", cut_after=2)
    pieces: list[str] = []
    finishes: list[str] = []
    with pytest.raises(openai.APIError) as err:  # raised mid-iteration, by the error event
        with client.chat.completions.create(
            model="replicate-chat", messages=ask(), stream=True
        ) as stream:
            for chunk in stream:
                pieces += [c.delta.content for c in chunk.choices if c.delta.content]
                finishes += [c.finish_reason for c in chunk.choices if c.finish_reason]
    assert pieces == ["Merhaba! ", "Size "] and finishes == []
    assert "interrupted" in str(err.value.body)


@pytest.mark.parametrize("stream", [False, True])
def test_a_vertex_safety_block_is_a_200_content_filter_without_output(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer], stream: bool
) -> None:
    emulators["vertex"].state.mode = Mode(kind="blocked")
    if not stream:
        done = client.chat.completions.create(model="vertex-chat", messages=ask())
        assert done.choices[0].finish_reason == "content_filter"
        assert not done.choices[0].message.content
        assert done.usage is not None and done.usage.completion_tokens == 0
        return
    finishes, usage = [], None
    with client.chat.completions.create(
        model="vertex-chat", messages=ask(), stream=True, stream_options={"include_usage": True}
    ) as chunks:
        for chunk in chunks:
            finishes += [c.finish_reason for c in chunk.choices if c.finish_reason]
            usage = chunk.usage or usage
    assert finishes == ["content_filter"]
    assert usage is not None and usage.completion_tokens == 0


def test_a_bedrock_tool_history_without_tools_is_answered(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    done = client.chat.completions.create(
        model="bedrock-chat",
        messages=[
            *ask("Ankara'da hava nasıl?"),
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "tooluse_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Ankara"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "tooluse_1", "content": '{"temp_c": 21}'},
        ],
    )
    assert done.choices[0].message.content == emulators["bedrock"].state.mode.reply
