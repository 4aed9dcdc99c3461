"""The price table is kept in memory with its price fields only; every lookup must give what
the whole table gives."""

from __future__ import annotations

import json
from decimal import Decimal

from gateway.usage.pricing import VENDORED, litellm_price_file, load_catalog


def test_slim_catalog_prices_every_model_like_the_full_table() -> None:
    for path in {p for p in (VENDORED, litellm_price_file()) if p is not None}:
        full = json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
        models = full.get("models", full)
        cat = load_catalog(path)
        priced = 0
        for key, entry in models.items():
            if key == "sample_spec" or not isinstance(entry, dict):
                continue
            got = cat.lookup("other", key)
            if "input_cost_per_token" in entry and "output_cost_per_token" in entry:
                priced += 1
                assert got is not None, key
                assert got.input == Decimal(str(entry["input_cost_per_token"])), key
                assert got.output == Decimal(str(entry["output_cost_per_token"])), key
                cached = entry.get("cache_read_input_token_cost")
                assert got.cached_input == (None if cached is None else Decimal(str(cached)))
            else:
                assert got is None, key
        assert priced == len(cat) and priced > 100
