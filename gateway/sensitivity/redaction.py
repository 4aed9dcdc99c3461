"""Reversible redaction: detected values become typed placeholders ([TCKN_1], [AD_SOYAD_2])
before a request leaves for a backend that needs it; the answer gets the originals back,
streamed or not. The mapping lives only in the RedactionMap of that one request: it is never
logged, stored or serialised."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from gateway.core.types import ChatMessage, ChatRequest, ContentPart
from gateway.sensitivity.checksums import strip_separators
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.textnorm import fold

_PLACEHOLDER: Final = re.compile(r"\[([A-Z][A-Z0-9_]*?)_(\d+)\]")


class RedactionMap:
    """placeholder -> original value, for one request."""

    __slots__ = ("_by_key", "_counters", "_originals", "_prefixes")

    def __init__(self) -> None:
        self._originals: dict[str, str] = {}
        self._by_key: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}
        self._prefixes: frozenset[str] = frozenset()

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
            self._prefixes = frozenset(p[:i] for p in self._originals for i in range(1, len(p)))
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
    """Builds a redacted copy of a request; the original request object is left untouched."""

    def __init__(self, classifier: Classifier) -> None:
        self._classifier = classifier

    def redact_texts(self, texts: list[str], mapping: RedactionMap) -> list[str]:
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

    def redact_request(self, request: ChatRequest) -> tuple[ChatRequest, RedactionMap]:
        """A NEW request with placeholders in every message text, text part and tool-call
        argument, plus the map to restore the answer."""
        mapping = RedactionMap()
        new = request.model_copy(deep=True)
        setters: list[Callable[[str], None]] = []
        texts: list[str] = []
        for msg in new.messages:
            _collect(msg, texts, setters)
        for setter, value in zip(setters, self.redact_texts(texts, mapping), strict=True):
            setter(value)
        return new, mapping


def _setter(obj: object, attr: str) -> Callable[[str], None]:
    def set_value(value: str) -> None:
        setattr(obj, attr, value)

    return set_value


def _collect(msg: ChatMessage, texts: list[str], setters: list[Callable[[str], None]]) -> None:
    if isinstance(msg.content, str):
        texts.append(msg.content)
        setters.append(_setter(msg, "content"))
    elif isinstance(msg.content, list):
        for part in msg.content:
            if isinstance(part, ContentPart) and part.text:
                texts.append(part.text)
                setters.append(_setter(part, "text"))
    for tc in msg.tool_calls or ():
        texts.append(tc.function.arguments)
        setters.append(_setter(tc.function, "arguments"))
