"""Encoder for the AWS event-stream binary framing (`application/vnd.amazon.eventstream`).

One message is:

    prelude   total length (uint32 BE) | headers length (uint32 BE) | CRC32 of those 8 bytes
    headers   repeated: name length (uint8) | name | type (uint8) | value
    payload   raw bytes
    trailer   CRC32 of everything before it (uint32 BE)

Only string-valued headers (type 7: uint16 length + UTF-8 bytes) are needed by the emulators.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping

_STRING_TYPE = 7
_PRELUDE = struct.Struct(">II")
_UINT32 = struct.Struct(">I")


def crc32(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def encode_headers(headers: Mapping[str, str]) -> bytes:
    out = bytearray()
    for name, value in headers.items():
        raw_name = name.encode("utf-8")
        raw_value = value.encode("utf-8")
        if len(raw_name) > 255 or len(raw_value) > 0xFFFF:
            raise ValueError("event-stream header too long")
        out += bytes([len(raw_name)]) + raw_name
        out += bytes([_STRING_TYPE]) + struct.pack(">H", len(raw_value)) + raw_value
    return bytes(out)


def encode_message(
    headers: Mapping[str, str], payload: bytes, *, corrupt_crc: bool = False
) -> bytes:
    """One framed message. `corrupt_crc` flips the message CRC (to emulate a broken frame)."""
    raw_headers = encode_headers(headers)
    total = _PRELUDE.size + 4 + len(raw_headers) + len(payload) + 4
    prelude = _PRELUDE.pack(total, len(raw_headers))
    head = prelude + _UINT32.pack(crc32(prelude))
    body = head + raw_headers + payload
    checksum = crc32(body) ^ (0xFFFFFFFF if corrupt_crc else 0)
    return body + _UINT32.pack(checksum)


def event(event_type: str, payload: bytes, *, corrupt_crc: bool = False) -> bytes:
    """An `event` message with a JSON payload, as Bedrock's ConverseStream sends it."""
    return encode_message(
        {":event-type": event_type, ":content-type": "application/json", ":message-type": "event"},
        payload,
        corrupt_crc=corrupt_crc,
    )


def exception(exception_type: str, payload: bytes) -> bytes:
    """An `exception` message (a modelled error sent inside an open stream)."""
    return encode_message(
        {
            ":exception-type": exception_type,
            ":content-type": "application/json",
            ":message-type": "exception",
        },
        payload,
    )
