"""The fast paths agree with the plain definitions they replace: byte folding, the shape-view
digit runs and IBAN heads, and the one-pass lexicon token scan."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.sensitivity import identifiers
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.lexicon import Lexicon, TokenScanner
from gateway.sensitivity.textnorm import fold, fold_bytes, shape_view, word_view

from .helpers import make_tckn

# the definitions on the folded text, before the shape view
PLAIN_RUN = re.compile(rb"\d(?:[ .\-/()]{0,2}\d){5,}")
PLAIN_LONG_RUN = re.compile(rb"\d(?:[ .\-/()]{0,2}\d){9,}")
PLAIN_IBAN_HEAD = re.compile(rb"(?<![a-z0-9])[a-z]{2}\d{2}(?=[ \-]?[a-z0-9])")


def test_fold_bytes_matches_fold_on_every_bmp_character() -> None:
    for cp in [*range(0xD800), *range(0xE000, 0x10000), 0x1F600, 0x10FFFF]:
        c = chr(cp)
        assert fold_bytes(c) == fold(c).encode("ascii", "replace"), hex(cp)


@given(st.text(alphabet=st.sampled_from("aAıIiİşŞçÇğĞöÖüÜ ẞKÅ\u00a0’ß€Σжé1.-@😀\ud800")))
def test_fold_bytes_matches_fold_on_text(text: str) -> None:
    assert fold_bytes(text) == fold(text).encode("ascii", "replace")
    assert len(fold_bytes(text)) == len(text)


digitish = st.text(alphabet=st.sampled_from("0123456789 .-/()ab,:+_\n"), max_size=120)


@settings(max_examples=300)
@given(digitish)
def test_digit_runs_on_shape_view_match_the_plain_regex(text: str) -> None:
    folded = fold_bytes(text)
    shape = shape_view(folded)
    assert [m.span() for m in identifiers.RUN.finditer(shape)] == [
        m.span() for m in PLAIN_RUN.finditer(folded)
    ]
    assert [m.span() for m in identifiers.LONG_RUN.finditer(shape)] == [
        m.span() for m in PLAIN_LONG_RUN.finditer(folded)
    ]


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("trTR0123456789 -.x"), max_size=80))
def test_iban_heads_match_the_plain_regex(text: str) -> None:
    folded = fold_bytes(text)
    assert identifiers._iban_heads(shape_view(folded)) == [
        m.start() for m in PLAIN_IBAN_HEAD.finditer(folded)
    ]


TERMS = [
    ("diyabet*", "health"),
    ("hiv", "health"),
    ("seker hastasi*", "health"),
    ("di*", "short"),
    ("kalp krizi*", "health"),
    # phrases that start with an everyday word, looked for only where their later word is
    ("in custody", "criminal"),
    ("on the spectrum", "health"),
    ("dusuk yap*", "health"),
    # a starred word before the later word: no bound on how far it can be
    ("in his* custody", "criminal"),
]
WORDS = ["diyabet", "diyabetim", "di", "d", "hiv", "hivx", "seker", "hastasiyim", "kalp", "x"]
WORDS += ["in", "custody", "custodyx", "on", "the", "spectrum", "dusuk", "yapti", "yap", "ya"]
WORDS += ["his", "hisself"]


@settings(max_examples=300)
# up to 400 parts: a token seen more than 64 times is first looked for across the window
@given(st.lists(st.sampled_from([*WORDS, " ", ".", "\n"]), max_size=400))
def test_scanner_finds_the_same_hits_as_token_by_token_matching(parts: list[str]) -> None:
    lex: Lexicon[str] = Lexicon(TERMS)
    words = word_view(fold_bytes(" ".join(parts)))
    found = TokenScanner(lex.exact_keys, lex.stem_keys).scan(words)
    got = sorted((h.start, h.end, h.stem, h.tag) for h in lex.find(words, found))
    want = []
    for m in re.finditer(rb"[a-z0-9]+", words):
        for stem, entry in lex.entries(m.group(0)):
            if entry.phrase is None:
                want.append((m.start(), m.end(), stem, entry.tag))
            elif (p := entry.phrase.match(words, m.start())) is not None:
                want.append((m.start(), p.end(), stem, entry.tag))
    assert got == sorted(want)


def _plain_scan(words: bytes, exact: set[bytes], stems: set[bytes]) -> dict[bytes, list[int]]:
    """Token by token: a token that equals a key or starts with a stem, at each offset, in the
    order of first occurrence."""
    found: dict[bytes, list[int]] = {}
    for m in re.finditer(rb"[a-z0-9]+", words):
        tok = m.group(0)
        if tok in exact or any(tok.startswith(s) for s in stems):
            found.setdefault(tok, []).append(m.start())
    return found


@settings(max_examples=300)
@given(st.lists(st.lists(st.sampled_from([*WORDS, " ", ".", "\n", "  "]), max_size=60), max_size=4))
def test_one_scanner_gives_every_text_the_offsets_a_plain_scan_does(texts: list[list[str]]) -> None:
    # one scanner across several texts: what it learnt of one text's tokens must not change
    # what it finds in the next; tokens side by side share the space between them
    lex: Lexicon[str] = Lexicon(TERMS)
    scanner = TokenScanner(lex.exact_keys, lex.stem_keys)
    for parts in [*texts, *texts]:
        words = word_view(fold_bytes("".join(parts)))
        got = scanner.scan(words)
        want = _plain_scan(words, set(lex.exact_keys), set(lex.stem_keys))
        assert list(got.items()) == list(want.items())


def test_a_token_repeated_side_by_side_is_found_at_every_offset() -> None:
    scanner = TokenScanner([b"hiv"], [b"diyabet"])
    words = b"hiv hiv hiv  x hiv diyabetim diyabetim diyabet"
    assert scanner.scan(words) == {b"hiv": [0, 4, 8, 15], b"diyabetim": [19, 29], b"diyabet": [39]}
    assert list(scanner.scan(b"diyabet hiv")) == [b"diyabet", b"hiv"]


def test_a_text_that_fills_the_remembered_tokens_still_finds_the_known_ones() -> None:
    # 'hiv' is known before; the text brings more new wanted tokens than the bound holds:
    # forgetting what was known must not drop it from this text's answer
    scanner = TokenScanner([b"hiv"], [b"diyabet"])
    assert scanner.scan(b"hiv") == {b"hiv": [0]}
    words = b"hiv " + b" ".join(b"diyabet%d" % n for n in range(33_000))
    found = scanner.scan(words)
    assert found[b"hiv"] == [0] and len(found) == 33_001
    assert scanner.scan(b"x hiv") == {b"hiv": [2]}


def test_the_tokens_a_scanner_remembers_are_bounded() -> None:
    scanner = TokenScanner([b"hiv"], [b"diyabet"])
    for i in range(3):
        words = b" ".join(b"w%d" % n for n in range(i * 40_000, (i + 1) * 40_000)) + b" hiv"
        assert scanner.scan(words) == {b"hiv": [len(words) - 3]}
    assert len(scanner._unwanted) <= 32_768


@pytest.mark.parametrize("sep", [" ", " . ", " .\n"])
@pytest.mark.parametrize("repeat", [1, 80])
def test_phrases_are_found_across_the_widest_separators(sep: str, repeat: int) -> None:
    # one to three separator bytes between the words (a phrase's later word is looked for
    # within that reach of each occurrence); 80 copies take the window test first
    lex: Lexicon[str] = Lexicon(TERMS)
    text = f"in{sep}custody on{sep}the{sep}spectrum dusuk{sep}yapti in{sep}hisself{sep}custody "
    words = word_view(fold_bytes(text * repeat))
    found = TokenScanner(lex.exact_keys, lex.stem_keys).scan(words)
    stems = [h.stem for h in lex.find(words, found)]
    assert stems.count(b"in") == 2 * repeat
    assert stems.count(b"on") == stems.count(b"dusuk") == repeat


def test_512kb_prompt_stays_within_the_default_time_budget() -> None:
    filler = "Üçüncü çeyrek satış sonuçları beklentinin üzerinde geldi; sipariş 88412, 12.03.2024. "
    text = filler * (512 * 1024 // len(filler))
    text += f" Sayın Ayşe Yılmaz, TC kimlik no {make_tckn('123456789')}."
    clf = Classifier(SensitivityConfig())
    # ~20 ms of CPU against the 250 ms budget: a normal big prompt must never fail closed.
    # Best of three, so one bad scheduling slice on a busy test machine does not fail it.
    results = [clf.classify([text]) for _ in range(3)]
    best = min(results, key=lambda r: r.elapsed_ms)
    assert best.reason is None, best.reason
    assert best.data_class == "personal"


def test_a_prompt_full_of_identifiers_is_not_quadratic() -> None:
    # 20 000 numbers: overlap resolution and the subject check were pair by pair (~30 s)
    line = f"Ayşe Yılmaz TCKN {make_tckn('123456789')} diyabet hastası, tel 0532 123 45 67\n"
    text = line * 4000
    started = time.perf_counter()
    result = Classifier(SensitivityConfig(time_budget_ms=60_000)).classify([text])
    assert time.perf_counter() - started < 10.0
    assert result.data_class == "special"
    assert {e.type: e.count for e in result.entities}["TCKN"] == 4000
