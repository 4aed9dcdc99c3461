"""`bench/classify.py --targets` fails when the holdout taken as one misses a target: a rate just
over its limit is a miss, one at the limit is not, and sets are added record by record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _quality():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    try:
        import classify_quality
    finally:
        sys.path.remove(str(BENCH))
    return classify_quality


def test_a_rate_over_its_limit_is_a_miss_and_one_at_it_is_not() -> None:
    q = _quality()
    at = q.Rates(n=300, sensitive=100, leaked=2, special=100, special_leaked=3, public=100, over=8)
    assert q.missed_targets(at) == []
    over = q.Rates(
        n=300, sensitive=100, leaked=3, special=100, special_leaked=4, public=100, over=9
    )
    assert [m.split()[0] for m in q.missed_targets(over)] == ["leak", "special", "over-block"]


def test_sets_are_taken_together_record_by_record() -> None:
    q = _quality()
    a = q.Rates(n=10, sensitive=5, leaked=1, special=3, special_leaked=1, public=5, over=0)
    b = q.Rates(n=90, sensitive=45, leaked=0, special=40, special_leaked=0, public=45, over=1)
    both = q.combined([a, b])
    assert (both.n, both.sensitive, both.leaked, both.special, both.special_leaked) == (
        100,
        50,
        1,
        43,
        1,
    )
    assert (both.public, both.over) == (50, 1)
    # the small one alone misses targets the two together meet
    assert q.missed_targets(a) and not q.missed_targets(both)


def test_the_command_exits_non_zero_when_a_set_misses(tmp_path: Path) -> None:
    # two special records about a named patient that the lexicons know, labelled public: both
    # are over-blocked, so over-block is 100%
    data = tmp_path / "set.jsonl"
    data.write_text(
        '{"id": "1", "text": "Hastamız Ayşe Yılmaz\'a HIV tanısı kondu.", "label": "public"}\n'
        '{"id": "2", "text": "Selam, yarın toplantı 10:00\'da.", "label": "public"}\n',
        encoding="utf-8",
    )
    run = subprocess.run(
        [
            sys.executable,
            str(BENCH / "classify.py"),
            "--quality-only",
            "--no-judge",
            "--targets",
            str(data),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "targets missed: over-block 50.0% (1/2) > 8%" in run.stderr
