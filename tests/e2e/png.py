"""Reading a browser's PNG screenshot without an imaging library: its pixels, and whether it
shows anything (a blank page is one colour; a page with text and charts varies)."""

from __future__ import annotations

import struct
import zlib


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit non-interlaced RGB/RGBA PNG into (width, bytes per pixel, rows)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, bpp = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(f, line, prev, bpp)
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def luminance_variance(data: bytes, step: int = 4) -> float:
    """The variance of the grey level over every `step`-th pixel of every `step`-th row."""
    width, bpp, rows = png_pixels(data)
    values = [
        0.299 * row[i] + 0.587 * row[i + 1] + 0.114 * row[i + 2]
        for row in rows[::step]
        for i in range(0, width * bpp, step * bpp)
    ]
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def _unfilter(f: int, line: bytearray, prev: bytearray, bpp: int) -> None:
    if f == 0:
        return
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 0xFF
        elif f == 2:
            line[i] = (line[i] + prev[i]) & 0xFF
        elif f == 3:
            line[i] = (line[i] + (a + prev[i]) // 2) & 0xFF
        else:
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + _paeth(a, prev[i], c)) & 0xFF
