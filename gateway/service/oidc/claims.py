"""Which Geçit scope an OIDC user gets, from the claims of a validated ID token: the admin
scope when the admin claim is (or lists) the admin value; else the tenant the tenant claim
names; else none (refused). One rule, pure: the admin scope wins over a tenant."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# a tenant name as keys carry it (`gateway keys create TENANT`): short, plain characters
_TENANT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,127}")
_MAX_VALUES = 256  # a claim listing more groups than this is read only this far


@dataclass(frozen=True, slots=True)
class ClaimRules:
    admin_claim: str
    admin_value: str | None
    tenant_claim: str | None


@dataclass(frozen=True, slots=True)
class Mapped:
    actor: str  # who, as the policy history and the page show it
    tenant: str | None  # None: the admin scope


def _values(claim: Any) -> list[str]:
    if isinstance(claim, str):
        return [claim]
    if isinstance(claim, list):
        return [v for v in claim[:_MAX_VALUES] if isinstance(v, str)]
    return []


def actor_of(claims: dict[str, Any]) -> str:
    """A readable name: the e-mail, else the user name, else the subject; printable, short."""
    for name in ("email", "preferred_username", "sub"):
        value = claims.get(name)
        if isinstance(value, str) and value.strip():
            clean = "".join(c for c in value.strip() if c.isprintable())[:100]
            if clean:
                return "oidc:" + clean
    return "oidc:unknown"


def map_claims(claims: dict[str, Any], rules: ClaimRules) -> Mapped | None:
    actor = actor_of(claims)
    if rules.admin_value is not None and rules.admin_value in _values(
        claims.get(rules.admin_claim)
    ):
        return Mapped(actor, None)
    if rules.tenant_claim is not None:
        tenant = claims.get(rules.tenant_claim)
        if isinstance(tenant, str) and _TENANT.fullmatch(tenant):
            return Mapped(actor, tenant)
    return None
