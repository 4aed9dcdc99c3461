"""A burst past an on-prem pool's capacity, end to end: a real `gateway serve` process in front
of two simulated vLLM nodes (`gateway emulate vllm`'s app, slowed down so a few dozen requests
overload them) and a cloud emulator that records every body it receives. Policy: public and
personal data may spill to the cloud (transfer basis on record, redaction on); special-category
data may not, and waits in the pool's queue instead.

Under the burst no special-category text reaches the cloud, and every special request is
answered or refused with 503 and Retry-After: none is left to time out. (Latency figures are
bench/fleet_burst.py's, not this test's.)"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import httpx
import orjson
import pytest

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.emulators.vllm import build_app as vllm_app
from tests.e2e.gateway_proc import GatewayProcess
from tests.e2e.policies import cloud_backend

pytestmark = pytest.mark.e2e

SPECIAL = (
    "Hastamız Ayşe Yılmaz'a HIV tanısı kondu",
    "Mehmet Demir diyabet hastası, insülin kullanıyor",
    "Ayşe Yılmaz depresyon tedavisi görüyor",
)
WORDS = ("rapor", "özet", "toplantı", "bütçe", "plan", "ürün", "satış", "hedef", "müşteri")
TIME_SCALE = 0.2  # the nodes run 5x slower than the profile: ~1.5 s to prefill a prompt alone


def policy(nodes: list[str], cloud: str) -> str:
    endpoints = "\n".join(
        f'      - {{name: n{i}, base_url: "{url}/v1", engine: vllm}}' for i, url in enumerate(nodes)
    )
    return f"""
version: 1
backends:
  gpu:
    kind: openai_compat
    zone: on_prem
    base_url: "{nodes[0]}/v1"
    model: meta-llama/Llama-3.1-8B-Instruct
    hourly_cost_usd: "1.80"
    timeouts: {{connect_s: 2, first_token_s: 30, total_s: 60}}
    endpoints:
{endpoints}
    fleet: {{scrape_interval_s: 0.25, queue: {{special: 64}}}}
{cloud_backend(cloud + "/v1")}
aliases:
  chat: {{backends: [gpu, cloud]}}
defaults: {{objective: ordered, redact: true, slo: {{ttft_p95_ms: 2000}}}}
rules:
  - name: special-waits-on-prem
    match: {{data_classes: [special]}}
    slo: {{ttft_p95_ms: 6000}}
    priority: 10
"""


@pytest.fixture(scope="module")
def setup(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[GatewayProcess, EmulatorServer]]:
    tmp: Path = tmp_path_factory.mktemp("fleet-burst")
    app = partial(vllm_app, profile="l40s-8b", time_scale=TIME_SCALE)
    with (
        EmulatorServer(app) as n0,
        EmulatorServer(app) as n1,
        EmulatorServer(openai_app) as cloud,
    ):
        (tmp / "policy.yaml").write_text(policy([n0.url, n1.url], cloud.url))
        g = GatewayProcess(tmp, "--policy", str(tmp / "policy.yaml"), "--no-local-engine")
        g.start(ready_timeout=60)
        try:
            yield g, cloud
        finally:
            g.stop()


def _prompt(rng: random.Random, special: bool) -> str:
    filler = " ".join(rng.choice(WORDS) + str(rng.randrange(10_000)) for _ in range(1500))
    head = rng.choice(SPECIAL) if special else "Aşağıdaki notları özetle"
    return f"{head}. {filler}"


async def _one(client: httpx.AsyncClient, text: str) -> tuple[int, str | None, bool, str]:
    """(status, Retry-After, whether the answer ended properly, the answer's last event: what
    a failure message shows of why an answer did not end properly)."""
    body = {
        "model": "chat",
        "stream": True,
        "max_tokens": 8,
        "messages": [{"role": "user", "content": text}],
    }
    async with client.stream("POST", "/v1/chat/completions", json=body) as resp:
        raw = await resp.aread()
        done = resp.status_code == 200 and b"data: [DONE]" in raw
        last = raw.rstrip().rsplit(b"\n", 1)[-1].decode("utf-8", "replace")
        return resp.status_code, resp.headers.get("retry-after"), done, last


Ended = tuple[bool, int, str | None, bool, str]  # (special, status, Retry-After, complete, last)


async def _burst(url: str, n: int, rate: float, special_share: float) -> list[Ended]:
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:

        async def later(delay: float, special: bool) -> Ended:
            await asyncio.sleep(delay)
            return (special, *(await _one(client, _prompt(rng, special))))

        jobs = []
        t = 0.0
        for _ in range(n):
            t += rng.expovariate(rate)
            jobs.append(later(t, rng.random() < special_share))
        return await asyncio.gather(*jobs)


def test_special_never_reaches_the_cloud_and_is_answered_or_told_when_to_retry(
    setup: tuple[GatewayProcess, EmulatorServer],
) -> None:
    gw, cloud = setup
    t0 = time.monotonic()
    got = asyncio.run(_burst(gw.url, n=36, rate=6.0, special_share=0.4))
    assert time.monotonic() - t0 < 120
    special = [g for g in got if g[0]]
    public = [g for g in got if not g[0]]
    assert len(special) >= 8 and len(public) >= 8
    # the pool could not take everything: some public requests went to the cloud
    assert any(r.body for r in cloud.state.requests), "nothing spilled: the burst was too small"
    received = b"\n".join(r.body for r in cloud.state.requests).decode("utf-8", "replace")
    decoded = "\n".join(orjson.dumps(r.json()).decode() for r in cloud.state.requests if r.body)
    for sentence in SPECIAL:
        assert sentence not in received and sentence not in decoded
    for _, status, retry_after, done, last in special:
        if status == 200:
            assert done, f"a special answer was cut off: {last}"
        else:
            assert status == 503 and retry_after is not None and int(retry_after) >= 1, last
    for _, status, _, done, last in public:
        assert status == 200 and done, f"a public answer failed or was cut off: {last}"
