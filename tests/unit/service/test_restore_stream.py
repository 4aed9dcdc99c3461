"""Streamed restoration: placeholders split anywhere across chunks, in the text AND in a
streamed tool call's arguments, come back as the originals; nothing half-restored leaks."""

from __future__ import annotations

from collections.abc import AsyncIterator

from gateway.core.types import ChatChunk, ChatRequest, ToolCallDelta
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.redaction import Redactor
from gateway.service.restoring import restore_stream

TCKN = "28473615040"
IBAN = "TR330006100519786457841326"


async def _chunks(items: list[ChatChunk]) -> AsyncIterator[ChatChunk]:
    for c in items:
        yield c


def _split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


async def test_split_placeholders_in_text_and_tool_arguments_are_restored() -> None:
    request = ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "user", "content": f"TC kimlik no {TCKN}, IBAN {IBAN} hesabına ödeme yap"}
            ],
        }
    )
    redacted, mapping = Redactor(Classifier()).redact_request(request)
    assert "[TCKN_1]" in str(redacted.messages[0].content)
    text = "Tamam: [TCKN_1] için [IBAN_1]"
    args = '{"iban": "[IBAN_1]", "tckn": "[TCKN_1]"}'
    for size in (1, 2, 3, 5):
        items = [ChatChunk(text=p) for p in _split(text, size)]
        items += [
            ChatChunk(tool_calls=(ToolCallDelta(0, "c1", "pay", p),)) for p in _split(args, size)
        ]
        items.append(ChatChunk(finish_reason="tool_calls"))
        out = [c async for c in restore_stream(_chunks(items), mapping.stream_restorer(), mapping)]
        got_text = "".join(c.text for c in out)
        got_args = "".join(d.arguments or "" for c in out for d in c.tool_calls)
        assert got_text == f"Tamam: {TCKN} için {IBAN}"
        assert got_args == f'{{"iban": "{IBAN}", "tckn": "{TCKN}"}}'
        assert all("[" not in (d.arguments or "") for c in out for d in c.tool_calls)
        assert out[-1].finish_reason == "tool_calls"
