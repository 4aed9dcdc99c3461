"""The live set of providers, kept in step with the running policy. On a policy swap, new or
changed backends get fresh providers; replaced ones are retired: closed (their clients and
connections released, and the objects dropped) once the old backend's total timeout has passed,
so streams already running on them finish first.

A backend whose build would block on the network (a cloud credential chain asking a metadata
server) is finished in a worker thread when there is a running event loop: it is listed as
disabled with the reason until then, and enabled (or disabled with the final reason) on the
loop when the thread is done, unless the policy replaced it meanwhile."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping

from gateway.policy.loader import CompiledPolicy
from gateway.policy.schema import BackendSpec
from gateway.providers.base import CallOptions, Provider
from gateway.providers.registry import (
    BackendDisabled,
    BackendPending,
    BuildContext,
    build_provider,
)
from gateway.service.stats import Probe

log = logging.getLogger("gateway")


class ProviderPool:
    def __init__(self, ctx: BuildContext, retire_after_s: float | None = None) -> None:
        self._ctx = ctx
        self._retire_after_s = retire_after_s  # None: the retired backend's total timeout
        self.providers: dict[str, Provider] = {}
        self.disabled: dict[str, str] = {}
        self._specs: dict[str, BackendSpec] = {}
        self._retired: list[Provider] = []
        self._pending: dict[str, object] = {}  # name -> token of the build still running
        self._closed = False
        self._closing: set[asyncio.Task[None]] = set()  # late builds closed after shutdown

    def sync(self, compiled: CompiledPolicy) -> None:
        new_specs: Mapping[str, BackendSpec] = compiled.policy.backends
        providers: dict[str, Provider] = {}
        disabled: dict[str, str] = {}
        pending: list[tuple[str, BackendSpec, Callable[[], Provider]]] = []
        loop = _running_loop()
        ctx = dataclasses.replace(self._ctx, defer_blocking=True) if loop else self._ctx
        for name, spec in new_specs.items():
            old = self._specs.get(name)
            if old == spec and (name in self.providers or name in self.disabled):
                if name in self.providers:
                    providers[name] = self.providers[name]
                else:
                    disabled[name] = self.disabled[name]
                continue
            self._pending.pop(name, None)  # a build still running for the old spec is stale
            try:
                providers[name] = build_provider(name, spec, ctx)
                state = "enabled"
            except BackendPending as exc:
                disabled[name] = str(exc)
                pending.append((name, spec, exc.finish))
                state = f"PENDING: {exc}"
            except BackendDisabled as exc:
                disabled[name] = str(exc)
                state = f"DISABLED: {exc}"
            log.info("backend %-16s kind=%-13s zone=%-7s %s", name, spec.kind, spec.zone, state)
        for name in [n for n in self._pending if n not in new_specs]:
            del self._pending[name]
        for name, p in self.providers.items():
            if providers.get(name) is not p:
                self._retire(p, self._specs.get(name), loop)
        # mutate in place: the dispatcher and router hold these very mappings
        self.providers.clear()
        self.providers.update(providers)
        self.disabled.clear()
        self.disabled.update(disabled)
        self._specs = dict(new_specs)
        for name, spec, finish in pending:
            assert loop is not None  # BackendPending is only raised with defer_blocking
            self._finish_in_thread(loop, name, spec, finish)

    def _finish_in_thread(
        self,
        loop: asyncio.AbstractEventLoop,
        name: str,
        spec: BackendSpec,
        finish: Callable[[], Provider],
    ) -> None:
        token = self._pending[name] = object()

        def work() -> None:
            provider: Provider | None = None
            reason = ""
            try:
                provider = finish()
            except BackendDisabled as exc:
                reason = str(exc)
            except Exception as exc:
                reason = f"could not be built ({type(exc).__name__})"
            try:
                loop.call_soon_threadsafe(self._finished, name, spec, token, provider, reason)
            except RuntimeError:  # the loop is gone: the process is shutting down
                pass

        threading.Thread(target=work, name=f"build-{name}", daemon=True).start()

    def _finished(
        self, name: str, spec: BackendSpec, token: object, provider: Provider | None, reason: str
    ) -> None:
        if self._closed or self._pending.get(name) is not token:
            if provider is not None:  # shut down, or the policy changed this backend meanwhile
                self._retired.append(provider)
                self._close_retired(provider, closing=True)  # it never served: close now
            return
        del self._pending[name]
        if provider is None:
            self.disabled[name] = reason
            state = f"DISABLED: {reason}"
        else:
            self.disabled.pop(name, None)
            self.providers[name] = provider
            state = "enabled"
        log.info("backend %-16s kind=%-13s zone=%-7s %s", name, spec.kind, spec.zone, state)

    def _retire(
        self, provider: Provider, spec: BackendSpec | None, loop: asyncio.AbstractEventLoop | None
    ) -> None:
        self._retired.append(provider)
        if loop is None:  # no loop to close it on: closed at shutdown
            return
        delay = self._retire_after_s
        if delay is None:
            delay = spec.timeouts.total_s if spec is not None else 300.0
        loop.call_later(delay, self._close_retired, provider)

    def _close_retired(self, provider: Provider, closing: bool = False) -> None:
        if self._closed and not closing:
            return  # aclose() has it
        try:
            self._retired.remove(provider)
        except ValueError:
            return
        task = _close_soon(provider)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def zone_of(self, name: str) -> str | None:
        spec = self._specs.get(name)
        return spec.zone if spec is not None else None

    def options_for(self, name: str) -> CallOptions:
        spec = self._specs.get(name)
        if spec is None:
            return CallOptions()
        t = spec.timeouts
        return CallOptions(
            connect_timeout=t.connect_s, first_byte_timeout=t.first_token_s, total_timeout=t.total_s
        )

    def probes(self) -> dict[str, Probe]:
        """Health probes for on-prem nodes (clouds are judged by their answers)."""
        return {n: p.check for n, p in self.providers.items() if self.zone_of(n) == "on_prem"}

    async def aclose(self) -> None:
        self._closed = True
        for p in [*self.providers.values(), *self._retired]:
            try:
                await p.aclose()
            except Exception as exc:
                log.warning("closing backend %s failed: %s", p.name, type(exc).__name__)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _close_soon(provider: Provider) -> asyncio.Task[None]:
    async def close() -> None:
        try:
            await provider.aclose()
        except Exception as exc:
            log.warning("closing backend %s failed: %s", provider.name, type(exc).__name__)

    return asyncio.get_running_loop().create_task(close())
