"""Lexicon matching over a whole text without per-token Python loops.

A `TokenScanner` built from the keys of every lexicon finds the tokens of a text's word view
that equal an exact key or start with a stem (`stem*`), with their offsets, by set operations
over the text's distinct tokens. Each `Lexicon` then resolves only those tokens (a dict look-up
per distinct token), so the cost is linear in the text and barely depends on the lexicon
size."""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from gateway.sensitivity.textnorm import fold_term

T = TypeVar("T", bound=Hashable)

# token -> its start offsets in the word view, in text order
Occurrences = Mapping[bytes, list[int]]

_WORD_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")
# how many tokens a Lexicon remembers the entries of (the tokens it is asked about are those
# that start with one of its keys, so a few thousand cover any real vocabulary)
_ENTRIES_CACHED = 4096
# how many tokens a TokenScanner remembers as wanted or not, each (~3 MB in all when full)
_TOKENS_KNOWN = 32768


@dataclass(frozen=True, slots=True)
class Hit(Generic[T]):
    start: int
    end: int  # end of the whole phrase
    token: bytes  # the first token as written (folded), e.g. b"diyabetim"
    stem: bytes  # the lexicon key it matched, e.g. b"diyabet"
    tag: T


@dataclass(frozen=True, slots=True)
class _Entry(Generic[T]):
    tag: T
    phrase: re.Pattern[bytes] | None  # whole-phrase check at the first token, if multi-word
    # the phrase's longest later word (its suffix star dropped): a text without these bytes
    # cannot hold the phrase, so a phrase that starts with an everyday word ('in custody',
    # 'on remand') costs one substring test per text instead of a regex match per 'in'
    needs: bytes = b""
    # how far past the first token's end `needs` can end in a match (separators of up to three
    # bytes and the fixed words between), or -1 when a starred word before it has no bound:
    # 'in custody' is tested near each 'in' instead of across the whole window
    reach: int = -1


# Each phrase's regex is compiled once per process: the lexicons hold more phrases than the re
# module's own cache, which every new Classifier would otherwise flush and rebuild.
@functools.lru_cache(maxsize=8192)
def _phrase_regex(words: tuple[str, ...]) -> re.Pattern[bytes]:
    parts = []
    for w in words:
        star = w.endswith("*")
        core = re.escape(w.rstrip("*").encode("ascii"))
        parts.append(core + (rb"[a-z0-9]*" if star else rb"(?![a-z0-9])"))
    return re.compile(rb"[^a-z0-9]{1,3}".join(parts))


# above this many occurrences of a token in a window, a phrase's later word is first looked
# for across the window (one pass) before near each occurrence
_NEAR_TESTS: Final = 64


def _reach(words: list[str], needs: bytes) -> int:
    """Bytes after the first word's end within which `needs` (the longest later word) ends in
    any match of the phrase: up to three separator bytes before each later word, plus the
    fixed words up to it. -1 when a starred word between has no bound."""
    total = 0
    for w in words[1:]:
        core = w.rstrip("*")
        total += 3 + len(core)
        if core.encode("ascii") == needs:
            return total
        if w.endswith("*"):
            return -1
    return -1


class Lexicon(Generic[T]):
    """Terms (folded, `*` = any suffix, spaces = phrase) each carrying a tag."""

    def __init__(self, terms: Iterable[tuple[str, T]]) -> None:
        exact: dict[bytes, list[_Entry[T]]] = {}
        prefix: dict[bytes, list[_Entry[T]]] = {}
        for raw, tag in terms:
            # a hyphen or an apostrophe joins words ("hak-is", "right-wing", "akp'li",
            # "doctor's appointment"): match it as a phrase, whose words may be separated by
            # any one to three non-word characters in the text
            term = fold_term(raw).replace("-", " ").replace("'", " ")
            words = term.split()
            if not words or not term.isascii():
                continue
            first = words[0]
            phrase = _phrase_regex(tuple(words)) if len(words) > 1 else None
            needs = max((w.rstrip("*") for w in words[1:]), key=len, default="").encode("ascii")
            reach = _reach(words, needs)
            if first.endswith("*"):
                key = first.rstrip("*").encode("ascii")
                if len(key) < 2:
                    continue
                prefix.setdefault(key, []).append(_Entry(tag, phrase, needs, reach))
            else:
                exact.setdefault(first.encode("ascii"), []).append(
                    _Entry(tag, phrase, needs, reach)
                )
        self._exact = exact
        self._prefix = prefix
        self._prefix_lengths = tuple(sorted({len(k) for k in prefix}))
        self._entries: dict[bytes, list[tuple[bytes, _Entry[T]]]] = {}

    def __len__(self) -> int:
        return len(self._exact) + len(self._prefix)

    @property
    def exact_keys(self) -> frozenset[bytes]:
        return frozenset(self._exact)

    @property
    def stem_keys(self) -> frozenset[bytes]:
        return frozenset(self._prefix)

    def entries(self, token: bytes) -> list[tuple[bytes, _Entry[T]]]:
        """(stem, entry) pairs for one token: its exact key, then every stem it starts with.
        Remembered per token (a lexicon never changes), up to a bound."""
        out = self._entries.get(token)
        if out is None:
            out = self._lookup(token)
            if len(self._entries) < _ENTRIES_CACHED:
                self._entries[token] = out
        return out

    def _lookup(self, token: bytes) -> list[tuple[bytes, _Entry[T]]]:
        out = [(token, e) for e in self._exact.get(token, ())]
        for n in self._prefix_lengths:
            if n > len(token):
                break
            stem = token[:n]
            out.extend((stem, e) for e in self._prefix.get(stem, ()))
        return out

    def find(self, words: bytes, found: Occurrences) -> list[Hit[T]]:
        """Every occurrence in `words` (a word view) of every term, with its tag, in text order.
        `found` comes from a TokenScanner built with this lexicon's keys."""
        hits: list[Hit[T]] = []
        for tok, starts in found.items():
            entries = self.entries(tok)
            if not entries:
                continue
            n = len(tok)
            for stem, entry in entries:
                phrase = entry.phrase
                if phrase is None:
                    hits.extend(Hit(start, start + n, tok, stem, entry.tag) for start in starts)
                    continue
                needs, reach = entry.needs, entry.reach
                # one test across the window when it is cheaper than one near each occurrence
                if (reach < 0 or len(starts) > _NEAR_TESTS) and needs not in words:
                    continue
                for start in starts:
                    if reach >= 0 and words.find(needs, start, start + n + reach) < 0:
                        continue
                    m = phrase.match(words, start)
                    if m is not None:
                        hits.append(Hit(start, m.end(), tok, stem, entry.tag))
        # stable: hits at one offset keep the order of their token's entries
        hits.sort(key=lambda h: h.start)
        return hits


