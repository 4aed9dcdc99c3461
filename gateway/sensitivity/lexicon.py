"""Fast lexicon matching over a whole text without per-token Python loops.

A text's distinct tokens come from one C-level split of its word view. Exact terms are found by
set intersection; stem terms (`stem*`) by one trie-shaped regex over the distinct tokens joined
by newlines. Only the tokens that hit are then located in the text (str.find), so the cost is
linear in the text and independent of the lexicon size."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from gateway.sensitivity.textnorm import fold_term

T = TypeVar("T", bound=Hashable)


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


def _trie_regex(words: Iterable[bytes]) -> bytes:
    trie: dict[int, dict] = {}  # type: ignore[type-arg]
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[-1] = {}

    def build(node: dict) -> bytes:  # type: ignore[type-arg]
        alts = [
            re.escape(bytes([ch])) + build(node[ch]) for ch in sorted(k for k in node if k >= 0)
        ]
        if not alts:
            return b""
        body = alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"
        return b"(?:" + body + b")?" if -1 in node else body

    return build(trie)


def _phrase_regex(words: list[str]) -> re.Pattern[bytes]:
    parts = []
    for w in words:
        star = w.endswith("*")
        core = re.escape(w.rstrip("*").encode("ascii"))
        parts.append(core + (rb"[a-z0-9]*" if star else rb"(?![a-z0-9])"))
    return re.compile(rb"[^a-z0-9]{1,3}".join(parts))


class Lexicon(Generic[T]):
    """Terms (folded, `*` = any suffix, spaces = phrase) each carrying a tag."""

    def __init__(self, terms: Iterable[tuple[str, T]]) -> None:
        exact: dict[bytes, list[_Entry[T]]] = {}
        prefix: dict[bytes, list[_Entry[T]]] = {}
        for raw, tag in terms:
            term = fold_term(raw)
            words = term.split()
            if not words or not term.isascii():
                continue
            first = words[0]
            phrase = _phrase_regex(words) if len(words) > 1 else None
            if first.endswith("*"):
                key = first.rstrip("*").encode("ascii")
                if len(key) < 2:
                    continue
                prefix.setdefault(key, []).append(_Entry(tag, phrase))
            else:
                exact.setdefault(first.encode("ascii"), []).append(_Entry(tag, phrase))
        self._exact = exact
        self._exact_keys = frozenset(exact)
        self._prefix = prefix
        self._prefix_lengths = tuple(sorted({len(k) for k in prefix}))
        self._prefix_re = (
            re.compile(rb"(?m)^" + _trie_regex(prefix) + rb"[a-z0-9]*$") if prefix else None
        )

    def __len__(self) -> int:
        return len(self._exact) + len(self._prefix)

    def matching_tokens(
        self, tokens: frozenset[bytes]
    ) -> dict[bytes, list[tuple[bytes, _Entry[T]]]]:
        """Distinct tokens that hit, each with (stem, entry) pairs."""
        out: dict[bytes, list[tuple[bytes, _Entry[T]]]] = {}
        for tok in tokens & self._exact_keys:
            out[tok] = [(tok, e) for e in self._exact[tok]]
        if self._prefix_re is not None and tokens:
            for m in self._prefix_re.finditer(b"\n".join(tokens)):
                tok = m.group(0)
                for n in self._prefix_lengths:
                    if n > len(tok):
                        break
                    for e in self._prefix.get(tok[:n], ()):
                        out.setdefault(tok, []).append((tok[:n], e))
        return out

    def find(self, words: bytes, tokens: frozenset[bytes]) -> Iterator[Hit[T]]:
        """Every occurrence in `words` (a word view) of every term, with its tag."""
        for tok, entries in self.matching_tokens(tokens).items():
            for start in occurrences(words, tok):
                end = start + len(tok)
                for stem, entry in entries:
                    if entry.phrase is None:
                        yield Hit(start, end, tok, stem, entry.tag)
                        continue
                    m = entry.phrase.match(words, start)
                    if m is not None:
                        yield Hit(start, m.end(), tok, stem, entry.tag)


def occurrences(words: bytes, token: bytes) -> Iterator[int]:
    """Start offsets of `token` as a whole word in a word view (words separated by spaces)."""
    n = len(token)
    i = words.find(token)
    while i >= 0:
        if (i == 0 or words[i - 1] == 32) and (i + n == len(words) or words[i + n] == 32):
            yield i
        i = words.find(token, i + n)
