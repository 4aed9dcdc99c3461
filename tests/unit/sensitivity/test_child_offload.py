"""Long requests are classified in a child process (real spawned children, gateway.core.offload):
the parent's detectors never run for them, the answer is the one the parent would have given,
and when the deadline runs out first (a busy child, a dense 10 MB text) the answer is
`special` at once, not after the work; a dead child is a fail-closed answer and a new pool."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator

import pytest

from gateway.core.offload import ChildPool, OffloadFailed
from gateway.core.types import ChatRequest
from gateway.sensitivity import Classifier, SensitivityConfig, child
from gateway.sensitivity.classifier import _WINDOW
from gateway.sensitivity.redaction import Redactor

from .helpers import make_luhn, make_tckn
from .test_offload import _CountingRun

TCKN = make_tckn("284736150")
CARD = make_luhn("411111111111111")


def _request(text: str) -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": text}]}
    )


def _dense(chars: int) -> str:
    unit = f"TC {TCKN} kart {CARD} e-posta ali.veli@ornek.com.tr "
    return (unit * (chars // len(unit) + 1))[:chars]


@pytest.fixture
def pool() -> Iterator[ChildPool]:
    children = ChildPool(1)
    yield children
    children.close()


def test_jobs_run_in_another_process(pool: ChildPool) -> None:
    pid = asyncio.run(pool.run(30, os.getpid))
    assert pid != os.getpid()
    assert pool.done == 1


def test_a_job_past_its_deadline_raises_at_once_and_its_late_answer_is_dropped(
    pool: ChildPool,
) -> None:
    asyncio.run(pool.run(30, os.getpid))  # the child is up

    async def late() -> None:
        with pytest.raises(TimeoutError):
            await pool.run(0.05, time.sleep, 1.0)

    asyncio.run(late())
    assert (pool.done, pool.timed_out) == (1, 1)
    assert asyncio.run(pool.run(30, os.getpid)) != os.getpid()  # the pool still serves


def test_a_child_that_dies_fails_the_job_and_the_next_job_gets_a_new_child(
    pool: ChildPool,
) -> None:
    with pytest.raises(OffloadFailed):
        asyncio.run(pool.run(30, os._exit, 3))
    assert (pool.failed, pool.restarts, pool.in_flight) == (1, 0, 0)
    assert asyncio.run(pool.run(30, os.getpid)) != os.getpid()
    assert (pool.done, pool.failed, pool.restarts) == (1, 1, 1)  # what /metrics shows


def test_jobs_beyond_one_per_child_are_counted_as_queued(pool: ChildPool) -> None:
    asyncio.run(pool.run(30, os.getpid))  # the child is up
    seen: list[tuple[int, int]] = []

    async def three() -> None:
        jobs = [asyncio.ensure_future(pool.run(30, time.sleep, 0.3)) for _ in range(3)]
        await asyncio.sleep(0.1)
        seen.append((pool.in_flight, pool.queued))
        await asyncio.gather(*jobs)
        seen.append((pool.in_flight, pool.queued))

    asyncio.run(three())
    assert seen == [(3, 2), (0, 0)]
    assert pool.done == 4


def test_a_long_request_is_classified_in_the_child_with_the_parents_answer(
    pool: ChildPool,
) -> None:
    config = SensitivityConfig(offload_chars=1000, time_budget_ms=30_000)
    clf = Classifier(config, offload=pool)
    parent_runs = _CountingRun(clf)
    request = _request(_dense(200_000))
    got = asyncio.run(clf.classify_request_bounded(request))
    assert parent_runs.calls == 0  # not one detector pass in this process
    assert pool.done == 1
    expected = Classifier(config).classify_request(request)
    assert got.data_class == expected.data_class == "personal"
    assert got.entities == expected.entities
    assert got.findings == expected.findings  # redaction needs the spans


def test_a_short_request_stays_in_the_parent(pool: ChildPool) -> None:
    clf = Classifier(SensitivityConfig(offload_chars=1000), offload=pool)
    parent_runs = _CountingRun(clf)
    got = asyncio.run(clf.classify_request_bounded(_request(_dense(500))))
    assert got.data_class == "personal"
    assert parent_runs.calls > 0
    assert pool.done == 0


def test_a_busy_child_makes_the_request_special_at_the_deadline_not_after_the_work(
    pool: ChildPool,
) -> None:
    clf = Classifier(SensitivityConfig(offload_chars=1000, time_budget_ms=200), offload=pool)
    parent_runs = _CountingRun(clf)

    async def scenario() -> object:
        busy = asyncio.ensure_future(pool.run(30, time.sleep, 2.0))
        await asyncio.sleep(0.2)
        result = await clf.classify_request_bounded(_request(_dense(200_000)))
        done_when_answered = busy.done()
        await busy
        return result, done_when_answered

    result, busy_done = asyncio.run(scenario())  # type: ignore[misc]
    assert result.data_class == "special"
    assert result.stage == "fail_closed"
    assert "time budget exceeded" in result.reason
    assert not busy_done  # answered while the child was still busy, not after it
    assert parent_runs.calls == 0  # the work was never done on the loop instead


def test_a_dead_pool_makes_the_request_special() -> None:
    children = ChildPool(1)
    children.close()
    clf = Classifier(SensitivityConfig(offload_chars=1000), offload=children)
    result = asyncio.run(clf.classify_request_bounded(_request(_dense(5000))))
    assert result.data_class == "special"
    assert (result.reason or "").startswith("classifier error")


# ---- what the child runs (called here in-process: the same function) ------------------------
def test_the_child_stops_at_the_parents_deadline_on_a_dense_10mb_text() -> None:
    config = SensitivityConfig(time_budget_ms=100).model_dump_json()
    runs = _CountingRun(child._classifier(config))
    result = child.classify(config, [_dense(10_000_000)], time.monotonic() + 0.1)
    assert result.data_class == "special"
    assert "time budget exceeded" in (result.reason or "")
    assert 0 < runs.calls < 10_000_000 // _WINDOW  # stopped, not read to the end


def test_a_job_whose_deadline_passed_in_the_queue_does_no_work() -> None:
    config = SensitivityConfig(time_budget_ms=30_000).model_dump_json()
    runs = _CountingRun(child._classifier(config))
    result = child.classify(config, [_dense(1000)], time.monotonic() - 1)
    assert result.data_class == "special"
    assert result.stage == "fail_closed"
    assert runs.calls == 0


def test_a_long_request_is_redacted_in_the_child_as_the_parent_would(pool: ChildPool) -> None:
    emails = " ".join(f"kisi{i}@ornek.com.tr" for i in range(500))
    request = _request(f"TC {TCKN} ile {emails} adreslerine yaz")
    config = SensitivityConfig(time_budget_ms=30_000)
    classifier = Classifier(config)
    found = classifier.classify_request(request)
    want, want_map = Redactor(classifier).redact_request(request, found)
    got, got_map = asyncio.run(
        Redactor(Classifier(config, offload=pool)).redact_request_off_loop(request, found)
    )
    assert pool.done == 1  # the rewrite ran in the child
    assert got == want
    assert got_map.placeholders == want_map.placeholders and len(got_map) == 501
    text = got.messages[0].content
    assert isinstance(text, str) and "ornek.com.tr" not in text and TCKN not in text
    assert got_map.restore(text) == request.messages[0].content
    # the map came back without its prefixes and made them again: a placeholder split
    # across stream chunks is still held back and restored whole
    ph = got_map.placeholders[-1]
    restorer = got_map.stream_restorer()
    assert restorer.feed("önce " + ph[:4]) == "önce "
    assert restorer.feed(ph[4:] + " sonra") == f"{got_map.restore(ph)} sonra"


def test_a_redaction_the_child_cannot_finish_in_time_raises_for_the_caller_to_fail_closed(
    pool: ChildPool,
) -> None:
    request = _request(" ".join(f"kisi{i}@ornek.com.tr" for i in range(500)))
    config = SensitivityConfig(time_budget_ms=1)
    found = Classifier(SensitivityConfig(time_budget_ms=30_000)).classify_request(request)
    asyncio.run(pool.run(30, time.sleep, 0))  # the child is up
    busy = Redactor(Classifier(config, offload=pool))

    async def run() -> None:
        blocker = asyncio.ensure_future(pool.run(30, time.sleep, 0.5))  # the only child busy
        with pytest.raises(TimeoutError):
            await busy.redact_request_off_loop(request, found)
        await blocker

    asyncio.run(run())
