"""The data boundary on every field of a request, end to end: random valid OpenAI chat and
embeddings requests carry a checksum-valid identifier or a special-category sentence in a random
text-bearing place, and go through a real `gateway serve` process to a cloud emulator that
records every body it receives. Policy: one cloud openai_compat backend with a tr_scc transfer
basis for public and personal data, redaction on, special data never to the cloud.

No raw identifier ever arrives; no special-category text arrives at all (refusing is fine)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.gateway_proc import GatewayProcess
from tests.e2e.policies import cloud_backend
from tests.unit.sensitivity.helpers import group4, make_iban, make_luhn, make_tckn
from tests.unit.sensitivity.test_textplaces import PLACES

pytestmark = pytest.mark.e2e

SPECIAL = (
    "Hastamız Ayşe Yılmaz'a HIV tanısı kondu",
    "Mehmet Demir diyabet hastası, insülin kullanıyor",
    "Ayşe Yılmaz depresyon tedavisi görüyor",
)
FILLER = (
    "Merhaba, nasılsın?",
    "Bugün hava güzel.",
    "Summarise the meeting notes.",
    "Kısa bir özet yaz.",
    "Thanks!",
)


def _policy(cloud: str) -> str:
    return f"""
version: 1
backends:
{cloud_backend(cloud + "/v1")}
aliases:
  chat: {{backends: [cloud]}}
defaults: {{objective: ordered, redact: true}}
rules:
  - name: block-special
    match: {{data_classes: [special]}}
    action: block
    message: special-category data is not sent to the cloud
