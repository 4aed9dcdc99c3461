"""create_app: the composition root. Every I/O seam is injected here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from fastapi import FastAPI
from fastapi.responses import ORJSONResponse
from starlette.types import Receive, Scope, Send

from gateway.admin.console import build_router as build_console_router
from gateway.admin.keys_web import build_router as build_keys_page_router
from gateway.admin.oidc_routes import build_router as build_oidc_router
from gateway.admin.policy_routes import build_router as build_policy_admin_router
from gateway.admin.policy_web import build_router as build_policy_page_router
from gateway.admin.reports import build_router as build_reports_admin_router
from gateway.admin.simulate_routes import build_router as build_simulate_router
from gateway.core.clock import Clock, IdGenerator, RandomIds, SystemClock
from gateway.core.offload import ChildPool
from gateway.fleet.collector import FleetCollector
from gateway.metrics import Metrics, backends_up, build_metrics_router
from gateway.openai_api import errors as api_errors
from gateway.openai_api.auth import Authenticator, FailedAuthLimiter, KeyCache
from gateway.openai_api.client_apis import build_client_apis_router
from gateway.openai_api.edge import LeanEdge
from gateway.openai_api.embeddings import build_embeddings_router
from gateway.openai_api.handlers import build_router
from gateway.openai_api.intake import BodyOffload
from gateway.openai_api.limits import CloseIfUnread, EdgeLimits, LimitedReceive, has_body
from gateway.openai_api.middleware import RequestIdMiddleware
from gateway.openai_api.openapi import build_openapi_router
from gateway.openai_api.response_store import ResponseStore
from gateway.policy.limits import limits_from
from gateway.policy.loader import CompiledPolicy, load_file
from gateway.providers.base import Provider, StartupCheck
from gateway.providers.registry import BuildContext
from gateway.runtime import Runtime
from gateway.service.admission import Attribution
from gateway.service.attribution import Tagger
from gateway.service.budget_alerts import BudgetAlerter, Delivery, Views
from gateway.service.budgets import BudgetGate
from gateway.service.chat import ChatService
from gateway.service.dispatcher import Dispatcher
from gateway.service.embed_dispatch import EmbedDispatcher
from gateway.service.embeddings import EmbeddingsService
from gateway.service.oidc.wiring import build_oidc
from gateway.service.policy_sync import PolicySync, file_text
from gateway.service.pool import ProviderPool
from gateway.service.rate_windows import LocalWindow, RedisWindow
from gateway.service.ratelimit import RateGate
from gateway.service.router import PolicyRouter, redactor_for
from gateway.service.routing import start_routing as _start_routing
from gateway.service.webhook import Webhook
from gateway.settings import Settings
from gateway.usage.audit import AuditListener, AuditLog
from gateway.usage.cloud_reference import transfer_basis_of
from gateway.usage.db import create_schema, make_engine
from gateway.usage.onprem_cost import OnPremCosts
from gateway.usage.policy_changes import start_change_log
from gateway.usage.rollups import RollupListener
from gateway.usage.sessions import SessionStore
from gateway.usage.tag_rollups import TagRollupListener
from gateway.usage.wiring import PolicyView, start_ledger
from gateway.warmup import warm_up

if TYPE_CHECKING:  # imported only when a policy uses the bundled engine
    from sqlalchemy.engine import Engine

    from gateway.providers.local.engine import LocalEngine

log = logging.getLogger("gateway")

# what the child processes run: imported when each starts, not by its first job (the client
# APIs' wire models and translations: a large body of theirs is parsed in a child too)
CHILD_MODULES = (
    "gateway.openai_api.intake",
    "gateway.openai_api.responses_wire",
    "gateway.openai_api.anthropic_wire",
    "gateway.openai_api.completions",
    "gateway.sensitivity.child",
)


@dataclass
class Seams:
    """Everything with I/O or time that tests may replace."""

    clock: Clock = field(default_factory=SystemClock)
    ids: IdGenerator = field(default_factory=RandomIds)
    transport: httpx.AsyncBaseTransport | None = None
    env: Mapping[str, str] | None = None


class GatewayApp(FastAPI):
    """FastAPI, with the hot routes (`POST /v1/chat/completions`, `/healthz`, `/readyz`)
    answered by the lean edge before FastAPI's middleware stack and router; every other
    request (and the lifespan) goes through FastAPI. `edge = None` serves all through FastAPI.
    """

    edge: LeanEdge | None = None
    limits: EdgeLimits = EdgeLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        edge = self.edge
        if edge is not None and not scope.get("root_path"):
            handler = edge.routes.get((scope["method"], scope["path"]))
            if handler is not None:
                # the edge counts its own body against the limit and ends the connection
                # when it answers before the body was read (no wrappers on the hot path)
                await handler(scope, receive, send)
                return
        # no route can buffer a body over the limit, and an answer given before the body
        # was read ends the connection (the rest of the body is never read)
        if has_body(scope):
            limited = LimitedReceive(scope, receive, self.limits)
            receive, send = limited, CloseIfUnread(send, limited)
        await super().__call__(scope, receive, send)


def create_app(
    settings: Settings, seams: Seams | None = None, policy: CompiledPolicy | None = None
) -> GatewayApp:
    seams = seams or Seams()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            app.state.runtime = await _start(settings, seams, policy, stack)
            await warm_up(app)  # FastAPI's lazy route state and anyio, before any client
            yield

    app = GatewayApp(
        title="Geçit",
        lifespan=lifespan,
        default_response_class=ORJSONResponse,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    api_errors.install(app)
    app.include_router(build_router())
    app.include_router(build_embeddings_router())
    app.include_router(build_client_apis_router())  # responses, messages, completions
    app.include_router(build_reports_admin_router())
    app.include_router(build_metrics_router())
    app.include_router(build_openapi_router())  # the public API's document, /openapi.json
    app.include_router(build_policy_admin_router())
    app.include_router(build_console_router())  # browser sign-in, sign-out, static files
    app.include_router(build_oidc_router())  # OIDC sign-in (404 while off)
    app.include_router(build_policy_page_router())
    app.include_router(build_simulate_router())
    app.include_router(build_keys_page_router())  # keys, budgets and rate limits
    app.add_middleware(RequestIdMiddleware, ids=seams.ids, clock=seams.clock)
    app.limits = EdgeLimits.of(settings)
    app.edge = LeanEdge(lambda: app.state.runtime, seams.ids, seams.clock, app.limits)
    return app


async def _start(
    settings: Settings,
    seams: Seams,
    policy: CompiledPolicy | None,
    stack: contextlib.AsyncExitStack,
) -> Runtime:
    compiled = policy or load_file(settings.policy, limits_from(settings))
    if settings.upstream:  # `serve --upstream URL`: that server replaces the local engine
        from gateway.upstream import upstream_policy

        compiled = await upstream_policy(compiled, settings.upstream, transport=seams.transport)
    env = dict(os.environ) if seams.env is None else dict(seams.env)
    local = await _maybe_start_local(settings, compiled, stack)
    local_url = local.base_url if local is not None else None
    ctx = BuildContext(
        env=env,
        local_base_url=local_url,
        transport=seams.transport,
        local_health=local.health if local is not None else None,
    )
    pool = ProviderPool(ctx)
    pool.sync(compiled)
    stack.push_async_callback(pool.aclose)
    await _log_start_up_problems(pool.providers)

    engine = make_engine(settings.database_url)
    create_schema(engine)
    stack.callback(engine.dispose)
    metrics = Metrics()
    # the policy first: everything below reads the running policy from its reloader
    sync = PolicySync(
        engine,
        interval_s=settings.policy_sync_s,
        redis_url=settings.redis_url,
        channel=settings.redis_prefix + "policy",
    )
    routing = _start_routing(settings, seams.clock, compiled, pool, stack, sink=sync.sink)
    reloader = routing.reloader
    changes = await start_change_log(
        engine, seams.clock, stack, compiled.sha256, compiled.source
    )  # policy_changes + audit entries
    reloader.add_sink(changes.record)
    sync.attach(reloader)
    policy_now = PolicyView(reloader.current)
    ledger = await start_ledger(
        settings,
        engine,
        policy_now,
        stack,
        observers=[metrics.observe],
        listeners=[
            RollupListener(pool.zone_of),
            TagRollupListener(pool.zone_of),
            AuditListener(
                AuditLog(engine, seams.clock),
                lambda: reloader.current().sha256,
                lambda b: transfer_basis_of(policy_now(), b),
                pool.zone_of,
            ),
        ],
    )
    recorder = ledger.recorder
    tagger = Tagger(policy_now)
    alerter = _budget_alerter(settings, engine, seams.clock, lambda: gate.views())
    gate = BudgetGate(
        engine,
        policy_now,
        ledger.pricer,
        seams.clock,
        sweep_every_s=settings.budget_sweep_s,
        stale_after_s=settings.budget_hold_stale_s,
        backlog=lambda: recorder.backlog,
        tags=tagger,
        on_exhausted=alerter.note_exhausted if alerter is not None else None,
    )
    await gate.start()
    stack.push_async_callback(gate.stop)
    if alerter is not None:
        await alerter.start()
        stack.push_async_callback(alerter.stop)
    metrics.add_budget_source(
        gate.views, lambda: recorder.backlog, lambda: recorder.quarantine.count
    )
    auth = Authenticator(
        KeyCache(engine, seams.clock, stale_s=settings.key_stale_s),
        seams.clock,
        keys_required=settings.keys_required,
        admin_key=settings.admin_key,
        metrics_key=settings.metrics_key,
        limiter=FailedAuthLimiter(seams.clock, settings.auth_failures_per_minute),
        sessions=SessionStore(
            engine, ttl_s=settings.session_ttl_s, per_key=settings.sessions_per_key
        ),
        oidc_issuer=settings.oidc_issuer if settings.oidc_on else None,
    )
    metrics.add_runtime_source(  # gecit_backend_up and gecit_policy_reloads_total, at scrape
        backends_up(pool.providers, pool.disabled, routing.stats, seams.clock.monotonic),
        lambda: {"accepted": reloader.accepted, "rejected": reloader.rejected},
    )
    metrics.registry.register(FleetCollector(pool.providers, policy_now))  # per-node figures
    costs = OnPremCosts(policy_now)  # on-prem hourly cost shared by concurrent requests
    dispatcher = Dispatcher(
        pool.providers,
        seams.clock,
        pool.options_for,
        stats=routing.stats,
        zone_of=pool.zone_of,
        costs=costs,
    )
    # work that would hold the GIL for long (a large body's parse, a long request's
    # classification) runs in child processes, started now
    children = ChildPool(settings.offload_workers, preload=CHILD_MODULES)
    stack.callback(children.close)  # the router's classifier starts them (warm) below
    metrics.add_offload_source(children)
    router = PolicyRouter(
        reloader.current,
        routing.stats,
        seams.clock,
        pool.disabled,
        budgets=gate.state_for,
        rand=random.random,
        offload=children,
    )
    rates = _rate_gate(settings, policy_now, seams.clock, stack)  # chat and embeddings share it
    chat = ChatService(
        router,
        dispatcher,
        recorder,
        seams.clock,
        redact=redactor_for(reloader.current, router.classifiers),
        budgets=gate,
        extra=Attribution(rates=rates, tags=tagger),
    )
    embeddings = EmbeddingsService(  # /v1/embeddings, routed like chat
        router,
        EmbedDispatcher(
            pool.providers,
            seams.clock,
            pool.options_for,
            stats=routing.stats,
            zone_of=pool.zone_of,
            costs=costs,
        ),
        recorder,
        seams.clock,
        budgets=gate,
        rates=rates,
    )
    # shared policy version: newest accepted document in the database wins on every replica
    await sync.start(stack, None if settings.upstream else file_text(compiled))
    return Runtime(
        reloader=reloader,
        providers=pool.providers,
        disabled=pool.disabled,
        chat=chat,
        embeddings=embeddings,
        clock=seams.clock,
        started_at=seams.clock.now(),
        settings=settings,
        engine=engine,
        ledger=ledger,
        budgets=gate,
        auth=auth,
        metrics=metrics,
        stats=routing.stats,
        policy_sync=sync,
        local_engine=local,
        body_offload=BodyOffload(children, settings.offload_body_bytes, settings.offload_timeout_s),
        responses=ResponseStore(
            seams.clock, settings.responses_max_kept, settings.responses_max_bytes
        ),
        oidc=build_oidc(settings, env, engine, seams.clock, stack),
    )


def _budget_alerter(
    settings: Settings, engine: Engine, clock: Clock, views: Views
) -> BudgetAlerter | None:
    """The budget alert webhook, when one is configured (settings refuse a URL unsigned)."""
    if settings.budget_alert_url is None or settings.budget_alert_secret is None:
        return None
    return BudgetAlerter(
        engine,
        views,
        Webhook(
            settings.budget_alert_url,
            settings.budget_alert_secret,
            settings.budget_alert_timeout_s,
        ),
        clock,
        Delivery(
            check_s=settings.budget_alert_check_s,
            attempts=settings.budget_alert_attempts,
            backoff_s=settings.budget_alert_backoff_s,
        ),
    )


def _rate_gate(
    settings: Settings, policy_now: PolicyView, clock: Clock, stack: contextlib.AsyncExitStack
) -> RateGate:
    """Rate limits counted on the shared Redis when there is one, else in this process."""
    shared = None
    if settings.redis_url:
        import redis.asyncio as aioredis
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError

        timeout = settings.rate_limit_redis_timeout_s
        client = aioredis.from_url(
            settings.redis_url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            # a pooled connection a Redis restart closed is retried once on a new one, so the
            # first request after the restart does not count Redis as away again
            retry=aioredis.retry.Retry(NoBackoff(), 1),
            retry_on_error=[RedisConnectionError],
        )
        stack.push_async_callback(client.aclose)
        shared = RedisWindow(client, settings.redis_prefix)
    local = LocalWindow(lambda: clock.monotonic() * 1000, share=settings.rate_limit_local_share)
    return RateGate(
        policy_now,
        local,
        clock,
        shared,
        fallback="closed" if settings.rate_limit_fallback == "closed" else "local",
        retry_s=settings.rate_limit_retry_s,
    )


async def _log_start_up_problems(providers: Mapping[str, Provider]) -> None:
    """Backends that can tell what is wrong at start-up (a `StartupCheck`, e.g. an Ollama
    model that is not pulled) get it logged; they stay built, `check()` says down."""
    checks = {n: p.verify() for n, p in providers.items() if isinstance(p, StartupCheck)}
    results = await asyncio.gather(*checks.values(), return_exceptions=True)
    for name, problem in zip(checks, results, strict=True):
        if isinstance(problem, BaseException):
            log.warning("backend %-16s start-up check failed (%s)", name, type(problem).__name__)
        elif problem:
            log.warning("backend %-16s %s", name, problem)


async def _maybe_start_local(
    settings: Settings, policy: CompiledPolicy, stack: contextlib.AsyncExitStack
) -> LocalEngine | None:
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
        model = (
            Path(settings.local_model_path) if settings.local_model_path else find_bundled_model()
        )
    except LocalEngineUnavailable as exc:
        log.warning("%s", exc)
        return None
    if not engine_installed():
        log.warning("llama-cpp-python is not installed: the local backend is disabled")
        return None
    engine = LocalEngine(
        model, n_ctx=settings.local_ctx, max_restart_delay=settings.local_restart_max_s
    )
    stack.push_async_callback(engine.stop)
    await engine.start()
    return engine
