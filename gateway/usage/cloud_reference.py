"""The cloud reference for "what would this have cost in the cloud": from the policy, the priced,
enabled cloud backends whose KVKK transfer basis allows the data class (as the engine's
boundary check does), so the saving never compares against a destination the data could not
lawfully have gone to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from gateway.policy.schema import Policy
from gateway.usage.reports import RefPrice


def _allowed(spec: object, data_class: str, redact: bool, today: date | None) -> bool:
    if data_class == "public":
        return True
    if data_class == "special":
        return False
    basis = getattr(spec, "transfer", None)
    if basis is None or basis.mechanism == "none" or data_class not in basis.classes:
        return False
    if basis.mechanism == "tr_scc" and (basis.signed is None or basis.notified is None):
        return False
    if today is not None and basis.expires is not None and today > basis.expires:
        return False
    return redact


@dataclass(frozen=True)
class PolicyCloudReference:
    policy: Policy
    today: date | None = None

    def prices(self, data_class: str) -> Sequence[RefPrice]:
        out = []
        for name, spec in self.policy.backends.items():
            if spec.zone != "cloud" or not spec.enabled or spec.price is None:
                continue
            if _allowed(spec, data_class or "special", self.policy.defaults.redact, self.today):
                out.append(RefPrice(name, spec.price.input_per_mtok, spec.price.output_per_mtok))
        return out


def zones_of(policy: Policy) -> dict[str, str]:
    return {name: spec.zone for name, spec in policy.backends.items()}


def transfer_basis_of(policy: Policy, backend: str) -> str | None:
    """The audit's words for a destination's KVKK transfer basis, e.g. "tr_scc C2P 2025-01-10"
    (None for on-prem or unknown backends, "none" for a cloud backend without one)."""
    spec = policy.backends.get(backend)
    if spec is None or spec.zone != "cloud":
        return None
    basis = spec.transfer
    if basis is None:
        return "none"
    parts = [basis.mechanism, basis.module, basis.signed.isoformat() if basis.signed else None]
    return " ".join(p for p in parts if p)
