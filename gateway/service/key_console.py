"""What the keys page may do for whom: list, create, revoke and rotate keys through the key
store (`usage/keys`, which `gateway keys` uses too), and which budgets and rate limits a viewer
sees. `viewer` is the signed-in tenant, or None for the admin scope.

A tenant sees and manages only its own tenant's API-scope keys. An admin-scope key is out of a
tenant's reach even when it was filed under that tenant: rotating it would hand the tenant a
new admin key. Refusals say "no active key" whether the key is another tenant's or missing, so
a tenant cannot probe for other tenants' key ids.

Blocking calls: run them off the event loop."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.engine import Engine

from gateway.policy.rate_limits import ANY, RateLimits
from gateway.usage import keys
from gateway.usage.keys import ADMIN_SCOPE, API_SCOPE, KeyInfo

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # a tenant or app name made here
MAX_LABEL = 128  # a key's free-text name


class KeyRefused(ValueError):
    """A refused key operation; `status` is the HTTP status to answer (400, 403 or 404)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _reachable(key: KeyInfo, viewer: str | None) -> bool:
    return viewer is None or (key.tenant == viewer and key.scope != ADMIN_SCOPE)


def visible_keys(engine: Engine, viewer: str | None) -> list[KeyInfo]:
    return [k for k in keys.list_keys(engine, viewer) if _reachable(k, viewer)]


def create(
    engine: Engine,
    viewer: str | None,
    *,
    tenant: str,
    app: str,
    name: str,
    admin_scope: bool,
    now: float,
    actor: str | None = None,
) -> tuple[KeyInfo, str]:
    """A new key (its info, the full key to show once). A tenant creates only API-scope keys of
    its own tenant (an empty tenant field means its own)."""
    tenant = tenant or (viewer or "")
    if viewer is not None and (admin_scope or tenant != viewer):
        raise KeyRefused("a tenant creates only API keys of its own tenant", 403)
    for what, value in (("tenant", tenant), ("app", app)):
        if not NAME.fullmatch(value):
            raise KeyRefused(
                f"the {what} is 1-64 letters, digits, '.', '_' or '-', starting with a letter "
                "or digit",
                400,
            )
    if len(name) > MAX_LABEL or not name.isprintable():
        raise KeyRefused(f"the name is at most {MAX_LABEL} printable characters", 400)
    scope = ADMIN_SCOPE if admin_scope else API_SCOPE
    return keys.create_key(
        engine, tenant, app, scope=scope, name=name or None, now=now, actor=actor
    )


def _own(engine: Engine, viewer: str | None, key_id: str) -> KeyInfo:
    key = keys.get_key(engine, key_id) if len(key_id) <= 64 else None
    if key is None or not key.active or not _reachable(key, viewer):
        raise KeyRefused(f"no active key {key_id[:64]!r}", 404)
    return key


def revoke(
    engine: Engine, viewer: str | None, key_id: str, now: float, actor: str | None = None
) -> KeyInfo:
    """Revoke a key the viewer may manage; its sessions end in the same transaction."""
    key = _own(engine, viewer, key_id)
    if not keys.revoke_key(engine, key.id, now, actor):
        raise KeyRefused(f"no active key {key_id!r}", 404)  # revoked meanwhile
    return key


def rotate(
    engine: Engine, viewer: str | None, key_id: str, now: float, actor: str | None = None
) -> tuple[KeyInfo, str]:
    """A new key in place of one the viewer may manage (the old one revoked)."""
    _own(engine, viewer, key_id)
    rotated = keys.rotate_key(engine, key_id, now, actor)
    if rotated is None:
        raise KeyRefused(f"no active key {key_id!r}", 404)
    return rotated


@dataclass(frozen=True, slots=True)
class LimitRow:
    kind: str  # tenant | key | alias
    subject: str  # a name, or "*" (each one without an entry of its own)
    requests_per_minute: int | None
    tokens_per_minute: int | None


def visible_limits(
    limits: RateLimits, viewer: str | None, key_ids: Sequence[str]
) -> list[LimitRow]:
    """The running policy's `rate_limits`; a tenant sees the entries that can apply to it (its
    tenant's, its keys', the "*" ones and every alias's)."""
    out: list[LimitRow] = []
    for kind, table, mine in (
        ("tenant", limits.tenants, {viewer, ANY}),
        ("key", limits.keys, {*key_ids, ANY}),
        ("alias", limits.aliases, None),
    ):
        for subject, spec in sorted(table.items()):
            if viewer is None or mine is None or subject in mine:
                out.append(
                    LimitRow(kind, subject, spec.requests_per_minute, spec.tokens_per_minute)
                )
    return out