"""


@pytest.fixture(scope="module")
def cloud() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as emu:
        yield emu


@pytest.fixture(scope="module")
def gateway(
    cloud: EmulatorServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GatewayProcess]:
    tmp: Path = tmp_path_factory.mktemp("boundary")
    (tmp / "policy.yaml").write_text(_policy(cloud.url))
    g = GatewayProcess(tmp, "--policy", str(tmp / "policy.yaml"), "--no-local-engine")
    g.start(ready_timeout=60)
    try:
        yield g
    finally:
        g.stop()


@pytest.fixture(scope="module")
def http(gateway: GatewayProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway.url, timeout=30) as client:
        yield client


digits = st.text("0123456789", min_size=1, max_size=1)


@st.composite
def identifiers(draw: st.DrawFn) -> tuple[str, tuple[str, ...]]:
    """(the text to put in a place, the raw forms that must never reach the cloud)."""
    kind = draw(st.sampled_from(("tckn", "iban", "card")))
    if kind == "tckn":
        value = make_tckn(
            draw(st.sampled_from("123456789")) + draw(st.text("0123456789", min_size=8, max_size=8))
        )
        label = draw(st.sampled_from(("TC", "T.C. kimlik no", "TCKN:", "kimlik")))
        return f"{label} {value}", (value,)
    if kind == "iban":
        value = make_iban("TR", "00061" + draw(st.text("0123456789", min_size=17, max_size=17)))
        shown = draw(st.sampled_from((value, group4(value))))
        return f"IBAN {shown}", (value, group4(value))
    value = make_luhn("4" + draw(st.text("0123456789", min_size=14, max_size=14)))
    shown = draw(st.sampled_from((value, group4(value), group4(value, "-"))))
    return f"kart no {shown}", (value, group4(value), group4(value, "-"))


@st.composite
def payloads(draw: st.DrawFn) -> tuple[str, str]:
    """(text to put in a place, its kind)."""
    if draw(st.booleans()):
        text, _ = draw(identifiers())
        return text, "identifier"
    return draw(st.sampled_from(SPECIAL)), "special"


@st.composite
def chat_bodies(draw: st.DrawFn, text: str) -> dict[str, Any]:
    place = draw(st.sampled_from(sorted(PLACES)))
    body = PLACES[place](f"{draw(st.sampled_from(FILLER))} {text} ")
    lead = draw(
        st.lists(
            st.builds(
                lambda role, t, parts: {
                    "role": role,
                    "content": ([{"type": "text", "text": t}] if parts else t),
                },
                st.sampled_from(("system", "user")),
                st.sampled_from(FILLER),
                st.booleans(),
            ),
            max_size=2,
        )
    )
    body["messages"] = lead + body["messages"]
    for name, strategy in (
        ("temperature", st.floats(0, 2)),
        ("stream", st.booleans()),
        ("max_tokens", st.integers(1, 4096)),
        ("seed", st.integers(0, 99)),
        ("presence_penalty", st.floats(-2, 2)),
        ("parallel_tool_calls", st.booleans()),
    ):
        if draw(st.booleans()):
            body[name] = draw(strategy)
    if body.get("parallel_tool_calls") is not None and not body.get("tools"):
        body.pop("parallel_tool_calls")
    return body


@st.composite
def embeddings_bodies(draw: st.DrawFn, text: str) -> dict[str, Any]:
    inputs = draw(st.lists(st.sampled_from(FILLER), min_size=0, max_size=3))
    body: dict[str, Any] = {"model": "chat"}
    if draw(st.booleans()) or not inputs:
        inputs.insert(draw(st.integers(0, len(inputs))), f"{text} ")
    else:
        body["user"] = text
    body["input"] = inputs
    return body


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, dict[str, Any], str, tuple[str, ...]]:
    if draw(st.booleans()):
        text, raw = draw(identifiers())
        kind = "identifier"
    else:
        text, kind = draw(st.sampled_from(SPECIAL)), "special"
        raw = (text,)
    if draw(st.integers(0, 4)) == 0:
        return "/v1/embeddings", draw(embeddings_bodies(text)), kind, raw
    return "/v1/chat/completions", draw(chat_bodies(text)), kind, raw


def _received(cloud: EmulatorServer, since: int) -> str:
    """What the cloud received since `since` (bodies raw and JSON-decoded, paths)."""
    got = cloud.state.requests[since:]
    raw = b"\n".join(r.body for r in got).decode("utf-8", "replace")
    decoded = "\n".join(orjson.dumps(r.json()).decode() for r in got if r.body)
    return raw + "\n" + decoded


def _check(
    http: httpx.Client,
    cloud: EmulatorServer,
    path: str,
    body: dict[str, Any],
    kind: str,
    raw: tuple[str, ...],
) -> httpx.Response:
    since = len(cloud.state.requests)
    r = http.post(path, json=body)
    assert r.status_code < 500 or r.status_code == 503, r.text
    seen = _received(cloud, since)
    for value in raw:
        assert value not in seen, f"a raw {kind} reached the cloud"
    if kind == "special":
        assert "HIV" not in seen and "diyabet" not in seen and "depresyon" not in seen
    return r


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=requests())
def test_no_raw_value_and_no_special_text_reaches_the_cloud(
    http: httpx.Client,
    cloud: EmulatorServer,
    case: tuple[str, dict[str, Any], str, tuple[str, ...]],
) -> None:
    path, body, kind, raw = case
    _check(http, cloud, path, body, kind, raw)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_each_place_keeps_an_identifier_and_a_special_sentence_from_the_cloud(
    http: httpx.Client, cloud: EmulatorServer, place: str
) -> None:
    tckn = make_tckn("284736150")
    r = _check(
        http, cloud, "/v1/chat/completions", PLACES[place](f"TC {tckn}"), "identifier", (tckn,)
    )
    assert r.status_code == 200, r.text  # redacted and served, not refused
    assert r.headers["x-gecit-data-class"] == "personal"
    r = _check(
        http, cloud, "/v1/chat/completions", PLACES[place](SPECIAL[0]), "special", (SPECIAL[0],)
    )
    assert r.status_code in (403, 503), r.text


@pytest.mark.parametrize("stream", [False, True])
def test_a_redacted_tool_name_comes_back_original_in_the_answers_tool_call(
    http: httpx.Client, cloud: EmulatorServer, stream: bool
) -> None:
    """The cloud sees a placeholder in the tool's name and calls the tool by that name; the
    client gets its own tool name back (streamed too)."""
    tckn = make_tckn("284736150")
    body = {**PLACES["tool_name"](f"TC {tckn}"), "stream": stream}
    original = body["tools"][0]["function"]["name"]
    r = _check(http, cloud, "/v1/chat/completions", body, "identifier", (tckn,))
    assert r.status_code == 200, r.text
    assert "[TCKN_1]" in cloud.state.requests[-1].json()["tools"][0]["function"]["name"]
    if stream:
        events = [
            orjson.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: {")
        ]
        names = [
            c["function"]["name"]
            for e in events
            if e["choices"]
            for c in e["choices"][0]["delta"].get("tool_calls") or ()
            if c.get("function", {}).get("name")
        ]
    else:
        names = [c["function"]["name"] for c in r.json()["choices"][0]["message"]["tool_calls"]]
    assert names == [original]


@pytest.mark.parametrize(
    "part",
    [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
        {"type": "file", "file": {"file_data": "JVBERi0=", "filename": "rapor.pdf"}},
    ],
)
def test_a_part_the_classifier_cannot_read_never_reaches_the_cloud(
    http: httpx.Client, cloud: EmulatorServer, part: dict[str, Any]
) -> None:
    since = len(cloud.state.requests)
    r = http.post(
        "/v1/chat/completions",
        json={
            "model": "chat",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "bu ne?"}, part]}],
        },
    )
    assert r.status_code == 403, r.text  # special: the policy's block rule
    assert "special-category" in r.json()["error"]["message"]
    assert cloud.state.requests[since:] == []


def test_unknown_fields_are_refused_before_any_cloud_call(
    http: httpx.Client, cloud: EmulatorServer
) -> None:
    tckn = make_tckn("284736150")
    since = len(cloud.state.requests)
    for path, body in (
        (
            "/v1/chat/completions",
            {
                "model": "chat",
                "messages": [{"role": "user", "content": "merhaba"}],
                "notes": f"TC {tckn}",
            },
        ),
        ("/v1/embeddings", {"model": "chat", "input": "merhaba", "notes": f"TC {tckn}"}),
    ):
        r = http.post(path, json=body)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["param"] == "notes"
    assert cloud.state.requests[since:] == []


@pytest.mark.parametrize("place", ["input", "input_list", "user"])
def test_each_embeddings_place_keeps_an_identifier_and_a_special_sentence_from_the_cloud(
    http: httpx.Client, cloud: EmulatorServer, place: str
) -> None:
    tckn = make_tckn("284736150")
    for text, kind, raw in (
        (f"TC {tckn}", "identifier", (tckn,)),
        (SPECIAL[0], "special", (SPECIAL[0],)),
    ):
        body: dict[str, Any] = {"model": "chat", "input": "merhaba"}
        if place == "input":
            body["input"] = text
        elif place == "input_list":
            body["input"] = ["merhaba", text]
        else:
            body["user"] = text
        r = _check(http, cloud, "/v1/embeddings", body, kind, raw)
        # embeddings cannot be redacted: personal data has no cloud backend here, special is
        # blocked by the policy
        assert r.status_code == (503 if kind == "identifier" else 403), r.text
