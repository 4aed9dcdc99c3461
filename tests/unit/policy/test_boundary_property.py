"""Property: over random policies, classes and backend failure sequences, the data boundary
holds end to end (engine + dispatcher with fake providers), and the trace explains every
dropped candidate."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.core.clock import SystemClock
from gateway.core.errors import FailureKind, GatewayError, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from gateway.policy.schema import Policy
from gateway.providers.base import CallOptions, Capabilities
from gateway.service.dispatcher import Dispatcher, Outcome

KINDS = [
    FailureKind.TRANSIENT,
    FailureKind.RATE_LIMIT,
    FailureKind.TIMEOUT,
    FailureKind.UNREACHABLE,
    FailureKind.PROVIDER,
]


class Fake:
    def __init__(self, name: str, failures: list[FailureKind], calls: list[str]) -> None:
        self.name = name
        self.capabilities = Capabilities()
        self._failures = failures
        self._calls = calls

    def _next(self) -> None:
        self._calls.append(self.name)
        if self._failures:
            kind = self._failures.pop(0)
            raise ProviderError(kind, f"{self.name} failed", backend=self.name)

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        self._next()
        return ChatResult(text="ok", finish_reason="stop", usage=None, model="m")

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        self._next()
        yield ChatChunk(text="ok", finish_reason="stop")

    async def check(self) -> bool:
        return True

    async def aclose(self) -> None:
        return None


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 5))
    backends: dict[str, Any] = {}
    for i in range(n):
        zone = draw(st.sampled_from(["on_prem", "cloud"]))
        b: dict[str, Any] = {
            "kind": "openai_compat",
            "zone": zone,
            "base_url": "http://x",
            "model": "m",
        }
        if zone == "cloud" and draw(st.booleans()):
            mech = draw(st.sampled_from(["tr_scc", "bcr", "adequacy", "none"]))
            classes = (
                ["public"]
                if mech == "none"
                else draw(
                    st.lists(st.sampled_from(["public", "personal"]), min_size=1, unique=True)
                )
            )
            b["transfer"] = {
                "mechanism": mech,
                "classes": classes,
                "signed": "2025-01-06",
                "notified": "2025-01-08",
            }
        backends[f"b{i}"] = b
    rule: dict[str, Any] = {
        "name": "r",
        "redact": draw(st.booleans()),
        "objective": draw(st.sampled_from(["ordered", "cheapest", "fastest", "weighted"])),
    }
    if draw(st.booleans()):
        rule["allow_zones"] = draw(
            st.lists(st.sampled_from(["on_prem", "cloud"]), min_size=1, unique=True)
        )
    policy = Policy.model_validate(
        {
            "version": 1,
            "backends": backends,
            "rules": [rule],
            "aliases": {"a": {"backends": list(backends)}},
            "defaults": {"retry": {"attempts": draw(st.integers(0, 2)), "backoff_ms": 0}},
        }
    )
    failures = {name: draw(st.lists(st.sampled_from(KINDS), max_size=3)) for name in backends}
    return {
        "policy": policy,
        "cls": draw(st.sampled_from(["public", "personal", "special"])),
        "failures": failures,
        "stream": draw(st.booleans()),
        "seed": draw(st.floats(0, 0.99)),
    }


async def _run(d: Any, providers: dict[str, Fake], zones: dict[str, str], stream: bool) -> None:
    async def no_sleep(_s: float) -> None:
        return None

    disp = Dispatcher(providers, SystemClock(), zone_of=zones.get, sleep=no_sleep)
    request = ChatRequest.model_validate(
        {"model": "a", "messages": [{"role": "user", "content": "x"}]}
    )
    try:
        if stream:
            _first, rest = await disp.open_stream(d, lambda _n: request, Outcome())
            async for _ in rest:
                pass
        else:
            await disp.complete(d, lambda _n: request, Outcome())
    except (GatewayError, ProviderError):
        pass


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_boundary_holds_whatever_fails(s: dict[str, Any]) -> None:
    policy: Policy = s["policy"]
    d = decide(policy, RequestInfo(alias="a", data_class=s["cls"], seed=s["seed"]))
    # the trace explains every candidate that is not kept
    assert set(d.candidates) | {x.backend for x in d.dropped} == set(policy.backends)
    assert not set(d.candidates) & {x.backend for x in d.dropped}
    assert all(x.reason and x.code for x in d.dropped)
    calls: list[str] = []
    providers = {n: Fake(n, list(f), calls) for n, f in s["failures"].items()}
    zones = {n: b.zone for n, b in policy.backends.items()}
    asyncio.run(_run(d, providers, zones, s["stream"]))
    for name in calls:
        spec = policy.backends[name]
        if spec.zone != "cloud":
            continue
        assert s["cls"] != "special", "special data reached a cloud backend"
        if s["cls"] == "personal":
            assert spec.transfer is not None and "personal" in spec.transfer.classes
            assert spec.transfer.mechanism != "none"
            assert d.redact and d.needs_redaction(name)


def test_dispatcher_refuses_a_cloud_candidate_the_decision_does_not_allow() -> None:
    """The second wall: even a (wrong) decision listing a cloud backend for an on-prem-only
    request does not make the dispatcher call it."""
    policy = Policy.model_validate(
        {
            "version": 1,
            "backends": {
                "c": {
                    "kind": "openai_compat",
                    "zone": "cloud",
                    "base_url": "http://x",
                    "model": "m",
                }
            },
            "aliases": {"a": {"backends": ["c"]}},
        }
    )
    d = decide(policy, RequestInfo(alias="a", data_class="special"))
    forged = type(d)(alias="a", candidates=("c",), allowed_zones=frozenset({"on_prem"}))
    calls: list[str] = []
    asyncio.run(_run(forged, {"c": Fake("c", [], calls)}, {"c": "cloud"}, False))
    assert calls == []
