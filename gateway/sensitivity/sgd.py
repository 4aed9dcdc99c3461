"""Logistic regression by plain SGD, shared by the second stage's model (train.py) and the
wording net (train_wording.py): a fixed seed, a fixed order, a step that decays per epoch and
Python floats, so the same files give the same weights on any machine."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

# features, label, the value every feature of the row carries, and how many of the features
# (the first ones) are held to the first L2 rather than the second
Sample = tuple[Sequence[K], float, float, int]


def sgd(
    rows: Sequence[Sample[K]],
    epochs: int,
    rate: float,
    l2: tuple[float, float],
    seed: int = 7,
) -> tuple[float, dict[K, float]]:
    """(bias, weight per feature) after `epochs` passes over `rows` in a seeded shuffled order."""
    rng = random.Random(seed)
    order = list(range(len(rows)))
    w: dict[K, float] = {}
    bias = 0.0
    first_l2, rest_l2 = l2
    for epoch in range(epochs):
        rng.shuffle(order)
        step = rate / (1 + epoch)
        for i in order:
            feats, y, v, n_first = rows[i]
            z = bias + v * sum(w.get(f, 0.0) for f in feats)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            bias -= step * g
            for k, f in enumerate(feats):
                wf = w.get(f, 0.0)
                w[f] = wf - step * (g * v + (first_l2 if k < n_first else rest_l2) * wf)
    return bias, w
