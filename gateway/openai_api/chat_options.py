"""Chat options no backend behind the gateway can honour, refused with a 400 that says so
rather than answered wrongly: `logprobs` / `top_logprobs` (no adapter returns token log
probabilities, so the answer would carry `null` where the client asked for numbers)."""

from __future__ import annotations

from gateway.core.types import ChatRequest
from gateway.openai_api.strict import unsupported

_OPTIONS = ("logprobs", "top_logprobs")
# whether the request schema types an option or keeps it among its extra fields; read once,
# since looking the schema up per request costs more than the check itself on the hot path
_TYPED = frozenset(n for n in _OPTIONS if n in ChatRequest.model_fields)


def refuse_unservable(chat: ChatRequest) -> None:
    extra = chat.__pydantic_extra__
    if not extra and not _TYPED:
        return  # the common request: nothing beyond the typed fields
    for name in _OPTIONS:
        value = getattr(chat, name) if name in _TYPED else extra.get(name) if extra else None
        if value:
            raise unsupported(
                f"{name} is not supported: the backends behind this gateway do "
                "not return token log probabilities",
                name,
            )
