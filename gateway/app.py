"""create_app: the composition root. Every I/O seam is injected here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.responses import ORJSONResponse

from gateway.core.clock import Clock, IdGenerator, RandomIds, SystemClock
from gateway.metrics import Metrics, build_metrics_router
from gateway.openai_api import errors as api_errors
from gateway.openai_api.auth import Authenticator, KeyCache
from gateway.openai_api.handlers import build_router
from gateway.openai_api.middleware import RequestIdMiddleware
from gateway.policy.loader import CompiledPolicy, load_file
from gateway.providers.base import CallOptions, Provider
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider
from gateway.runtime import Runtime
from gateway.service.budgets import BudgetGate
from gateway.service.chat import ChatService
from gateway.service.dispatcher import Dispatcher
from gateway.service.router import AliasRouter
from gateway.settings import Settings
from gateway.usage.db import create_schema, make_engine
from gateway.usage.wiring import PolicyView, start_ledger

log = logging.getLogger("gateway")


@dataclass
class Seams:
    """Everything with I/O or time that tests may replace."""

    clock: Clock = field(default_factory=SystemClock)
    ids: IdGenerator = field(default_factory=RandomIds)
    transport: httpx.AsyncBaseTransport | None = None
    env: Mapping[str, str] | None = None


def create_app(settings: Settings, seams: Seams | None = None,
               policy: CompiledPolicy | None = None) -> FastAPI:
    seams = seams or Seams()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            app.state.runtime = await _start(settings, seams, policy, stack)
            yield

    app = FastAPI(title="Geçit", lifespan=lifespan, default_response_class=ORJSONResponse,
                  docs_url=None, redoc_url=None, openapi_url=None)
    api_errors.install(app)
    app.include_router(build_router())
    app.include_router(build_metrics_router())
    app.add_middleware(RequestIdMiddleware, ids=seams.ids, clock=seams.clock)
    return app


async def _start(settings: Settings, seams: Seams, policy: CompiledPolicy | None,
                 stack: contextlib.AsyncExitStack) -> Runtime:
    compiled = policy or load_file(settings.policy)
    env = dict(os.environ) if seams.env is None else dict(seams.env)
    local = await _maybe_start_local(settings, compiled, stack)
    local_url = local.base_url if local is not None else None
    ctx = BuildContext(env=env, local_base_url=local_url, transport=seams.transport)
    providers: dict[str, Provider] = {}
    disabled: dict[str, str] = {}
    for name, spec in compiled.policy.backends.items():
        try:
            providers[name] = build_provider(name, spec, ctx)
        except BackendDisabled as exc:
            disabled[name] = str(exc)
    for name, spec in compiled.policy.backends.items():
        if name in providers:
            log.info("backend %-16s kind=%-13s zone=%-7s enabled", name, spec.kind, spec.zone)
        else:
            log.info("backend %-16s kind=%-13s zone=%-7s DISABLED: %s", name, spec.kind,
                     spec.zone, disabled[name])
    for p in providers.values():
        stack.push_async_callback(p.aclose)
    await _log_start_up_problems(providers)

    engine = make_engine(settings.database_url)
    create_schema(engine)
    stack.callback(engine.dispose)
    metrics = Metrics()
    policy_now = PolicyView(compiled)
    ledger = await start_ledger(settings, engine, policy_now, stack, observers=[metrics.observe])
    recorder = ledger.recorder
    gate = BudgetGate(engine, policy_now, ledger.pricer, seams.clock)
    await gate.start()
    stack.push_async_callback(gate.stop)
    metrics.add_budget_source(gate.views, lambda: recorder.backlog)
    auth = Authenticator(KeyCache(engine, seams.clock), seams.clock,
                         keys_required=settings.keys_required, admin_key=settings.admin_key)

    def options_for(name: str) -> CallOptions:
        t = compiled.policy.backends[name].timeouts
        return CallOptions(connect_timeout=t.connect_s, first_byte_timeout=t.first_token_s,
                           total_timeout=t.total_s)

    dispatcher = Dispatcher(providers, seams.clock, options_for)
    chat = ChatService(AliasRouter(compiled, disabled), dispatcher, recorder, seams.clock,
                       budgets=gate)
    extras: dict[str, Any] = {"recorder": recorder, "engine": engine, "local_engine": local}
    extras.update(metrics=metrics, budgets=gate, auth=auth, ledger=ledger)
    return Runtime(policy=compiled, providers=providers, disabled=disabled, chat=chat,
                   clock=seams.clock, started_at=seams.clock.now(), extras=extras)


async def _log_start_up_problems(providers: Mapping[str, Provider]) -> None:
    """Backends that can tell what is wrong at start-up (`async verify() -> str | None`, e.g.
    an Ollama model that is not pulled) get it logged; they stay built, `check()` says down."""
    checks = {n: p.verify() for n, p in providers.items()  # type: ignore[attr-defined]
              if callable(getattr(p, "verify", None))}
    results = await asyncio.gather(*checks.values(), return_exceptions=True)
    for name, problem in zip(checks, results, strict=True):
        if isinstance(problem, BaseException):
            log.warning("backend %-16s start-up check failed (%s)", name, type(problem).__name__)
        elif problem:
            log.warning("backend %-16s %s", name, problem)


async def _maybe_start_local(settings: Settings, policy: CompiledPolicy,
                             stack: contextlib.AsyncExitStack) -> Any:
    if not any(b.kind == "local" for b in policy.policy.backends.values()):
        return None
    if not settings.local_engine:
        return None
    from gateway.providers.local.engine import (
        LocalEngine,
        LocalEngineUnavailable,
        engine_installed,
        find_bundled_model,
    )

    try:
        model = (Path(settings.local_model_path) if settings.local_model_path
                 else find_bundled_model())
    except LocalEngineUnavailable as exc:
        log.warning("%s", exc)
        return None
    if not engine_installed():
        log.warning("llama-cpp-python is not installed: the local backend is disabled")
        return None
    engine = LocalEngine(model, n_ctx=settings.local_ctx)
    stack.push_async_callback(engine.stop)
    await engine.start()
    return engine
