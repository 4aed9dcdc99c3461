"""Sliding-minute counters for rate limits: one on a shared Redis (every replica counts into
the same log, taken and checked in one Lua script, so two replicas cannot both pass the last
slot), one in this process's memory (the fallback when Redis is away, and the only one
without Redis).

A counter per scope is a log of admitted requests (id -> time, tokens charged) and the sum of
its tokens; what is older than the window leaves it. A take checks every scope of the request
and charges all or none. `Taken` says, per scope, what is used after the take and when the
oldest entry leaves (the `x-ratelimit-reset-*` figures), or how long to wait when refused.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gateway.policy.rate_limits import Scope

WINDOW_MS = 60_000


@dataclass(frozen=True, slots=True)
class Usage:
    requests: int  # in the window, this request included when it was admitted
    tokens: int
    reset_ms: int  # until the oldest entry leaves the window
    wait_ms: int  # refused: until this scope has room; 0 when it has


@dataclass(frozen=True, slots=True)
class Taken:
    allowed: bool
    scopes: tuple[Usage, ...]  # in the order of the scopes asked for


class Window(Protocol):
    async def take(self, scopes: Sequence[Scope], member: str, tokens: int) -> Taken: ...

    async def adjust(self, scopes: Sequence[Scope], member: str, delta: int) -> None: ...


# KEYS: per scope (log zset, tokens hash, token sum); ARGV: window ms, member, tokens, then
# per scope (requests limit, tokens limit), 0 for none. The time is the Redis server's, so
# replicas with skewed clocks count alike.
TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local win = tonumber(ARGV[1])
local member = ARGV[2]
local cost = tonumber(ARGV[3])
local edge = now - win
local live = '(' .. edge
local allowed = 1
local out = {}
for i = 0, #KEYS / 3 - 1 do
  local z, h, s = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
  local rpm, tpm = tonumber(ARGV[4 + 2 * i]), tonumber(ARGV[5 + 2 * i])
  local old = redis.call('ZRANGEBYSCORE', z, '-inf', edge, 'LIMIT', 0, 500)
  if #old > 0 then
    local gone = 0
    for _, v in ipairs(redis.call('HMGET', h, unpack(old))) do gone = gone + (tonumber(v) or 0) end
    redis.call('ZREM', z, unpack(old))
    redis.call('HDEL', h, unpack(old))
    if gone > 0 then redis.call('DECRBY', s, gone) end
  end
  local count = redis.call('ZCOUNT', z, live, '+inf')
  local used = math.max(0, tonumber(redis.call('GET', s) or '0'))
  local first = redis.call('ZRANGEBYSCORE', z, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local reset = 0
  if #first > 0 then reset = tonumber(first[2]) + win - now end
  local wait = 0
  if rpm > 0 and count + 1 > rpm then
    local nth = redis.call('ZRANGEBYSCORE', z, live, '+inf', 'WITHSCORES', 'LIMIT', count - rpm, 1)
    wait = win
    if #nth > 0 then wait = tonumber(nth[2]) + win - now end
  end
  if tpm > 0 and used + cost > tpm then
    local need = used + cost - tpm
    local twait = win
    local entries = redis.call('ZRANGEBYSCORE', z, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1000)
    local freed = 0
    for j = 1, #entries, 2 do
      freed = freed + (tonumber(redis.call('HGET', h, entries[j])) or 0)
      if freed >= need then twait = tonumber(entries[j + 1]) + win - now break end
    end
    if twait > wait then wait = twait end
  end
  if wait > 0 then allowed = 0 end
  out[#out + 1] = {count, used, reset, wait}
end
local reply = {allowed}
for i = 0, #KEYS / 3 - 1 do
  local z, h, s = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
  local o = out[i + 1]
  if allowed == 1 then
    redis.call('ZADD', z, now, member)
    redis.call('HSET', h, member, cost)
    redis.call('INCRBY', s, cost)
    for _, k in ipairs({z, h, s}) do redis.call('PEXPIRE', k, win + 1000) end
    o[1], o[2] = o[1] + 1, o[2] + cost
    if o[3] == 0 then o[3] = win end
  end
  for _, v in ipairs(o) do reply[#reply + 1] = v end
end
return reply
"""

# KEYS: per scope (log zset, tokens hash, token sum); ARGV: member, delta
ADJUST = """
local delta = tonumber(ARGV[2])
for i = 0, #KEYS / 3 - 1 do
  local h, s = KEYS[3 * i + 2], KEYS[3 * i + 3]
  local cur = tonumber(redis.call('HGET', h, ARGV[1]))
  if cur then
    local new = math.max(0, cur + delta)
    redis.call('HSET', h, ARGV[1], new)
    redis.call('INCRBY', s, new - cur)
  end
end
return 0
"""


def _taken(reply: Sequence[Any]) -> Taken:
    nums = [int(v) for v in reply]
    scopes = tuple(
        Usage(nums[i], nums[i + 1], nums[i + 2], nums[i + 3]) for i in range(1, len(nums), 4)
    )
    return Taken(nums[0] == 1, scopes)


