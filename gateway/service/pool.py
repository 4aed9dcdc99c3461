"""The live set of providers, kept in step with the running policy. On a policy swap, new or
changed backends get fresh providers; replaced ones are retired, not closed, so streams already
running on them finish (they are closed at shutdown)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from gateway.policy.loader import CompiledPolicy
from gateway.policy.schema import BackendSpec
from gateway.providers.base import CallOptions, Provider
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider
from gateway.service.stats import Probe

log = logging.getLogger("gateway")


class ProviderPool:
    def __init__(self, ctx: BuildContext) -> None:
        self._ctx = ctx
        self.providers: dict[str, Provider] = {}
        self.disabled: dict[str, str] = {}
        self._specs: dict[str, BackendSpec] = {}
        self._retired: list[Provider] = []

    def sync(self, compiled: CompiledPolicy) -> None:
        new_specs: Mapping[str, BackendSpec] = compiled.policy.backends
        providers: dict[str, Provider] = {}
        disabled: dict[str, str] = {}
        for name, spec in new_specs.items():
            old = self._specs.get(name)
            if old == spec and (name in self.providers or name in self.disabled):
                if name in self.providers:
                    providers[name] = self.providers[name]
                else:
                    disabled[name] = self.disabled[name]
                continue
            try:
                providers[name] = build_provider(name, spec, self._ctx)
                state = "enabled"
            except BackendDisabled as exc:
                disabled[name] = str(exc)
                state = f"DISABLED: {exc}"
            log.info("backend %-16s kind=%-13s zone=%-7s %s", name, spec.kind, spec.zone, state)
        for name, p in self.providers.items():
            if providers.get(name) is not p:
                self._retired.append(p)
        # mutate in place: the dispatcher and router hold these very mappings
        self.providers.clear()
        self.providers.update(providers)
        self.disabled.clear()
        self.disabled.update(disabled)
        self._specs = dict(new_specs)

    def zone_of(self, name: str) -> str | None:
        spec = self._specs.get(name)
        return spec.zone if spec is not None else None

    def options_for(self, name: str) -> CallOptions:
        spec = self._specs.get(name)
        if spec is None:
            return CallOptions()
        t = spec.timeouts
        return CallOptions(connect_timeout=t.connect_s, first_byte_timeout=t.first_token_s,
                           total_timeout=t.total_s)

    def probes(self) -> dict[str, Probe]:
        """Health probes for on-prem nodes (clouds are judged by their answers)."""
        return {n: p.check for n, p in self.providers.items()
                if self.zone_of(n) == "on_prem"}

    async def aclose(self) -> None:
        for p in [*self.providers.values(), *self._retired]:
            try:
                await p.aclose()
            except Exception as exc:
                log.warning("closing backend %s failed: %s", p.name, type(exc).__name__)
