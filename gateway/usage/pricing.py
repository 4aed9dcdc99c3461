"""What a request cost: Decimal throughout, never a silent zero.

Order: the policy's price for the backend, else the model price table litellm ships (read as a
data file, never importing litellm: the installed package's copy when present, else the trimmed
snapshot vendored in `usage/data/`), else on-prem hourly cost over measured tokens/s, else the
cost is UNKNOWN (NULL in the ledger, `price_source` None).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

MILLION = Decimal(1_000_000)
SECONDS_PER_HOUR = Decimal(3600)
QUANTUM = Decimal("1E-10")  # the ledger's Numeric scale
VENDORED = Path(__file__).resolve().parent / "data" / "model_prices.json"
LITELLM_FILES = (
    "model_prices_and_context_window.json",
    "model_prices_and_context_window_backup.json",
)


def money(amount: Decimal) -> Decimal:
    return amount.quantize(QUANTUM)


def split_kdv(net: Decimal, rate: Decimal) -> tuple[Decimal, Decimal]:
    """(KDV, gross) for a net amount; shown separately, never folded into the cost."""
    tax = money(net * rate)
    return tax, net + tax


@dataclass(frozen=True, slots=True)
class UnitPrice:
    """USD per token."""

    input: Decimal
    output: Decimal
    cached_input: Decimal | None = None
    source: str = "policy"


@dataclass(frozen=True, slots=True)
class Cost:
    amount: Decimal | None  # USD; None = unknown
    source: str | None
    fx_rate_try: Decimal | None = None

    currency = "USD"

    @property
    def known(self) -> bool:
        return self.amount is not None

    @property
    def amount_try(self) -> Decimal | None:
        if self.amount is None or self.fx_rate_try is None:
            return None
        return money(self.amount * self.fx_rate_try)


class Catalog:
    """The litellm model price table, keyed as litellm keys it."""

    def __init__(self, models: Mapping[str, Mapping[str, Any]], origin: str) -> None:
        self._models = models
        self.origin = origin

    def __len__(self) -> int:
        return len(self._models)

    def lookup(self, kind: str, model: str, region: str | None = None) -> UnitPrice | None:
        for key in _candidate_keys(kind, model, region):
            entry = self._models.get(key)
            if entry is None:
                continue
            try:
                cached = entry.get("cache_read_input_token_cost")
                return UnitPrice(
                    input=Decimal(str(entry["input_cost_per_token"])),
                    output=Decimal(str(entry["output_cost_per_token"])),
                    cached_input=Decimal(str(cached)) if cached is not None else None,
                    source="catalog",
                )
            except (KeyError, ArithmeticError, ValueError):
                continue
        return None


def _candidate_keys(kind: str, model: str, region: str | None) -> list[str]:
    keys = [model]
    if kind == "bedrock":
        if region:
            keys.append(f"bedrock/{region}/{model}")
        keys.append(f"bedrock/{model}")
        head, _, rest = model.partition(".")
        if rest and head in ("eu", "us", "apac", "global"):  # cross-region inference profiles
            keys += [rest, f"bedrock/{rest}"]
    elif kind == "vertex":
        keys += [f"vertex_ai/{model}", model.split("@")[0]]
    elif kind == "replicate":
        keys += [f"replicate/{model}", f"replicate/{model.split(':')[0]}"]
    elif kind in ("openai_compat", "litellm"):
        keys += [f"openai/{model}", model.split("/")[-1]]
    return keys


def litellm_price_file() -> Path | None:
    """The installed litellm package's price table, found without importing litellm."""
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for name in LITELLM_FILES:
            path = Path(folder) / name
            if path.is_file():
                return path
    return None


# the only fields Catalog.lookup reads; the rest of litellm's table (~20 fields per model,
# 3.5 MB of JSON) would stay resident for nothing (~5 MiB of the idle gateway)
PRICE_FIELDS = frozenset(
    {"input_cost_per_token", "output_cost_per_token", "cache_read_input_token_cost"}
)


