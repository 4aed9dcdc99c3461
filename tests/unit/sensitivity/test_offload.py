"""Large requests are classified off the event loop with a hard deadline: the loop keeps
serving while a 10 MB identifier-dense message is read, the answer is `special` as soon as the
deadline runs out, and the worker stops at its next check instead of reading to the end."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from gateway.core.types import ChatRequest
from gateway.sensitivity import Classifier, SensitivityConfig
from gateway.sensitivity.classifier import _WINDOW

from .helpers import make_luhn, make_tckn

TCKN = make_tckn("284736150")
CARD = make_luhn("411111111111111")


def _dense(chars: int) -> ChatRequest:
    unit = f"TC {TCKN} kart {CARD} "
    text = (unit * (chars // len(unit) + 1))[:chars]
    return ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": text}]}
    )


class _CountingRun:
    """Counts the detector passes of a classifier (one per text, or per window of a long
    text), from whichever thread runs them."""

    def __init__(self, clf: Classifier) -> None:
        self.calls = 0
        self.threads: set[str] = set()
        self._run = clf._detectors.run
        clf._detectors.run = self  # type: ignore[method-assign]

    def __call__(self, text: str, personal: float, *allowance: object) -> object:
        self.calls += 1
        self.threads.add(threading.current_thread().name)
        return self._run(text, personal, *allowance)


async def _with_probe(clf: Classifier, request: ChatRequest) -> tuple[object, int]:
    """The classification, and how many times a probe task ran on the loop meanwhile."""
    ticks = 0
    done = False

    async def probe() -> None:
        nonlocal ticks
        while not done:
            await asyncio.sleep(0.005)
            ticks += 1

    task = asyncio.create_task(probe())
    await asyncio.sleep(0)
    result = await clf.classify_request_bounded(request)
    done = True
    await task
    return result, ticks


def test_a_10mb_message_is_special_at_the_deadline_and_the_loop_keeps_ticking() -> None:
    clf = Classifier(SensitivityConfig(time_budget_ms=300))
    runs = _CountingRun(clf)
    request = _dense(10_000_000)
    result, ticks = asyncio.run(_with_probe(clf, request))
    assert result.data_class == "special"  # type: ignore[attr-defined]
    assert "time budget exceeded" in (result.reason or "")  # type: ignore[attr-defined]
    # the loop was free while the worker read: the probe ran, not once at the end
    assert ticks >= 5
    assert threading.main_thread().name not in runs.threads
    # the worker stopped at a deadline check: far fewer windows than the text has
    time.sleep(0.5)
    windows = -(-10_000_000 // _WINDOW)
    assert 0 < runs.calls < windows


def test_a_large_request_that_fits_the_deadline_is_classified_in_a_worker() -> None:
    clf = Classifier(SensitivityConfig(offload_chars=1000, time_budget_ms=60_000))
    runs = _CountingRun(clf)
    result, _ = asyncio.run(_with_probe(clf, _dense(600_000)))
    assert result.data_class == "personal"  # type: ignore[attr-defined]
    assert threading.main_thread().name not in runs.threads


def test_a_small_request_stays_on_the_loop_thread() -> None:
    clf = Classifier()
    runs = _CountingRun(clf)
    result, _ = asyncio.run(_with_probe(clf, _dense(200)))
    assert result.data_class == "personal"  # type: ignore[attr-defined]
    assert runs.threads == {threading.main_thread().name}


@pytest.mark.parametrize("windows", [1, 2, 5])
def test_a_value_across_a_window_boundary_is_found_once_at_its_offset(windows: int) -> None:
    edge = windows * _WINDOW
    text = "a " * ((edge - 5) // 2) + f" TC {TCKN} son" + " b" * 100
    at = text.index(TCKN)
    assert at < edge < at + len(TCKN)
    result = Classifier(SensitivityConfig(time_budget_ms=60_000)).classify([text])
    spans = [(f.start, f.end) for f in result.findings if f.kind == "TCKN"]
    assert spans == [(at, at + len(TCKN))]


def test_windows_find_what_one_pass_finds_with_the_context_across_their_edges() -> None:
    """A special-category term right after a window's edge, its subject right before it: the
    window reads the overlap on both sides, so the hit keeps its context."""
    clf = Classifier(SensitivityConfig(time_budget_ms=60_000))
    sentence = "Hastamız Ayşe Yılmaz'a HIV tanısı kondu. "
    filler = "Toplantı notları ekte. "
    for shift in range(0, len(sentence), 4):
        head = filler * ((_WINDOW - shift) // len(filler) + 1)
        text = head[: _WINDOW - shift] + sentence + filler * 50
        whole = clf._detectors.run(text, 0.5)
        got = clf.classify([text])
        assert got.data_class == "special"
        assert {(f.kind, f.start, f.end) for f in got.findings if f.category} == {
            (c.category, c.start, c.end) for c in whole[1] if c.confidence >= 0.5
        }
