"""Token estimation for when an upstream reports no usage (the row is then marked estimated).
The per-text estimate lives in gateway/core/tokens.py (the classifier counts from the same
bytes it folds); a chat request adds its per-message overhead here."""

from __future__ import annotations

from gateway.core.textplaces import request_texts
from gateway.core.tokens import estimate_text_tokens
from gateway.core.types import ChatRequest

__all__ = ["MESSAGE_OVERHEAD", "estimate_prompt_tokens", "estimate_text_tokens"]

MESSAGE_OVERHEAD = 4  # about 4 tokens of chat-template overhead per message


def estimate_prompt_tokens(request: ChatRequest) -> int:
    return sum(estimate_text_tokens(t) for t in request_texts(request)) + MESSAGE_OVERHEAD * len(
        request.messages
    )
