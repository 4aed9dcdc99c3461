"""A run of digit groups ('+90 532 123 45 67', '0049 30 1234 5678 0532 ...') split into the
numbers it holds: every grouping of 10 to 19 digits is offered to a classifier, the longest
first, and a group used by one number is used by no other.

The work is bounded per text (one window of a long text, see classifier._WINDOW): a `Looks`
counts the groupings offered, and a run of thousands of groups (a list of numbers written with
spaces between them) is read block by block from its start, so a hostile text of nothing but
numbers costs a fixed number of classifier calls, not one per grouping of every number."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Generator
from typing import Final, Protocol, TypeVar

GROUP: Final = re.compile(rb"\d+")
# groupings offered per text (one 16 KB window of a long one): more than a window holds of
# real numbers (~1,300 of eleven digits with a separator), so an identifier after hundreds of
# timestamps or amounts is still checked; only a hostile run of groupings reaches it (each
# costs ~20 us: ~20 ms per window)
MAX_NUMBER_LOOKS: Final = 1024
# groups of one run sorted together, longest grouping first; a real run has far fewer
_BLOCK: Final = 16
# a run this short holds fewer groups than a block
_SHORT_RUN: Final = 40


class Found(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def confidence(self) -> float: ...


C = TypeVar("C", bound=Found)


class Looks:
    """The groupings one text may still offer, and the kinds found so far (confident ones)."""

    __slots__ = ("found", "left")

    def __init__(self, n: int = MAX_NUMBER_LOOKS) -> None:
        self.left = n
        self.found: Counter[str] = Counter()

    def take(self) -> bool:
        self.left -= 1
        return self.left >= 0

    def note(self, cand: Found) -> None:
        if cand.confidence >= 0.5:
            self.found[cand.kind] += 1

    def dense_kind(self) -> str | None:
        """Once the looks are spent: the kind most found, when a quarter of the looks found
        one (a list of phone numbers or ids, whose rest is surely more of the same), else
        None (a log of timestamps or amounts, whose rest is no one's)."""
        if not self.found:
            return None
        kind, n = self.found.most_common(1)[0]
        return kind if n * 4 >= MAX_NUMBER_LOOKS else None


def numbers_in_run(
    raw: bytes, start: int, classify: Callable[[str, int, int], C | None], looks: Looks
) -> Generator[C, None, int]:
    """The numbers classify(digits, start, end) recognised in the run raw (at start of the
    text); returns the offset from which the run was left unread (its end when read whole)."""
    if raw.isdigit():  # one group (the usual TCKN, written without separators)
        if 10 <= len(raw) <= 19:
            if not looks.take():
                return start
            cand = classify(raw.decode("ascii"), start, start + len(raw))
            if cand is not None:
                looks.note(cand)
                yield cand
        return start + len(raw)
    if len(raw) <= _SHORT_RUN:  # a number or two ('+90 532 123 45 67'): one block
        groups = [
            (start + m.start(), start + m.end(), m.group(0).decode("ascii"))
            for m in GROUP.finditer(raw)
        ]
        read = yield from _block(groups, [False] * len(groups), 0, classify, looks)
        return start + len(raw) if read else start
    found = GROUP.finditer(raw)
    groups = []
    used: list[bool] = []
    first = 0
    while looks.left > 0:
        # a grouping starting in this block reaches at most 19 groups further
        for m in itertools.islice(found, first + _BLOCK + 19 - len(groups)):
            groups.append((start + m.start(), start + m.end(), m.group(0).decode("ascii")))
            used.append(False)
        if first >= len(groups):
            return start + len(raw)
        if not (yield from _block(groups, used, first, classify, looks)):
            return groups[first][0]
        first += _BLOCK
    if first < len(groups):
        return groups[first][0]
    rest = next(found, None)
    return start + len(raw) if rest is None else start + rest.start()


def _block(
    groups: list[tuple[int, int, str]],
    used: list[bool],
    first: int,
    classify: Callable[[str, int, int], C | None],
    looks: Looks,
) -> Generator[C, None, bool]:
    """The numbers starting in groups first..first+_BLOCK; False when the looks ran out."""
    windows: list[tuple[int, int]] = []
    for i in range(first, min(first + _BLOCK, len(groups))):
        total = 0
        for j in range(i, len(groups)):
            total += len(groups[j][2])
            if total > 19:
                break
            if total >= 10:
                windows.append((i, j))
    windows.sort(key=lambda w: (w[0] - w[1], w[0]))
    for i, j in windows:
        if any(used[i : j + 1]):
            continue
        if not looks.take():
            return False
        d = "".join(g[2] for g in groups[i : j + 1])
        cand = classify(d, groups[i][0], groups[j][1])
        if cand is not None:
            for k in range(i, j + 1):
                used[k] = True
            looks.note(cand)
            yield cand
    return True
