"""Token estimation for when an upstream reports no usage (the row is then marked estimated)."""

from __future__ import annotations

import re

from gateway.core.types import ChatRequest

# Roughly what BPE tokenizers do: words, numbers and single punctuation marks are tokens;
# long words split about every 4 characters.
_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def estimate_text_tokens(text: str) -> int:
    n = 0
    for m in _PIECE.finditer(text):
        size = m.end() - m.start()
        n += 1 + (size - 1) // 4 if size > 1 else 1
    return n


def estimate_prompt_tokens(request: ChatRequest) -> int:
    # about 4 tokens of chat-template overhead per message
    return sum(estimate_text_tokens(t) for t in request.all_texts()) + 4 * len(request.messages)
