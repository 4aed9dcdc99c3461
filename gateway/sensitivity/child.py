"""What a child process of the offload pool (gateway.core.offload) runs for the classifier:
the same detectors over the same texts, under the deadline the parent set; and the redaction
of a long request.

A classifier is built from its configuration's JSON (building one compiles the lexicons,
~0.2 s), and each child keeps the last few it built: a child is one process serving one
gateway, whose policy changes rarely."""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

from gateway.core.offload import remaining
from gateway.core.types import ChatRequest
from gateway.sensitivity.classifier import Classifier, fail_closed
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.redaction import RedactionMap, Redactor
from gateway.sensitivity.result import Sensitivity


@functools.lru_cache(maxsize=4)
def _classifier(config_json: str) -> Classifier:
    # no text cache: a child sees only long texts, which are never kept
    return Classifier(SensitivityConfig.model_validate_json(config_json), cache_entries=0)


def warm(config_json: str) -> None:
    """Import the detectors, build the classifier and load the judge's model (when the
    configuration has one) before the first job needs them."""
    _classifier(config_json).warm_judge()


def classify(config_json: str, texts: Sequence[str], deadline: float) -> Sensitivity:
    """`Classifier.classify` with its time budget ending at `deadline` (time.monotonic())."""
    left = remaining(deadline)
    classifier = _classifier(config_json)
    budget_s = classifier.wall_budget_s
    if left <= 0:  # the parent gave up while the job waited in the queue
        return fail_closed("time budget exceeded (waited for a child process)", budget_s * 1000)
    # `started` such that the classification's longest end (started + wall budget) is
    # `deadline`: time the job waited in the queue is taken from the detectors' budget
    started = time.perf_counter() + left - budget_s
    return classifier.classify(texts, started)


def redact(
    config_json: str, request: ChatRequest, found: Sensitivity | None
) -> tuple[ChatRequest, RedactionMap]:
    """`Redactor.redact_request` with this configuration's classifier."""
    return Redactor(_classifier(config_json)).redact_request(request, found)
