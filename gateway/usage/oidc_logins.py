"""OIDC sign-ins in progress, in the ledger database every replica shares: a sign-in started
on one replica may come back to another. Each row is only two hashes and two times: the
`state` sent to the issuer and the browser's pre-session cookie, hashed. The PKCE verifier and
the nonce are derived from that cookie (`gateway/service/oidc/flow.py`), so nothing stored here
can finish a sign-in. A callback uses its row once: the delete that finds it is the use.

Blocking calls: run them off the event loop."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine

from gateway.usage.tables import OidcLoginRow

_L = OidcLoginRow.__table__  # type: ignore[attr-defined]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


class TooManyPending(Exception):
    """More sign-ins are in progress than `max_pending`: a flood of started sign-ins."""


class PendingLogins:
    """Start and use (once) the sign-ins in progress. At most `max_pending` live rows: a start
    past that first drops the expired ones, then refuses."""

    def __init__(self, engine: Engine, *, ttl_s: float, max_pending: int) -> None:
        self._engine = engine
        self.ttl_s = ttl_s
        self._max = max_pending

    def start(self, state: str, browser: str, now: float) -> None:
        with self._engine.begin() as conn:
            live = conn.execute(select(func.count()).select_from(_L)).scalar_one()
            if live >= self._max:
                conn.execute(delete(_L).where(_L.c.expires_at <= _at(now)))
                live = conn.execute(select(func.count()).select_from(_L)).scalar_one()
                if live >= self._max:
                    raise TooManyPending
            conn.execute(
                _L.insert().values(
                    state_hash=digest(state),
                    browser_hash=digest(browser),
                    created_at=_at(now),
                    expires_at=_at(now + self.ttl_s),
                )
            )

    def use(self, state: str, browser: str, now: float) -> bool:
        """True once for a live sign-in started with this `state` by this browser; the row is
        gone afterwards, whatever the answer (a wrong browser burns the state too: a stolen
        callback URL is of no use to anyone, its owner starts again)."""
        with self._engine.begin() as conn:
            row = (
                conn.execute(
                    delete(_L)
                    .where(_L.c.state_hash == digest(state))
                    .returning(_L.c.browser_hash, _L.c.expires_at)
                )
                .mappings()
                .first()
            )
        if row is None:
            return False
        expires = row["expires_at"]
        if expires.tzinfo is None:  # SQLite gives naive times back
            expires = expires.replace(tzinfo=UTC)
        same = hmac.compare_digest(str(row["browser_hash"]), digest(browser))
        return same and expires > _at(now)
