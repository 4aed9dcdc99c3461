"""Reconciliation: the ledger's tokens equal what the emulators served, its costs the Decimal
figures computed by hand from the policy prices: streamed and not, three backends, failovers."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage.db import make_engine

PRICES = {
    "cheap": (Decimal("0.15"), Decimal("0.60")),
    "dear": (Decimal("3"), Decimal("15")),
    "local": (Decimal("0.02"), Decimal("0.04")),
}
REPLY = "bir iki üç dört"  # the emulator counts 4 completion tokens


def policy(urls: dict[str, str]) -> str:
    backends = ""
    for name, (pin, pout) in PRICES.items():
        zone = "on_prem" if name == "local" else "cloud"
        backends += f"""
  {name}:
    kind: openai_compat
    zone: {zone}
    base_url: {urls[name]}
    model: emulated-model
    price: {{input_per_mtok: "{pin}", output_per_mtok: "{pout}"}}
    timeouts: {{connect_s: 1, first_token_s: 3, total_s: 5}}
"""
    return f"""
version: 1
backends:{backends}
aliases:
  fast: {{backends: [cheap, dear]}}
  big: {{backends: [dear, local]}}
rules:
  - name: cloud-only-public
    match: {{aliases: [fast], data_classes: [personal, special]}}
    action: block
"""


@pytest.fixture
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    with (
        EmulatorServer(openai_app) as a,
        EmulatorServer(openai_app) as b,
        EmulatorServer(openai_app) as c,
    ):
        servers = {"cheap": a, "dear": b, "local": c}
        for s in servers.values():
            s.state.mode = Mode(reply=REPLY)
        yield servers


def _body(model: str, i: int, stream: bool) -> dict[str, object]:
    body: dict[str, object] = {
        "model": model,
        "stream": stream,
        "messages": [{"role": "user", "content": "merhaba dünya " + "kelime " * (i % 5)}],
    }
    if stream and i % 2:
        body["stream_options"] = {"include_usage": True}
    return body


def test_ledger_reconciles_with_emulators_to_the_kurus(
    emulators: dict[str, EmulatorServer], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    settings = Settings(database_url=url, local_engine=False)
    app = create_app(settings, policy=load_text(policy({k: s.url for k, s in emulators.items()})))
    with TestClient(app) as client:
        # a literal, hand-computed row: 5 prompt tokens ("merhaba dünya" + 3 per message)
        # and 4 completion tokens on `cheap`: 5 * 0.15/1e6 + 4 * 0.60/1e6
        r = client.post("/v1/chat/completions", json=_body("fast", 0, False))
        assert r.status_code == 200 and r.headers["x-gecit-backend"] == "cheap"
        first_id = r.headers["x-request-id"]
        n = 0
        for i in range(24):
            model = "fast" if i % 3 else "big"
            stream = i % 2 == 0
            if i % 5 == 0:  # the first choice fails before answering: failover
                primary = "cheap" if model == "fast" else "dear"
                emulators[primary].state.mode = Mode(
                    kind="status", status=503, times=4, reply=REPLY
                )
            if stream:
                with client.stream(
                    "POST", "/v1/chat/completions", json=_body(model, i, True)
                ) as resp:
                    assert resp.status_code == 200
                    lines = [ln for ln in resp.iter_lines() if ln]
                    assert lines[-1] == "data: [DONE]"
            else:
                assert (
                    client.post("/v1/chat/completions", json=_body(model, i, False)).status_code
                    == 200
                )
            for s in emulators.values():
                s.state.mode = Mode(reply=REPLY)
            n += 1
        rt = client.app.state.runtime  # type: ignore[attr-defined]
        client.portal.call(rt.recorder.drain, 10)  # type: ignore[union-attr]

    engine = make_engine(url)
    with engine.connect() as conn:
        row = conn.execute(
            text(
                "select prompt_tokens, completion_tokens, cost, estimated "
                "from requests where id = :i"
            ),
            {"i": first_id},
        ).one()
        per_backend = conn.execute(
            text(
                "select backend, count(*), sum(prompt_tokens), sum(completion_tokens) "
                "from requests group by backend"
            )
        ).all()
        costs = conn.execute(text("select backend, cost from requests")).all()
        failovers = conn.execute(text("select count(*) from requests where attempts > 1")).one()
    engine.dispose()
    assert (row[0], row[1], Decimal(str(row[2])), row[3]) == (5, 4, Decimal("0.00000315"), False)

    assert sum(c for _, c, _, _ in per_backend) == n + 1
    assert failovers[0] >= 4
    served_backends = 0
    for name, count, prompt, completion in per_backend:
        st = emulators[name].state
        assert (prompt, completion) == (st.served_prompt_tokens, st.served_completion_tokens), name
        pin, pout = PRICES[name]
        expected = (st.served_prompt_tokens * pin + st.served_completion_tokens * pout) / Decimal(
            1_000_000
        )
        ledger = sum((Decimal(str(c)) for b, c in costs if b == name), Decimal(0))
        assert ledger == expected, (name, ledger, expected)
        served_backends += count > 0
    assert served_backends == 3
