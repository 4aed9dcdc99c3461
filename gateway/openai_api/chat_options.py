"""Chat options no backend behind the gateway can honour, refused with a 400 that says so
rather than answered wrongly: `logprobs` / `top_logprobs` (no adapter returns token log
probabilities, so the answer would carry `null` where the client asked for numbers)."""

from __future__ import annotations

from typing import Any

from gateway.core.types import ChatRequest
from gateway.openai_api.strict import unsupported


def _option(chat: ChatRequest, name: str) -> Any:
    """The option whether the request schema types it or keeps it as an extra field."""
    if name in type(chat).model_fields:
        return getattr(chat, name)
    return (chat.model_extra or {}).get(name)


def refuse_unservable(chat: ChatRequest) -> None:
    for name in ("logprobs", "top_logprobs"):
        if _option(chat, name):
            raise unsupported(f"{name} is not supported: the backends behind this gateway do "
                              "not return token log probabilities", name)
