"""A backend whose check passes in `/readyz` leaves its open circuit at once: the next request
is let through as the probe instead of 503s for the rest of the cool-down (an engine or node
that came back is ready AND served)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.policy.loader import load_text
from gateway.settings import Settings


def test_readyz_check_that_passes_half_opens_the_circuit(
    openai_emulator: EmulatorServer, tmp_path: Path
) -> None:
    policy = load_text(f"""
version: 1
backends:
  node: {{kind: openai_compat, zone: on_prem, base_url: "{openai_emulator.url}", model: m}}
aliases:
  chat: {{backends: [node]}}
""")
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False, probe_interval_s=0
    )  # no background probes: /readyz only
    body = {"model": "chat", "messages": [{"role": "user", "content": "merhaba"}]}
    with TestClient(create_app(settings, policy=policy)) as c:
        openai_emulator.state.mode = Mode(kind="status", status=500)
        assert [c.post("/v1/chat/completions", json=body).status_code for _ in range(3)] == [
            503,
            503,
            503,
        ]
        openai_emulator.state.mode = Mode()  # the node is back
        kept = c.post("/v1/chat/completions", json=body)
        assert kept.status_code == 503 and "circuit open" in kept.json()["error"]["message"]
        assert c.get("/readyz").status_code == 200
        served = c.post("/v1/chat/completions", json=body)
        assert served.status_code == 200, served.text
        assert c.post("/v1/chat/completions", json=body).status_code == 200  # closed again
