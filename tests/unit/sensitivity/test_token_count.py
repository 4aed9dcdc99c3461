"""The classifier counts each text's tokens from the bytes it reads (a prompt is
encoded once per request); the count is the plain estimate's, cached or not, and the router's
prompt-token figure is the same as counting the request directly."""

from __future__ import annotations

import random

import pytest

from gateway.core.tokens import estimate_text_tokens
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.explain import request_info, route
from gateway.policy.loader import load_text
from gateway.providers.tokens import estimate_prompt_tokens
from gateway.sensitivity import Classifier, Sensitivity
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.textnorm import encode_text

TEXTS = [
    "",
    "merhaba",
    "Hastamız Ayşe Yılmaz'a (TCKN 10000000146) tip 2 diyabet tanısı kondu.",
    "İSTANBUL ŞEHİR ığüşöç — “alıntı” … €5",
    "emoji 😀 and 中文 outside cp1254",
    "ascii only, punctuation!? yes...",
    "x" * 5000,
    "a\u2028b\x85c\xa0d",
]


@pytest.mark.parametrize("text", TEXTS)
def test_encode_text_says_whether_it_is_exact(text: str) -> None:
    encoded, exact = encode_text(text)
    assert len(encoded) == len(text)
    try:
        strict = text.encode("cp1254")
    except UnicodeEncodeError:
        assert not exact
    else:
        assert exact and encoded == strict


@pytest.mark.parametrize("cache_entries", [4096, 0])
def test_the_classifier_counts_the_plain_estimate(cache_entries: int) -> None:
    clf = Classifier(cache_entries=cache_entries)
    for _ in range(2):  # the second time from the per-text cache (when on)
        result = clf.classify(TEXTS)
        assert result.tokens == sum(estimate_text_tokens(t) for t in TEXTS)
    assert clf.classify([]).tokens == 0


def test_random_texts_count_the_same() -> None:
    alphabet = "aşçğıİöüAZ09_ \t\n.,;!?-—'\"ü€™²½😀٣\x85\xa0\u2028"
    rng = random.Random(11)
    clf = Classifier(cache_entries=0)
    for _ in range(500):
        texts = [
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
            for _ in range(rng.randint(1, 3))
        ]
        assert clf.classify(texts).tokens == sum(estimate_text_tokens(t) for t in texts), texts


def test_a_fail_closed_result_has_no_count() -> None:
    clf = Classifier(SensitivityConfig(time_budget_ms=0.000001))
    result = clf.classify(["merhaba dünya " * 100])
    assert result.data_class == "special" and result.tokens is None


POLICY = """
version: 1
backends:
  local: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:1", model: m}
aliases:
  chat: {backends: [local]}
"""


def _request(*texts: str) -> ChatRequest:
    return ChatRequest.model_validate(
        {
            "model": "chat",
            "messages": [
                {"role": "system" if i == 0 else "user", "content": t} for i, t in enumerate(texts)
            ],
        }
    )


def test_the_decision_carries_the_same_prompt_tokens_as_counting_the_request() -> None:
    compiled = load_text(POLICY)
    clf = Classifier(compiled.policy.sensitivity)
    ctx = RequestContext(request_id="r")
    for texts in (("Be brief.", "Merhaba! Nasılsın?"), ("sistem", TEXTS[2], TEXTS[4])):
        req = _request(*texts)
        for _ in range(2):  # fresh, then the classifier's cache
            decision = route(compiled, clf, ctx, req)
            assert decision.prompt_tokens == estimate_prompt_tokens(req)


def test_without_a_count_the_request_is_counted_directly() -> None:
    req = _request("Be brief.", "Merhaba!")
    failed = Sensitivity(data_class="special", reason="classifier error: X")
    info = request_info(RequestContext(request_id="r"), req, failed, "special", None, 0.0)
    assert info.prompt_tokens == estimate_prompt_tokens(req) > 0