def _trie_regex(exact: Iterable[bytes], stems: Iterable[bytes]) -> bytes:
    """A regex matching exactly the tokens that equal an exact key or start with a stem. It is
    shaped as a trie so the engine follows one branch per character."""
    end_exact, end_stem = -1, -2
    trie: dict[int, Any] = {}
    for keys, mark in ((exact, end_exact), (stems, end_stem)):
        for w in keys:
            node = trie
            for ch in w:
                node = node.setdefault(ch, {})
            node[mark] = {}

    def build(node: dict[int, Any]) -> bytes:
        if end_stem in node:  # any continuation matches: children add nothing
            return rb"[a-z0-9]*"
        alts = [
            re.escape(bytes([ch])) + build(node[ch]) for ch in sorted(k for k in node if k >= 0)
        ]
        if end_exact in node:
            alts.append(rb"(?![a-z0-9])")
        return alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"

    return build(trie)


class TokenScanner:
    """Finds the tokens of a word view that some lexicon may care about, with their offsets.

    A text's distinct tokens are set against the tokens already known to matter or not (set
    operations in C); only a token never seen before is tested against the keys, and the few
    that matter are then found with `bytes.find`. Per token that is a hash, where one regex
    pass over the text (what this did before) walked the keys' trie at every word: ~25% less
    time for a 16 KB window, and the same result (tests/unit/sensitivity/test_views.py)."""

    def __init__(self, exact: Iterable[bytes], stems: Iterable[bytes]) -> None:
        # keys with characters a word view never holds can never match (hyphenated terms
        # are split into phrases by Lexicon, so none is left here)
        ex = sorted({k for k in exact if k and _WORD_CHARS.issuperset(k)})
        st = sorted({k for k in stems if k and _WORD_CHARS.issuperset(k)})
        self._empty = not ex and not st
        body = _trie_regex(ex, st) if not self._empty else b"(?!)"
        self._matches = re.compile(body).fullmatch
        # tokens already tested, bounded (see _remember); a set is only ever added to or
        # replaced, so a scan in another thread never sees one emptied under it
        self._wanted: set[bytes] = set()
        self._unwanted: set[bytes] = set()

    def scan(self, words: bytes) -> dict[bytes, list[int]]:
        """token -> its start offsets, tokens in the order of their first occurrence."""
        if self._empty or not words:
            return {}
        distinct = set(words.split(b" "))
        # this text's answers come from these two sets as they are now plus what is learnt
        # of its new tokens: a set that fills up is replaced, never emptied under a reader
        wanted = self._wanted
        new = distinct - wanted - self._unwanted
        relevant = distinct & wanted
        if new:
            new.discard(b"")
            relevant |= self._learn(new)
        if not relevant:
            return {}
        padded = b" " + words + b" "
        found: list[tuple[bytes, list[int]]] = []
        for tok in relevant:
            needle = b" " + tok + b" "
            step = len(needle) - 1  # the next occurrence may begin at this one's last space
            at = padded.find(needle)
            starts = []
            while at >= 0:
                starts.append(at)  # `padded` is one byte ahead: `at` is the token's offset
                at = padded.find(needle, at + step)
            found.append((tok, starts))
        found.sort(key=_first_start)
        return dict(found)

    def _learn(self, tokens: set[bytes]) -> set[bytes]:
        """The wanted ones of `tokens`, tokens no set knows yet; both sets remember them."""
        matches = self._matches
        wanted = {tok for tok in tokens if matches(tok)}
        self._wanted = _remember(self._wanted, wanted)
        self._unwanted = _remember(self._unwanted, tokens - wanted)
        return wanted


def _remember(known: set[bytes], more: set[bytes]) -> set[bytes]:
    """`known` with `more` added, or a new set when that would pass the bound (a text of
    made-up words cannot grow it without end)."""
    if len(known) + len(more) <= _TOKENS_KNOWN:
        known |= more
        return known
    return set(more) if len(more) <= _TOKENS_KNOWN else set()


def _first_start(item: tuple[bytes, list[int]]) -> int:
    return item[1][0]
