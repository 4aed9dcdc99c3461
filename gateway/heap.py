"""Garbage-collector settings for a serving process (the gateway's CPU under load).

Measured on the CI-like machine under 1,500 req/s: with CPython's defaults the cyclic
collector took ~6 % of the gateway's CPU, and each full (generation 2) collection walked every
object made at start-up (the classifier's lexicons, the policy, SQLAlchemy's metadata: ~100,000
objects) for ~70 ms, during which no request moved: the p99 tails. Almost everything a request
allocates is freed by reference counting, so collections find little to do.

`settle()` runs once the server has started: it collects start-up garbage, moves every object
that survived into the permanent generation (`gc.freeze()`: never scanned again, never freed,
which is what start-up state is for), and raises the first generation's threshold so that
collections run when there is real cyclic garbage to find, not every 700 allocations. Only the
`gateway serve` process calls it; tests and the CLI's other commands keep the defaults.
"""

from __future__ import annotations

import gc

# collections per generation: gen0 after this many net new container objects; gen1/gen2 as in
# CPython's defaults, relative to the collections of the generation below
THRESHOLDS: tuple[int, int, int] = (20_000, 10, 10)


def settle(thresholds: tuple[int, int, int] = THRESHOLDS) -> int:
    """Freeze what start-up made and raise the thresholds; returns how many objects were
    frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    return gc.get_freeze_count()
