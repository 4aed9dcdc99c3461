"""Process settings: every setting has a GECIT_ env var and a CLI flag (the flag wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

DEFAULT_POLICY = Path(__file__).resolve().parent / "policies" / "default.yaml"


@dataclass(frozen=True, slots=True)
class Settings:
    policy: str = str(DEFAULT_POLICY)
    database_url: str = "sqlite:///./gecit.db"
    host: str = "127.0.0.1"
    port: int = 8080
    log_level: str = "info"
    # background cadences (seconds; 0 turns the loop off, as tests do)
    probe_interval_s: float = 10.0  # health probes of every backend
    policy_watch_s: float = 2.0  # how often the policy file is checked for changes
    policy_sync_s: float = 1.0  # how often the shared policy version is read from the database
    budget_sweep_s: float = 60.0  # how often budget holds are swept
    budget_hold_stale_s: float = 3600.0  # a hold older than this is released by the sweep
    redis_url: str | None = None
    redis_prefix: str = "gecit:"  # keys and channels on a shared Redis
    admin_key: str | None = None
    # None = decide from the listen address (loopback only -> keys optional)
    require_keys: bool | None = None
    upstream: str | None = None
    local_engine: bool = True  # start the bundled llama.cpp server when the policy uses it
    local_model_path: str | None = None
    local_ctx: int = 2048
    journal_path: str | None = None
    drain_seconds: float = 30.0  # SIGTERM: how long in-flight requests (streams) may finish

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ) if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get("GECIT_" + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _coerce(f.name, raw)
        s = cls(**values)
        clean = {k: v for k, v in overrides.items() if v is not None}
        return replace(s, **clean) if clean else s

    @property
    def keys_required(self) -> bool:
        if self.require_keys is not None:
            return self.require_keys
        return self.host not in ("127.0.0.1", "localhost", "::1")


_BOOLS = {"require_keys", "local_engine"}
_INTS = {"port", "local_ctx"}
_FLOATS = {"drain_seconds", "probe_interval_s", "policy_watch_s", "policy_sync_s",
           "budget_sweep_s", "budget_hold_stale_s"}


def _coerce(name: str, raw: str) -> Any:
    if name in _BOOLS:
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"GECIT_{name.upper()} must be true or false, got {raw!r}")
    if name in _INTS:
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"GECIT_{name.upper()} must be an integer, got {raw!r}") from None
    if name in _FLOATS:
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"GECIT_{name.upper()} must be a number, got {raw!r}") from None
    return raw
