"""The redaction round trip, end to end.

A real gateway (create_app under uvicorn on a free loopback port) routes a `personal` prompt to
a cloud backend (the OpenAI emulator, recorded under a signed + notified Turkish SCC that covers
`personal`, redaction on) because the on-prem backend of the alias is down. The emulator ECHOES
what it received, streamed in 3-character pieces that split placeholders across chunks. The
cloud never sees an original value; the client, through the openai SDK, gets them back."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import orjson
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.settings import Settings
from tests.e2e.helpers import ServedGateway, new_key
from tests.e2e.policies import cloud_backend

# computed checksum-valid values (tests/unit/sensitivity/helpers.py builds them the same way)
TCKN = "28473615040"
IBAN = "TR33 0006 1005 1978 6457 8413 26"
EMAIL = "ayse.yilmaz@ornek.com.tr"
NAME = "Ayşe Yılmaz"
ORIGINALS = (TCKN, IBAN, IBAN.replace(" ", ""), EMAIL, NAME, "Yılmaz")
PERSONAL = (
    f"Müşterimiz {NAME} (T.C. kimlik no {TCKN}) için {IBAN} numaralı hesaba iade "
    f"yapın ve dekontu {EMAIL} adresine gönderin."
)
SPECIAL = f"{NAME} diyabet hastası, insülin dozunu nasıl ayarlamalıyız?"


def policy_yaml(cloud: str, onprem: str) -> str:
    short = "{connect_s: 1, first_token_s: 2, total_s: 5}"
    t = f"timeouts: {short}"
    return f"""
version: 1
backends:
  onprem: {{kind: openai_compat, zone: on_prem, base_url: "{onprem}", model: m, {t}}}
{cloud_backend(cloud, timeouts=short)}
aliases:
  chat: {{backends: [onprem, cloud]}}
defaults: {{objective: ordered, redact: true}}
"""


@pytest.fixture(scope="module")
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    with EmulatorServer(openai_app) as cloud, EmulatorServer(openai_app) as onprem:
        yield {"cloud": cloud, "onprem": onprem}


@pytest.fixture(scope="module")
def gateway(
    emulators: dict[str, EmulatorServer], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedGateway]:
    tmp = tmp_path_factory.mktemp("redaction")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'ledger.db'}",
        local_engine=False,
        journal_path=str(tmp / "journal"),
        probe_interval_s=0,
    )
    text = policy_yaml(emulators["cloud"].url, emulators["onprem"].url)
    key = new_key(settings.database_url, "acme", "crm")
    with ServedGateway(settings, text, key=key) as gw:
        yield gw


@pytest.fixture
def sdk(gateway: ServedGateway, emulators: dict[str, EmulatorServer]) -> Iterator[openai.OpenAI]:
    emulators["cloud"].state.reset()
    emulators["cloud"].state.mode = Mode(echo=True, echo_piece=3)
    emulators["onprem"].state.reset()
    emulators["onprem"].state.mode = Mode(kind="status", status=503)  # the on-prem node is down
    with openai.OpenAI(
        base_url=f"http://127.0.0.1:{gateway.port}/v1",
        api_key=gateway.key,
        max_retries=0,
        timeout=20,
    ) as client:
        yield client


def _what_the_cloud_saw(emu: EmulatorServer) -> bytes:
    """Every byte the cloud emulator received (bodies, paths, headers), raw and JSON-decoded."""
    assert emu.state.requests, "the cloud emulator was not called"
    raw = b"\n".join(r.body for r in emu.state.requests)
    decoded = orjson.dumps([r.as_dict() for r in emu.state.requests]).decode()
    as_text = "\n".join(str(r.json()) for r in emu.state.requests)
    return raw + decoded.encode() + as_text.encode()


def _assert_no_original_left_for_the_cloud(emu: EmulatorServer) -> None:
    seen = _what_the_cloud_saw(emu)
    for value in ORIGINALS:
        assert value.encode() not in seen, "an original value reached the cloud"
    for placeholder in (b"[TCKN_1]", b"[IBAN_1]", b"[EPOSTA_1]", b"[AD_SOYAD_1]"):
        assert placeholder in seen


def test_non_streamed_round_trip(sdk: openai.OpenAI, emulators: dict[str, EmulatorServer]) -> None:
    raw = sdk.chat.completions.with_raw_response.create(
        model="chat", messages=[{"role": "user", "content": PERSONAL}]
    )
    assert raw.headers["x-gecit-data-class"] == "personal"
    assert raw.headers["x-gecit-backend"] == "cloud"
    assert raw.headers["x-gecit-attempts"] == "2"  # on-prem tried first, it is down
    answer = raw.parse().choices[0].message.content
    assert answer == PERSONAL  # the echo of placeholders, restored to every original
    _assert_no_original_left_for_the_cloud(emulators["cloud"])
    # the on-prem node (inside the boundary) got the original text, not the placeholders
    onprem = emulators["onprem"].state.requests[0].json()
    assert onprem["messages"][0]["content"] == PERSONAL


def test_streamed_round_trip_with_placeholders_split_across_chunks(
    sdk: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    raw = sdk.chat.completions.with_raw_response.create(
        model="chat",
        messages=[{"role": "user", "content": PERSONAL}],
        stream=True,
        stream_options={"include_usage": True},
    )
    assert raw.headers["x-gecit-data-class"] == "personal"
    assert raw.headers["x-gecit-backend"] == "cloud"
    pieces = [c.choices[0].delta.content or "" for c in raw.parse() if c.choices]
    answer = "".join(pieces)
    assert answer == PERSONAL
    assert not any("[" in p and "]" not in p.split("[")[-1] for p in pieces), (
        "a half placeholder reached the client"
    )
    _assert_no_original_left_for_the_cloud(emulators["cloud"])
    # the echo came in 3-character pieces, so every 8+-character placeholder was split; the
    # client still got many pieces (held back only while a placeholder was incomplete)
    sent = emulators["cloud"].state.requests[-1].json()["messages"][0]["content"]
    assert "[TCKN_1]" in sent and len(pieces) > len(sent) // 6


def test_special_category_is_refused_with_no_cloud_call(
    sdk: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    for stream in (False, True):
        with pytest.raises(openai.APIStatusError) as info:
            sdk.chat.completions.create(
                model="chat", stream=stream, messages=[{"role": "user", "content": SPECIAL}]
            )
        assert info.value.status_code == 503
        body = info.value.body
        assert isinstance(body, dict) and body["code"] == "no_backend_available"
        assert "special" in body["message"] and "diyabet" not in body["message"]
        assert info.value.response.headers.get("x-gecit-data-class") in (None, "special")
    assert emulators["cloud"].state.requests == []