def _price_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json object hook: a model entry keeps its price fields only; other objects stay whole."""
    kept = {k: v for k, v in pairs if k in PRICE_FIELDS}
    return kept if kept else dict(pairs)


def load_catalog(path: Path | None = None) -> Catalog:
    chosen = path or litellm_price_file() or VENDORED
    # prices stay exact as their JSON text (parse_float=str); lookup makes the Decimal
    data = json.loads(
        chosen.read_text(encoding="utf-8"), parse_float=str, object_pairs_hook=_price_fields
    )
    models = data.get("models", data) if isinstance(data, dict) else {}
    clean = {
        k: v
        for k, v in models.items()
        if isinstance(v, dict)
        and k != "sample_spec"
        and "input_cost_per_token" in v
        and "output_cost_per_token" in v
    }
    return Catalog(clean, str(chosen))


class ThroughputMeter:
    """Tokens/s measured per backend (an exponentially weighted mean of recent requests)."""

    def __init__(self, weight: float = 0.2) -> None:
        self._weight = weight
        self._tps: dict[str, float] = {}

    def observe(self, backend: str, tokens: int, seconds: float) -> float | None:
        if tokens <= 0 or seconds <= 0:
            return None
        tps = tokens / seconds
        old = self._tps.get(backend)
        self._tps[backend] = tps if old is None else old + self._weight * (tps - old)
        return tps

    def tokens_per_s(self, backend: str) -> Decimal | None:
        tps = self._tps.get(backend)
        return Decimal(f"{tps:.3f}") if tps else None


class Pricer:
    def __init__(
        self, policy: Callable[[], Any], catalog: Catalog, meter: ThroughputMeter | None = None
    ) -> None:
        self._policy = policy
        self._catalog = catalog
        self.meter = meter or ThroughputMeter()
        # unit prices that depend only on the policy object and the catalog (declared
        # prices, catalog look-ups; not on-prem prices, which follow the meter), for the
        # policy object they were computed with: a reload brings a new object
        self._units_of: Any = None
        self._units: dict[str, UnitPrice | None] = {}

    def for_policy(self, policy: Any) -> Pricer:
        """A pricer of another policy on the same catalog (a what-if simulation)."""
        return Pricer(lambda: policy, self._catalog)

    def fx_rate_try(self) -> Decimal | None:
        billing = getattr(self._policy(), "billing", None)
        return getattr(billing, "usd_try", None)

    def unit_price(self, backend: str) -> UnitPrice | None:
        policy = self._policy()
        if policy is self._units_of:
            try:
                return self._units[backend]
            except KeyError:
                pass
        else:
            self._units_of, self._units = policy, {}
        spec = policy.backends.get(backend)
        if spec is None:
            return None
        if spec.price is None and spec.hourly_cost_usd is not None:
            return self._unit_price(backend, spec)  # follows the meter: never kept
        unit = self._units[backend] = self._unit_price(backend, spec)
        return unit

    def _unit_price(self, backend: str, spec: Any) -> UnitPrice | None:
        if spec.price is not None:
            p = spec.price
            cached = (
                p.cached_input_per_mtok / MILLION if p.cached_input_per_mtok is not None else None
            )
            return UnitPrice(
                p.input_per_mtok / MILLION, p.output_per_mtok / MILLION, cached, "policy"
            )
        if spec.hourly_cost_usd is not None:
            tps = self.meter.tokens_per_s(backend)
            if tps is None:
                return None
            per_token = spec.hourly_cost_usd / (SECONDS_PER_HOUR * tps)
            # prefill is cheap next to generation: the GPU-time is charged to output tokens
            return UnitPrice(Decimal(0), per_token, None, "on_prem")
        if spec.zone == "on_prem":
            return None  # no declared cost: unknown, not zero
        return self._catalog.lookup(spec.kind, spec.model, getattr(spec, "region", None))

    def shared_onprem(self, amount: Decimal) -> Cost:
        """A request's share of on-prem nodes' hourly cost (gateway.usage.onprem_cost)."""
        return Cost(money(amount), "on_prem", self.fx_rate_try())

    def price(self, backend: str | None, prompt: int, completion: int, cached: int = 0) -> Cost:
        rate = self.fx_rate_try()
        if backend is None:  # nothing was served: nothing to pay
            return Cost(Decimal(0) if prompt == completion == 0 else None, None, rate)
        unit = self.unit_price(backend)
        if unit is None:
            return Cost(None, None, rate)
        return Cost(money(cost_of(unit, prompt, completion, cached)), unit.source, rate)


def cost_of(unit: UnitPrice, prompt: int, completion: int, cached: int = 0) -> Decimal:
    cached = min(cached, prompt)
    cached_rate = unit.cached_input if unit.cached_input is not None else unit.input
    return (prompt - cached) * unit.input + cached * cached_rate + completion * unit.output
