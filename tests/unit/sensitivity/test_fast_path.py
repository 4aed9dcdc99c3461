"""The classifier's fast paths give exactly what the plain paths give: the per-text cache, and
the context/subject word searches (`Words.search` against its plain lookbehind regex)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.sensitivity import context as ctx
from gateway.sensitivity.classifier import Classifier, TextCache
from gateway.sensitivity.config import Judge, SensitivityConfig
from gateway.sensitivity.context import Words, factor, split_alternatives
from gateway.sensitivity.evaluate import DEFAULT_SET
from gateway.sensitivity.result import Sensitivity
from gateway.sensitivity.special import SUBJECT
from gateway.sensitivity.textnorm import fold_bytes

ROWS: list[str] = [
    json.loads(line)["text"] for line in DEFAULT_SET.read_text(encoding="utf-8").splitlines()
]
VOCAB: list[str] = sorted({w for r in ROWS for w in r.split()})
PATTERNS: list[Words] = [v for v in vars(ctx).values() if isinstance(v, Words)] + [SUBJECT]
# without the language-model judge: its per-request cap makes a text's answer depend on what
# else the request holds and on the cache (a remembered judged answer beats the fallback), and
# it is slow; these tests are about the detectors' fast paths
_OFF = Judge(enabled=False)
CONFIGS: dict[str, SensitivityConfig] = {
    "default": SensitivityConfig(time_budget_ms=60_000, judge=_OFF),
    "custom": SensitivityConfig(
        time_budget_ms=60_000,
        judge=_OFF,
        allow_list=("0532 123 45 67", "info@example.com"),
        custom_terms={"health": ("kanser tedavisi", "xyzzy")},
        custom_patterns=(
            {"name": "emp", "regex": r"EMP-\d{4}"},  # type: ignore[arg-type]
            {"name": "c", "regex": r"(\d{11})", "checksum": "tckn", "category": "health"},  # type: ignore[arg-type]
        ),
    ),
    "some_off": SensitivityConfig(
        time_budget_ms=60_000,
        judge=_OFF,
        detectors={"email": False, "phone": False, "person_name": False},  # type: ignore[arg-type]
        thresholds={"personal": 0.3, "special": 0.2},  # type: ignore[arg-type]
    ),
}


def _same(a: Sensitivity, b: Sensitivity) -> None:
    assert (a.data_class, a.entities, a.categories, a.findings, a.confidence, a.reason) == (
        b.data_class,
        b.entities,
        b.categories,
        b.findings,
        b.confidence,
        b.reason,
    )


def _plain_search(self: Words, folded: bytes, lo: int, hi: int) -> bool:
    return self.reference.search(folded, lo, hi) is not None


def _windows(folded: bytes, rng: random.Random, n: int) -> Iterator[tuple[int, int]]:
    size = len(folded)
    yield 0, size
    for _ in range(n):
        lo = rng.randint(0, size)
        yield lo, min(size, lo + rng.randint(0, 400))


def test_patterns_are_found() -> None:
    assert len(PATTERNS) >= 10


def test_factor_keeps_every_alternative() -> None:
    alts = [b"ab", b"abc", b"a", b"b\\w*", b"(?:x|y)z", b"a*q", b"", b"ac(?:d|e)"]
    assert split_alternatives(b"|".join(alts)) == alts
    fast = Words(b"|".join(alts))
    plain = fast.reference
    for text in (b"ab", b"a", b"abc", b"bq", b"xz", b"aaq", b"q", b"acd", b"ace", b" ab", b"zab"):
        for lo in range(len(text) + 1):
            assert fast.search(text, lo, len(text)) == (plain.search(text, lo) is not None)
    assert factor([b"ben", b"benim", b"bende"]) == b"b(?:e(?:n(?:|im|de)))"


def test_word_searches_match_the_plain_regex_on_the_eval_set() -> None:
    rng = random.Random(7)
    for text in ROWS:
        folded = fold_bytes(text)
        for lo, hi in _windows(folded, rng, 20):
            for p in PATTERNS:
                assert p.search(folded, lo, hi) == _plain_search(p, folded, lo, hi), (p, lo, hi)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.sampled_from([*VOCAB, "ben", "tc", "tel", "my", "i'm", "a.s", "dt:"])),
    seps=st.lists(st.sampled_from([" ", "", ".", "\n", "-", "'", ":", "1"]), min_size=1),
    lo=st.integers(0, 500),
    width=st.integers(0, 500),
)
def test_word_searches_match_the_plain_regex(
    words: list[str], seps: list[str], lo: int, width: int
) -> None:
    text = "".join(w + seps[i % len(seps)] for i, w in enumerate(words))
    folded = fold_bytes(text)
    lo = min(lo, len(folded))
    hi = min(len(folded), lo + width)
    for p in PATTERNS:
        assert p.search(folded, lo, hi) == _plain_search(p, folded, lo, hi)


def _texts() -> list[str]:
    rng = random.Random(1234)
    out = list(ROWS)
    for _ in range(300):
        out.append(" ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 60))))
    for _ in range(100):
        a, b = rng.choice(ROWS), rng.choice(ROWS)
        cut_a, cut_b = rng.randint(0, len(a)), rng.randint(0, len(b))
        out.append(a[:cut_a] + rng.choice([" ", "\n", ""]) + b[cut_b:])
    return out


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_fast_classifier_equals_plain_classifier(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cached + fast searches vs no cache + plain regexes, on the eval set and mixed texts,
    one text at a time and in requests that repeat texts (cache hits at other indexes)."""
    config = CONFIGS[name]
    texts = _texts()
    fast = Classifier(config)
    fast_single = [fast.classify([t]) for t in texts]
    fast_multi = [fast.classify([texts[i], texts[i + 1], texts[i]]) for i in range(len(texts) - 1)]
    fast_again = [fast.classify([t]) for t in texts]  # every text now from the cache
    monkeypatch.setattr(Words, "search", _plain_search)
    plain = Classifier(config, cache_entries=0)
    for t, a, b in zip(texts, fast_single, fast_again, strict=True):
        p = plain.classify([t])
        _same(a, p)
        _same(b, p)
    for i, a in enumerate(fast_multi):
        _same(a, plain.classify([texts[i], texts[i + 1], texts[i]]))


