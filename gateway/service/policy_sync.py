"""Shared policy version across replicas.

Every accepted change (admin PUT, file watch, a deployment's new file at start-up) is appended
to the `policy_documents` table; every replica polls the newest id (about once a second, one
indexed row) and applies a newer document through its own reloader, validated like any other:
a document this replica refuses is logged and the running policy keeps serving. With Redis
configured, the new head is also published on a channel so replicas wake at once instead of
at their next poll. The newest document anyone introduced wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from gateway.policy.loader import CompiledPolicy, PolicyError
from gateway.policy.reload import PolicyChange, PolicyReloader
from gateway.usage import policy_store

log = logging.getLogger("gateway.policy")

SYNC_ACTOR = "policy-sync:"


class PolicySync:
    def __init__(
        self,
        engine: Engine,
        *,
        interval_s: float = 1.0,
        redis_url: str | None = None,
        channel: str = "gecit:policy",
    ) -> None:
        self._engine = engine
        self._interval = interval_s
        self._redis_url = redis_url
        self.channel = channel
        self._reloader: PolicyReloader | None = None
        self._last_id = 0
        self._started = False
        self._start_text: str | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._redis: Any = None

    def attach(self, reloader: PolicyReloader) -> None:
        self._reloader = reloader

    # ---- outgoing ----------------------------------------------------------------------
    def sink(self, change: PolicyChange) -> None:
        """The reloader's ChangeSink: share a change this replica accepted (not one it took
        from the store)."""
        if change.actor.startswith(SYNC_ACTOR) or not change.text:
            return
        task = asyncio.get_running_loop().create_task(
            self._publish(change.text, change.sha256, change.actor)
        )
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _publish(self, text: str, sha256: str, actor: str) -> None:
        try:
            head = await asyncio.to_thread(policy_store.append, self._engine, text, sha256, actor)
        except Exception as exc:
            log.error(
                "policy %s is serving here but was NOT shared with other replicas "
                "(store failed: %s)",
                sha256[:12],
                type(exc).__name__,
            )
            return
        log.info("policy %s shared as document #%d", sha256[:12], head.id)
        if self._redis is not None:
            try:
                await self._redis.publish(self.channel, f"{head.id} {sha256}")
            except Exception as exc:
                log.warning(
                    "policy notice not published on Redis (%s); replicas will see "
                    "it at their next poll",
                    type(exc).__name__,
                )

    async def flush(self) -> None:
        """Wait for pending publications (tests, shutdown)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    # ---- incoming ----------------------------------------------------------------------
    async def start_up(self, text: str | None) -> None:
        """Reconcile at start-up. `text` is the start-up policy's document when it came from a
        file: never stored before -> it is a new deployment's policy and is shared; stored
        before but not the newest -> the newer shared document is applied. Without a text
        (a policy built in code) only later changes are followed."""
        reloader = self._need_reloader()
        cur = reloader.current()
        head = await asyncio.to_thread(policy_store.newest, self._engine)
        if text is not None and not await asyncio.to_thread(
            policy_store.known, self._engine, cur.sha256
        ):
            head = await asyncio.to_thread(
                policy_store.append, self._engine, text, cur.sha256, f"startup:{cur.source}"[:128]
            )
            self._last_id = head.id
        elif text is None:
            self._last_id = head.id if head is not None else 0
        elif head is not None and head.sha256 != cur.sha256:
            log.warning(
                "policy %s (%s) is older than the shared policy document #%d; serving "
                "that (PUT /admin/policy or deploy a new file to change it)",
                cur.sha256[:12],
                cur.source,
                head.id,
            )
        self._started = True
        await self.check_once()

    async def check_once(self) -> bool:
        """Apply the newest shared document if it is new to this replica. True if applied."""
        reloader = self._need_reloader()
        head = await asyncio.to_thread(policy_store.newest, self._engine)
        if head is None or head.id <= self._last_id:
            return False
        applied = False
        if head.sha256 != reloader.current().sha256:
            doc = await asyncio.to_thread(policy_store.load, self._engine, head.id)
            if doc is not None:
                applied = await self._apply(doc)
        self._last_id = head.id
        return applied

    async def _apply(self, doc: policy_store.StoredPolicy) -> bool:
        reloader = self._need_reloader()
        source = f"policy-store#{doc.id}"
        try:  # a shared document is untrusted like any other: validated off the event loop
            new = await asyncio.to_thread(reloader.compile, doc.text, source)
            reloader.apply_compiled(new, doc.text, f"{SYNC_ACTOR}{doc.actor}"[:128], source)
        except PolicyError as exc:
            log.error(
                "shared policy document #%d (by %s) refused here:\n%s\nthe running "
                "policy (%s) keeps serving",
                doc.id,
                doc.actor,
                exc,
                reloader.current().sha256[:12],
            )
            return False
        except Exception as exc:
            log.error(
                "shared policy document #%d could not be applied (%s); the running "
                "policy keeps serving",
                doc.id,
                type(exc).__name__,
            )
            return False
        return True

    async def run(self) -> None:
        """Poll forever (cancel to stop); a Redis notice wakes the loop early."""
        failing = False
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._interval)
            self._wake.clear()
            try:
                if not self._started:
                    await self.start_up(self._start_text)
                else:
                    await self.check_once()
                if failing:
                    log.info("policy store reachable again")
                failing = False
            except Exception as exc:
                if not failing:
                    log.warning(
                        "policy store unreachable (%s); keeping the running policy",
                        type(exc).__name__,
                    )
                failing = True

    async def listen(self) -> None:
        """Wake the poll loop on every Redis notice; reconnect on errors."""
        import redis.asyncio as aioredis

        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._wake.set()
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as exc:
                log.warning(
                    "Redis policy channel lost (%s); polling only, retrying in 5 s",
                    type(exc).__name__,
                )
                await asyncio.sleep(5)

    # ---- lifecycle ---------------------------------------------------------------------
    async def start(self, stack: contextlib.AsyncExitStack, text: str | None) -> None:
        self._start_text = text
        if self._redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(self._redis_url)
            stack.push_async_callback(self._redis.aclose)
            _background(stack, self.listen(), "policy-notices")
        try:
            await self.start_up(text)
        except Exception as exc:  # the ledger database may be down: serve, retry in run()
            log.warning(
                "policy store unreachable at start-up (%s); serving %s and retrying",
                type(exc).__name__,
                self._need_reloader().current().sha256[:12],
            )
        if self._interval > 0:
            _background(stack, self.run(), "policy-sync")
        stack.push_async_callback(self.flush)

    def _need_reloader(self) -> PolicyReloader:
        if self._reloader is None:
            raise RuntimeError("PolicySync.attach(reloader) was not called")
        return self._reloader


def file_text(compiled: CompiledPolicy) -> str | None:
    """The document behind a file-loaded policy (None when it was built in code or the file
    has changed since it was loaded)."""
    path = Path(compiled.source)
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else None
    except OSError:
        return None
    if text is None or hashlib.sha256(text.encode("utf-8")).hexdigest() != compiled.sha256:
        return None
    return text


def _background(stack: contextlib.AsyncExitStack, coro: Any, name: str) -> None:
    task = asyncio.create_task(coro, name=name)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    stack.push_async_callback(stop)
