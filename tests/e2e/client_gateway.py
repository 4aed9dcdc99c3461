"""A real `gateway serve` process in front of one OpenAI emulator, for the client-API tests:
one priced cloud backend under a Turkish SCC for public and personal data, redaction on,
special-category data blocked, API keys required."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.gateway_proc import GatewayProcess
from tests.e2e.helpers import new_key
from tests.e2e.policies import cloud_backend

PRICE_IN, PRICE_OUT = "0.5", "1.5"  # USD per million tokens


def policy_yaml(cloud: str) -> str:
    """One priced cloud backend under a Turkish SCC for public and personal data, redaction
    on, special-category data blocked."""
    return f"""
version: 1
backends:
{cloud_backend(cloud, price_in=PRICE_IN, price_out=PRICE_OUT)}
aliases:
  chat: {{backends: [cloud]}}
defaults: {{objective: ordered, redact: true}}
rules:
  - name: special-stays-home
    match: {{data_classes: [special]}}
    action: block
"""


class Gateway:
    def __init__(self, proc: GatewayProcess, key: str, cloud: EmulatorServer) -> None:
        self.proc = proc
        self.key = key
        self.cloud = cloud

    @property
    def url(self) -> str:
        return self.proc.url

    def post(self, path: str, body: dict[str, object], **headers: str) -> httpx.Response:
        h = {"authorization": f"Bearer {self.key}", **headers}
        return httpx.post(self.url + path, json=body, headers=h, timeout=30)


@contextmanager
def running_gateway(tmp: Path, *flags: str) -> Iterator[Gateway]:
    """`flags`: more `gateway serve` flags."""
    with EmulatorServer(openai_app) as cloud:
        (tmp / "policy.yaml").write_text(policy_yaml(cloud.url))
        proc = GatewayProcess(
            tmp,
            "--policy",
            str(tmp / "policy.yaml"),
            "--no-local-engine",
            *flags,
            env={"GECIT_REQUIRE_KEYS": "1"},
        )
        key = new_key(f"sqlite:///{proc.db}", "acme", "assistant")
        proc.start(ready_timeout=60)
        try:
            yield Gateway(proc, key, cloud)
        finally:
            proc.stop()
