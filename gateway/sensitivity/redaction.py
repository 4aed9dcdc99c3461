"""Reversible redaction: detected values become typed placeholders ([TCKN_1], [AD_SOYAD_2])
before a request leaves for a backend that needs it; the answer gets the originals back,
streamed or not. The mapping lives only in the RedactionMap of that one request: it is never
logged, stored or serialised."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Final

from gateway.core.textplaces import replace_texts, request_texts
from gateway.core.types import ChatRequest
from gateway.sensitivity.checksums import strip_separators
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.result import Sensitivity
from gateway.sensitivity.textnorm import fold

_PLACEHOLDER: Final = re.compile(r"\[([A-Z][A-Z0-9_]*?)_(\d+)\]")


class RedactionMap:
    """placeholder -> original value, for one request."""

    __slots__ = ("_by_key", "_counters", "_originals", "_prefixes")

    def __init__(self) -> None:
        self._originals: dict[str, str] = {}
        self._by_key: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}
        # every proper prefix of every placeholder: grown by each new placeholder's own
        # prefixes, so a request with n values costs O(n), never a rebuild per value
        self._prefixes: set[str] = set()

    def __getstate__(self) -> tuple[dict[str, str], dict[tuple[str, str], str], dict[str, int]]:
        # made in a child process for a long request: the prefixes (about 15 per value) are
        # not sent back but made again here, by Python code that lets the GIL go (a set of
        # 60,000 strings unpickled in one C call would not)
        return self._originals, self._by_key, self._counters

    def __setstate__(
        self, state: tuple[dict[str, str], dict[tuple[str, str], str], dict[str, int]]
    ) -> None:
        self._originals, self._by_key, self._counters = state
        self._prefixes = set()
        for ph in self._originals:
            self._prefixes.update(ph[:i] for i in range(1, len(ph)))

    def __repr__(self) -> str:  # never show values
        return f"RedactionMap({len(self._originals)} placeholders)"

    def __len__(self) -> int:
        return len(self._originals)

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(self._originals)

    def placeholder_for(self, entity_type: str, value: str) -> str:
        """The same value (ignoring separators and case) always gets the same placeholder."""
        key = (entity_type, fold(strip_separators(value)) or value)
        ph = self._by_key.get(key)
        if ph is None:
            n = self._counters.get(entity_type, 0) + 1
            self._counters[entity_type] = n
            ph = f"[{entity_type}_{n}]"
            self._by_key[key] = ph
            self._originals[ph] = value
            self._prefixes.update(ph[:i] for i in range(1, len(ph)))
        return ph

    def restore(self, text: str) -> str:
        if not self._originals or "[" not in text:
            return text
        return _PLACEHOLDER.sub(lambda m: self._originals.get(m.group(0), m.group(0)), text)

    def stream_restorer(self) -> StreamRestorer:
        return StreamRestorer(self)

    def _is_partial(self, tail: str) -> bool:
        return tail in self._prefixes


class StreamRestorer:
    """Restores placeholders in a stream whose chunks may split a placeholder anywhere."""

    __slots__ = ("_held", "_map")

    def __init__(self, mapping: RedactionMap) -> None:
        self._map = mapping
        self._held = ""

    def feed(self, text: str) -> str:
        """What can be emitted now; a trailing possible start of a placeholder is held back."""
        buf = self._held + text
        cut = buf.rfind("[")
        if cut >= 0 and "]" not in buf[cut:] and self._map._is_partial(buf[cut:]):
            self._held = buf[cut:]
            buf = buf[:cut]
        else:
            self._held = ""
        return self._map.restore(buf)

    def flush(self) -> str:
        out, self._held = self._map.restore(self._held), ""
        return out


class Redactor:
    """Builds a redacted copy of a request; the original request object is left untouched.
    It rewrites exactly the places the classifier read (gateway.core.textplaces)."""

    def __init__(self, classifier: Classifier) -> None:
        self._classifier = classifier

    def redact_texts(
        self, texts: Sequence[str], mapping: RedactionMap, result: Sensitivity | None = None
    ) -> list[str]:
        """`texts` with every detected value replaced; `result` is the classification of
        exactly these texts when the caller has it already (else they are classified here)."""
        if result is None:
            result = self._classifier.classify(texts)
        if result.reason is not None:
            raise RuntimeError(f"cannot redact: {result.reason}")
        out = list(texts)
        by_text: dict[int, list[tuple[int, int, str]]] = {}
        for f in result.findings:
            if f.category is None:
                by_text.setdefault(f.text_index, []).append((f.start, f.end, f.kind))
        for i, spans in by_text.items():
            text = texts[i]
            pieces: list[str] = []
            pos = 0
            for start, end, kind in sorted(spans):
                if start < pos:
                    continue
                pieces.append(text[pos:start])
                pieces.append(mapping.placeholder_for(kind, text[start:end]))
                pos = end
            pieces.append(text[pos:])
            out[i] = "".join(pieces)
        return out

    def redact_request(
        self, request: ChatRequest, result: Sensitivity | None = None
    ) -> tuple[ChatRequest, RedactionMap]:
        """A NEW request with placeholders in every text-bearing place, plus the map to restore
        the answer. `result`: the request's classification (`Classifier.classify_request`),
        when the router made it already."""
        mapping = RedactionMap()
        texts = request_texts(request)
        return replace_texts(request, self.redact_texts(texts, mapping, result)), mapping

    async def redact_request_off_loop(
        self, request: ChatRequest, result: Sensitivity | None = None
    ) -> tuple[ChatRequest, RedactionMap]:
        """`redact_request` for a long request, off the event loop: in one of the classifier's
        child processes, within `time_budget_ms` (`TimeoutError` or `OffloadFailed` then:
        the caller fails closed). Without child processes, in a worker thread. A worker thread
        is not enough with them: it holds the GIL through the whole rewrite, and on a busy
        machine the loop waited for it (4,000 e-mails redacted in a thread: the probe's
        lateness 85-133 ms against 17-27 ms idle on the same machine)."""
        classifier = self._classifier
        pool = classifier.offload
        if pool is None:
            return await asyncio.to_thread(self.redact_request, request, result)
        from gateway.sensitivity import child  # it imports this module

        budget_s = classifier.config.time_budget_ms / 1000
        return await pool.run(budget_s, child.redact, classifier.config_json, request, result)
