"""Reads every on-prem node's own signals off the request path, every `interval_s`.

One task polls all nodes concurrently; a request never waits for a scrape. A node's figures
are kept with the time they were read and count only while younger than `max_age_s`: a node
that stops answering its metrics loses its figures (the picker then falls back on Geçit's own
in-flight counts) and, after `unhealthy_after` failed scrapes in a row, is reported unhealthy.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import httpx

from gateway.fleet.signals import (
    NodeSignals,
    parse_llamacpp_metrics,
    parse_llamacpp_slots,
    parse_ollama_ps,
    parse_vllm_metrics,
)

log = logging.getLogger("gateway.fleet")


@dataclass(frozen=True, slots=True)
class NodeTarget:
    name: str
    engine: str  # vllm | llamacpp | ollama
    base_url: str  # the server's root (a trailing /v1 is ignored)
    model: str = ""

    @property
    def root(self) -> str:
        url = self.base_url.rstrip("/")
        return url[:-3] if url.endswith("/v1") else url


@dataclass(frozen=True, slots=True)
class ScraperConfig:
    interval_s: float = 0.5
    max_age_s: float = 2.0
    timeout_s: float = 1.0
    unhealthy_after: int = 3


@dataclass(frozen=True, slots=True)
class Reading:
    signals: NodeSignals
    at: float
    failures: int  # failed scrapes in a row since the last good one


class EngineScraper:
    def __init__(
        self,
        targets: Iterable[NodeTarget],
        client: httpx.AsyncClient,
        clock: Callable[[], float],
        config: ScraperConfig = ScraperConfig(),
    ) -> None:
        self._targets = {t.name: t for t in targets}
        self._client = client
        self._clock = clock
        self._config = config
        self._readings: dict[str, Reading] = {}
        self._failures: dict[str, int] = {}

    def signals(self, name: str) -> NodeSignals | None:
        """The node's figures if fresh, else None (unknown)."""
        r = self._readings.get(name)
        if r is None or self._clock() - r.at > self._config.max_age_s:
            return None
        return r.signals

    def scraped_at(self, name: str) -> float | None:
        r = self._readings.get(name)
        return None if r is None else r.at

    @property
    def max_age_s(self) -> float:
        return self._config.max_age_s

    def healthy(self, name: str) -> bool:
        return self._failures.get(name, 0) < self._config.unhealthy_after

    async def scrape_all(self) -> None:
        await asyncio.gather(*(self._scrape(t) for t in self._targets.values()))

    async def run(self) -> None:
        while True:
            await self.scrape_all()
            await asyncio.sleep(self._config.interval_s)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _scrape(self, t: NodeTarget) -> None:
        try:
            signals = await self._read(t)
        except Exception as exc:  # any failure is the node's: the loop must keep polling
            n = self._failures[t.name] = self._failures.get(t.name, 0) + 1
            log.warning("scrape of node %s failed (%d in a row): %s", t.name, n, type(exc).__name__)
            return
        self._failures[t.name] = 0
        self._readings[t.name] = Reading(signals, self._clock(), 0)

    async def _get(self, url: str) -> httpx.Response:
        resp = await self._client.get(url, timeout=self._config.timeout_s)
        resp.raise_for_status()
        return resp

    async def _read(self, t: NodeTarget) -> NodeSignals:
        if t.engine == "vllm":
            return parse_vllm_metrics((await self._get(f"{t.root}/metrics")).text)
        if t.engine == "llamacpp":
            return await self._read_llamacpp(t)
        if t.engine == "ollama":
            return parse_ollama_ps((await self._get(f"{t.root}/api/ps")).json(), t.model)
        raise ValueError(f"unknown engine kind {t.engine!r}")

    async def _read_llamacpp(self, t: NodeTarget) -> NodeSignals:
        """`/slots` and `/metrics`, each as far as the server serves it: one started with
        `--no-slots` or without `--metrics` (or llama-cpp-python's server, which has neither)
        still answers, so it is up, with the figures it gives (Geçit's own counts do the rest)."""
        got = NodeSignals()
        served = False
        for path in ("/slots", "/metrics"):
            try:
                resp = await self._get(f"{t.root}{path}")
            except httpx.HTTPStatusError as exc:
                if exc.response.status_code >= 500 and exc.response.status_code != 501:
                    raise  # the server is in trouble, not merely without the endpoint
                continue
            served = True
            if path == "/slots":
                got = got.merged(parse_llamacpp_slots(resp.json()))
            else:
                got = got.merged(parse_llamacpp_metrics(resp.text))
        if not served:
            await self._get(f"{t.root}/v1/models")  # up at all? raises when not
        return got