class RedisWindow:
    """The shared counter. `client` is a `redis.asyncio.Redis` (its timeouts bound each
    call); every error reaches the caller, which decides what a failure means."""

    def __init__(self, client: Any, prefix: str, window_ms: int = WINDOW_MS) -> None:
        self._prefix = prefix + "rl:"
        self._window_ms = window_ms
        self._take = client.register_script(TAKE)
        self._adjust = client.register_script(ADJUST)

    def _keys(self, scopes: Sequence[Scope]) -> list[str]:
        out = []
        for s in scopes:
            base = self._prefix + s.name
            out += [base + ":log", base + ":tok", base + ":sum"]
        return out

    async def take(self, scopes: Sequence[Scope], member: str, tokens: int) -> Taken:
        args: list[Any] = [self._window_ms, member, tokens]
        for s in scopes:
            args += [s.requests_per_minute, s.tokens_per_minute]
        return _taken(await self._take(keys=self._keys(scopes), args=args))

    async def adjust(self, scopes: Sequence[Scope], member: str, delta: int) -> None:
        await self._adjust(keys=self._keys(scopes), args=[member, delta])


class _Log:
    __slots__ = ("entries", "tokens")

    def __init__(self) -> None:
        self.entries: deque[tuple[float, str, int]] = deque()  # (ms, member, tokens)
        self.tokens = 0

    def expire(self, edge: float) -> None:
        while self.entries and self.entries[0][0] <= edge:
            self.tokens -= self.entries.popleft()[2]

    def usage(self, scope: Scope, now: float, window: int, cost: int, share: float) -> Usage:
        reset = int(self.entries[0][0] + window - now) if self.entries else 0
        wait = 0
        rpm = _share(scope.requests_per_minute, share)
        if rpm and len(self.entries) + 1 > rpm:
            wait = int(self.entries[len(self.entries) - rpm][0] + window - now)
        tpm = _share(scope.tokens_per_minute, share)
        if tpm and self.tokens + cost > tpm:
            need, freed, twait = self.tokens + cost - tpm, 0, window
            for at, _, n in self.entries:
                freed += n
                if freed >= need:
                    twait = int(at + window - now)
                    break
            wait = max(wait, twait)
        return Usage(len(self.entries), self.tokens, reset, max(wait, 1) if wait else 0)


def _share(limit: int, share: float) -> int:
    return max(1, int(limit * share)) if limit else 0


class LocalWindow:
    """This process's counter: the same sliding minute, each limit scaled by `share` (the part
    of a limit one replica may use alone while the shared counter is away). `record` logs a
    request the shared counter admitted, so a fallback starts from this replica's recent
    history instead of an empty minute. At most `max_scopes` counters are kept (the least
    recently used go first)."""

    def __init__(
        self,
        now_ms: Any,
        *,
        share: float = 1.0,
        window_ms: int = WINDOW_MS,
        max_scopes: int = 10_000,
    ) -> None:
        self._now_ms = now_ms
        self._share = share
        self._window_ms = window_ms
        self._max_scopes = max_scopes
        self._logs: OrderedDict[str, _Log] = OrderedDict()

    def _log(self, name: str) -> _Log:
        log = self._logs.get(name)
        if log is None:
            log = self._logs[name] = _Log()
            while len(self._logs) > self._max_scopes:
                self._logs.popitem(last=False)
        else:
            self._logs.move_to_end(name)
        return log

    async def take(self, scopes: Sequence[Scope], member: str, tokens: int) -> Taken:
        now = float(self._now_ms())
        logs = [self._log(s.name) for s in scopes]
        for log in logs:
            log.expire(now - self._window_ms)
        seen = [
            log.usage(s, now, self._window_ms, tokens, self._share)
            for s, log in zip(scopes, logs, strict=True)
        ]
        if any(u.wait_ms for u in seen):
            return Taken(False, tuple(seen))
        self._add(logs, now, member, tokens)
        return Taken(
            True,
            tuple(
                Usage(u.requests + 1, u.tokens + tokens, u.reset_ms or self._window_ms, 0)
                for u in seen
            ),
        )

    def record(self, scopes: Sequence[Scope], member: str, tokens: int) -> None:
        now = float(self._now_ms())
        logs = [self._log(s.name) for s in scopes]
        for log in logs:
            log.expire(now - self._window_ms)
        self._add(logs, now, member, tokens)

    @staticmethod
    def _add(logs: list[_Log], now: float, member: str, tokens: int) -> None:
        for log in logs:
            log.entries.append((now, member, tokens))
            log.tokens += tokens

    async def adjust(self, scopes: Sequence[Scope], member: str, delta: int) -> None:
        for s in scopes:
            log = self._logs.get(s.name)
            if log is None:
                continue
            for i in range(len(log.entries) - 1, -1, -1):  # the newest first: it is recent
                at, m, n = log.entries[i]
                if m == member:
                    new = max(0, n + delta)
                    log.entries[i] = (at, m, new)
                    log.tokens += new - n
                    break
