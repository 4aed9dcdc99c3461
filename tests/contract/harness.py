"""What one adapter brings to the contract suite: a started emulator and a provider aimed at it.

Each vendor adds `tests/contract/harnesses/<vendor>.py` defining `HARNESS = HarnessSpec(...)`;
the suite in `test_contract.py` runs every check over every harness found there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer, Logged
from gateway.providers.base import Provider


@dataclass
class HarnessSpec:
    name: str
    # builds the emulator app for a server (e.g. gateway.emulators.openai.build_app)
    app_factory: Callable  # type: ignore[type-arg]
    # builds a provider aimed at the running emulator's base URL
    make_provider: Callable[[str], Provider]
    tools: bool = True
    # vendor-specific assertions on what the SDK sent for a given request (path, model id,
    # signed headers, mapped parameters); raise AssertionError on a wrong mapping
    check_sent: Callable[[Logged, ChatRequest], None] | None = None
    # some vendors have no streaming-usage report; the adapter then estimates
    stream_usage_exact: bool = True
    skip_reason: str | None = None


@dataclass
class Harness:
    spec: HarnessSpec
    server: EmulatorServer
    provider: Provider

    @property
    def reply(self) -> str:
        return self.server.state.mode.reply
