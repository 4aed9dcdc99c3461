"""Map OpenAI-shaped chat requests to the inputs Replicate's chat models take
(`prompt`, `system_prompt`, `max_tokens`, `temperature`, `top_p`, `stop_sequences`, `seed`)
and finished predictions back to results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.types import ChatMessage, ChatRequest, FinishReason, Usage
from gateway.providers.sampling import SamplingNames, sampling_fields
from gateway.providers.tokens import estimate_prompt_tokens, estimate_text_tokens

# Multi-turn history is flattened into one prompt with this transcript template; a single user
# turn is sent as-is so the model's own chat template applies unchanged.
_SPEAKER = {
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool result",
    "function": "Tool result",
}
TRANSCRIPT_TAIL = "Assistant:"


def _is_system(m: ChatMessage) -> bool:
    return m.role in ("system", "developer")


def flatten_prompt(messages: list[ChatMessage]) -> str:
    turns = [m for m in messages if not _is_system(m)]
    if len(turns) == 1 and turns[0].role == "user":
        return turns[0].text()
    lines = []
    for m in turns:
        text = m.text()
        for tc in m.tool_calls or ():
            text += f"\n[called {tc.function.name}({tc.function.arguments})]"
        lines.append(f"{_SPEAKER[m.role]}: {text.strip()}")
    lines.append(TRANSCRIPT_TAIL)
    return "\n\n".join(lines)


def to_input(request: ChatRequest, limit_key: str = "max_tokens") -> dict[str, Any]:
    inp: dict[str, Any] = {"prompt": flatten_prompt(request.messages)}
    system = "\n\n".join(m.text() for m in request.messages if _is_system(m))
    if system:
        inp["system_prompt"] = system
    inp.update(sampling_fields(request, SamplingNames(limit_key, stop="stop_sequences")))
    if request.stop_list:
        # Replicate's language models take their stop sequences as one comma-separated string
        inp["stop_sequences"] = ",".join(request.stop_list)
    return inp


def output_text(output: Any) -> str:
    """Language models answer with a list of tokens (sometimes one string)."""
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "".join(str(x) for x in output)
    raise ValueError("unexpected output shape")


def usage_of(metrics: Mapping[str, Any] | None, request: ChatRequest, text: str) -> Usage:
    """Replicate's token counts when it reports them; otherwise an estimate, marked so."""
    m = metrics or {}
    pt, ct = m.get("input_token_count"), m.get("output_token_count")
    if isinstance(pt, int) and isinstance(ct, int):
        return Usage(prompt_tokens=pt, completion_tokens=ct)
    return Usage(
        prompt_tokens=estimate_prompt_tokens(request),
        completion_tokens=estimate_text_tokens(text),
        estimated=True,
    )


def finish_of(usage: Usage, request: ChatRequest) -> FinishReason:
    """Replicate reports no finish reason: hitting the token limit is `length`."""
    limit = request.token_limit
    return "length" if limit is not None and usage.completion_tokens >= limit else "stop"
