"""Admission at a busy pool: when even the best node would start after the first-token
deadline, public traffic spills to the cloud candidate the policy allows, and special-category
traffic never does: it gets 503 with Retry-After at once instead of a timeout."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.emulators.vllm import build_app as vllm_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

POLICY = """
version: 1
backends:
  gpus:
    kind: openai_compat
    zone: on_prem
    base_url: '{gpu}'
    model: llama-8b
    timeouts: {{connect_s: 1, first_token_s: 8, total_s: 40}}
    endpoints:
      - {{name: l40s, base_url: '{gpu}', engine: vllm}}
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: '{cloud}'
    model: emulated-model
aliases:
  chat: {{backends: [gpus, cloud]}}
"""


def _long(word: str, n: int) -> str:
    # the node's clock runs at 0.1: it prefills ~500 tokens per wall second
    return f"{word} " * n


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[TestClient, EmulatorServer, EmulatorServer]]:
    with (
        EmulatorServer(partial(vllm_app, profile="l40s-8b", time_scale=0.1)) as gpu,
        EmulatorServer(openai_app) as cloud,
    ):
        settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
        policy = load_text(POLICY.format(gpu=gpu.url, cloud=cloud.url))
        with TestClient(create_app(settings, policy=policy)) as c:
            yield c, gpu, cloud


def _ask(c: TestClient, text: str, data_class: str = "public") -> object:
    return c.post(
        "/v1/chat/completions",
        headers={"x-data-class": data_class},
        json={"model": "chat", "max_tokens": 2, "messages": [{"role": "user", "content": text}]},
    )


def test_busy_pool_spills_public_and_refuses_special_with_retry_after(
    setup: tuple[TestClient, EmulatorServer, EmulatorServer],
) -> None:
    c, gpu, cloud = setup
    warm = _ask(c, _long("ab", 1000))  # Geçit measures the node's prefill speed (~500/s)
    assert warm.headers["x-gecit-node"] == "l40s"  # type: ignore[attr-defined]
    first: list[object] = []
    busy = threading.Thread(target=lambda: first.append(_ask(c, _long("yol", 2500))))
    busy.start()  # ~5 s predicted: within the 8 s first-token deadline
    while len(gpu.state.requests) < 2:  # the long prompt is on the node, prefilling
        threading.Event().wait(0.02)
    public = _ask(c, _long("hava", 2000))  # 2,500 + 2,000 queued: ~9 s, past the deadline
    special = _ask(c, _long("su", 2000), "special")
    busy.join(30)
    assert first[0].status_code == 200  # type: ignore[attr-defined]
    assert first[0].headers["x-gecit-node"] == "l40s"  # type: ignore[attr-defined]
    assert public.status_code == 200, public.text  # type: ignore[attr-defined]
    assert public.headers["x-gecit-backend"] == "cloud"  # type: ignore[attr-defined]
    assert special.status_code == 503  # type: ignore[attr-defined]
    assert int(special.headers["retry-after"]) >= 1  # type: ignore[attr-defined]
    assert special.json()["error"]["type"] == "service_unavailable"  # type: ignore[attr-defined]
    assert len(cloud.state.requests) == 1  # only the public request ever left
    assert "su su" not in cloud.state.requests[0].body.decode()
    again = _ask(c, "kısa bir soru", "special")  # the node is free again: served on-prem
    assert again.status_code == 200  # type: ignore[attr-defined]
    assert again.headers["x-gecit-node"] == "l40s"  # type: ignore[attr-defined]
