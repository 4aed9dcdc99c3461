"""The policy's request and token rate limits (`rate_limits:`), and which of them apply to
one request.

A limit counts over a sliding minute. `tenants` are keyed by tenant name, `keys` by key id
(`gateway keys list`), `aliases` by the model alias clients send; the entry `"*"` applies to
every tenant (or key, or alias) without an entry of its own, each counted separately. A request
passes only when every limit that applies to it has room (its tenant's, its key's and its
alias's).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

ANY = "*"
# a request limit keeps one entry per admitted request in the window (Redis or memory)
MAX_REQUESTS_PER_MINUTE = 100_000
MAX_TOKENS_PER_MINUTE = 10_000_000_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RateSpec(_Strict):
    requests_per_minute: int | None = Field(default=None, ge=1, le=MAX_REQUESTS_PER_MINUTE)
    tokens_per_minute: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TOKENS_PER_MINUTE,
        description="prompt (estimated at admission) plus completion tokens",
    )

    @model_validator(mode="after")
    def _something(self) -> RateSpec:
        if self.requests_per_minute is None and self.tokens_per_minute is None:
            raise ValueError("set requests_per_minute, tokens_per_minute or both")
        return self


class RateLimits(_Strict):
    tenants: dict[str, RateSpec] = Field(default_factory=dict)
    keys: dict[str, RateSpec] = Field(default_factory=dict)
    aliases: dict[str, RateSpec] = Field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.tenants or self.keys or self.aliases)


@dataclass(frozen=True, slots=True)
class Scope:
    """One counter a request is charged to: `tenant:acme`, `key:key_ab12`, `alias:chat`."""

    name: str
    requests_per_minute: int  # 0: no request limit on this scope
    tokens_per_minute: int  # 0: no token limit


def scopes_for(limits: RateLimits, tenant: str, key_id: str | None, alias: str) -> list[Scope]:
    out: list[Scope] = []
    for kind, table, subject in (
        ("tenant", limits.tenants, tenant),
        ("key", limits.keys, key_id),
        ("alias", limits.aliases, alias),
    ):
        if subject is None:
            continue
        spec = table.get(subject) or table.get(ANY)
        if spec is not None:
            out.append(
                Scope(
                    f"{kind}:{subject}",
                    spec.requests_per_minute or 0,
                    spec.tokens_per_minute or 0,
                )
            )
    return out