prose = st.text(
    alphabet=st.sampled_from(
        [
            *"abcçdefgğhıijklmnoöprsştuüvyzABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ0123456789 .,-/()@+:'\n",
            *("İ", "ı", "â", "\u00a0", "ẞ", "K", "’"),
        ]
    ),
    max_size=200,
)
pieces = st.lists(
    st.one_of(
        prose,
        st.sampled_from(VOCAB),
        st.sampled_from(["10000000146", "0532 123 45 67", "TR33 0006 1005 1978 6457 8413 26"]),
    ),
    max_size=12,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(pieces.map(" ".join), min_size=1, max_size=4))
def test_fast_classifier_equals_plain_classifier_on_generated_texts(parts: list[str]) -> None:
    fast = Classifier(CONFIGS["default"])
    first = fast.classify(parts)
    second = fast.classify(parts)  # from the cache
    plain = Classifier(CONFIGS["default"], cache_entries=0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Words, "search", _plain_search)
        expected = plain.classify(parts)
    _same(first, expected)
    _same(second, expected)


def test_text_cache_is_bounded() -> None:
    cache = TextCache(max_entries=3, max_chars=10, max_text_chars=6)
    found: tuple[tuple[()], tuple[()]] = ((), ())
    for t in ("a", "b", "c"):
        cache.put(t, found)
    assert cache.get("a") is not None  # now most recently used
    cache.put("d", found)
    assert len(cache) == 3 and cache.get("b") is None and cache.get("a") is not None
    cache.put("1234567", found)  # longer than max_text_chars: never kept
    assert cache.get("1234567") is None
    cache.put("123456", found)  # 6 chars: a, c/d dropped until <= 10 chars
    assert cache.get("123456") is not None
    assert sum(len(t) for t in ("a", "c", "d", "123456") if cache.get(t) is not None) <= 10
    off = TextCache(max_entries=0)
    off.put("x", found)
    assert off.get("x") is None


def _budget_texts() -> Sequence[str]:
    return ["Ben diyabet hastasıyım, TC 10000000146."]


def test_a_text_over_the_budget_is_not_remembered() -> None:
    clf = Classifier(SensitivityConfig(time_budget_ms=1e-9))
    assert clf.classify(_budget_texts()).data_class == "special"
    assert len(clf._cache) == 0


def test_the_cache_keeps_no_prompt_text() -> None:
    """Keyed by a digest: after classifying, no text (nor any part holding personal data) is
    reachable from the cache; only kinds, offsets and confidences."""
    secret = "Ayşe Yılmaz, TC kimlik 10000000146, ayse.yilmaz@example.com"
    clf = Classifier()
    assert clf.classify([secret]).data_class == "personal"
    assert len(clf._cache) == 1
    for key, (chars, found) in clf._cache._items.items():
        assert isinstance(key, bytes) and len(key) == 16 and chars == len(secret)
        blob = repr(found)
        for part in ("10000000146", "ayse", "Ayşe", "Yılmaz", "example.com"):
            assert part not in blob
    # and the cached answer is still the full one
    again = clf.classify([secret])
    assert again.data_class == "personal" and {e.type for e in again.entities} >= {"TCKN"}
