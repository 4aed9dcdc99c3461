"""The emulator's event-stream encoder, checked by botocore's own decoder and parser."""

from __future__ import annotations

import io
from typing import Any

import botocore.session
import orjson
import pytest
from botocore.eventstream import ChecksumMismatch, EventStream, EventStreamBuffer
from botocore.exceptions import EventStreamError
from botocore.parsers import EventStreamJSONParser

from gateway.emulators import eventstream


class _Raw:
    """What EventStream reads from: an object with `stream()` yielding byte chunks."""

    def __init__(self, data: bytes, chunk: int = 7) -> None:
        self._buf = io.BytesIO(data)
        self._chunk = chunk

    def stream(self) -> Any:
        while piece := self._buf.read(self._chunk):
            yield piece

    def close(self) -> None:
        self._buf.close()


def _converse_stream(data: bytes) -> EventStream:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    shape = model.operation_model("ConverseStream").output_shape.members["stream"]
    return EventStream(_Raw(data), shape, EventStreamJSONParser(), "ConverseStream")


def test_message_round_trips_through_botocore_buffer() -> None:
    payload = '{"delta": {"text": "Günaydın"}}'.encode()
    frame = eventstream.encode_message(
        {":event-type": "contentBlockDelta", "x-ü": "değer"}, payload
    )
    buf = EventStreamBuffer()
    buf.add_data(frame[:5])  # a frame split across reads must still decode
    assert list(buf) == []
    buf.add_data(frame[5:])
    [message] = list(buf)
    assert message.headers == {":event-type": "contentBlockDelta", "x-ü": "değer"}
    assert message.payload == payload
    assert message.prelude.total_length == len(frame)


def test_corrupted_crc_is_rejected_by_botocore() -> None:
    frame = eventstream.event("contentBlockDelta", b"{}", corrupt_crc=True)
    buf = EventStreamBuffer()
    buf.add_data(frame)
    with pytest.raises(ChecksumMismatch):
        list(buf)


def test_converse_stream_events_parse_with_the_bedrock_shape() -> None:
    frames = b"".join(
        [
            eventstream.event("messageStart", b'{"role": "assistant"}'),
            eventstream.event(
                "contentBlockDelta",
                orjson.dumps({"contentBlockIndex": 0, "delta": {"text": "Selam "}}),
            ),
            eventstream.event("messageStop", b'{"stopReason": "end_turn"}'),
            eventstream.event(
                "metadata",
                orjson.dumps(
                    {
                        "usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
                        "metrics": {"latencyMs": 3},
                    }
                ),
            ),
        ]
    )
    events = list(_converse_stream(frames))
    assert events == [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Selam "}}},
        {"messageStop": {"stopReason": "end_turn"}},
        {
            "metadata": {
                "usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
                "metrics": {"latencyMs": 3},
            }
        },
    ]


def test_exception_frame_raises_the_modelled_error() -> None:
    frames = eventstream.event("messageStart", b'{"role": "assistant"}') + eventstream.exception(
        "throttlingException", b'{"message": "slow down"}'
    )
    stream = iter(_converse_stream(frames))
    assert next(stream) == {"messageStart": {"role": "assistant"}}
    with pytest.raises(EventStreamError) as err:
        next(stream)
    assert err.value.response["Error"]["Code"] == "throttlingException"


def test_header_limits_are_enforced() -> None:
    with pytest.raises(ValueError):
        eventstream.encode_headers({"x" * 256: "v"})
