"""Inline SVG charts drawn on the server: no JavaScript, no CDN, works offline.

Every data mark carries `class="mark"` plus `data-series`, `data-label` and `data-value`, so a
test (or a curious admin) can read the drawn figures back from the DOM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

PALETTE = (
    "#2563eb",
    "#16a34a",
    "#f59e0b",
    "#dc2626",
    "#7c3aed",
    "#0891b2",
    "#db2777",
    "#65a30d",
    "#ea580c",
    "#475569",
)
W, H = 640, 260
PAD_L, PAD_R, PAD_T, PAD_B = 70, 150, 14, 46


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _a(v: object) -> str:
    return escape(str(v), quote=True)


def _empty(title: str) -> str:
    return (
        f'<svg class="chart empty" role="img" aria-label="{_a(title)}" viewBox="0 0 {W} 60"'
        f' width="{W}" height="60"><text x="10" y="35" class="empty">no data in this '
        "range</text></svg>"
    )


def _legend(series: Sequence[str]) -> list[str]:
    out = []
    for i, s in enumerate(series[:12]):
        y = PAD_T + 14 * i
        out.append(
            f'<rect x="{W - PAD_R + 12}" y="{y}" width="10" height="10" '
            f'fill="{color(i)}"/><text x="{W - PAD_R + 26}" y="{y + 9}" '
            f'class="legend">{escape(s)}</text>'
        )
    return out


def _axis(top: float, unit: str) -> list[str]:
    base = H - PAD_B
    out = [f'<line x1="{PAD_L}" y1="{base}" x2="{W - PAD_R}" y2="{base}" class="axis"/>']
    for k in range(5):
        v = top * k / 4
        y = base - (base - PAD_T) * k / 4
        out.append(
            f'<text x="{PAD_L - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
            f"{escape(_fmt(v, unit))}</text>"
        )
    return out


def _fmt(v: float, unit: str) -> str:
    if unit == "$":
        return f"${v:,.2f}" if v < 100 else f"${v:,.0f}"
    if unit == "%":
        return f"{v:.0f}%"
    return f"{v:,.0f}{unit}"


def stacked_columns(
    title: str, labels: Sequence[str], series: Mapping[str, Sequence[float]], unit: str = "$"
) -> str:
    """One column per label (e.g. a day), stacked by series (e.g. a backend)."""
    totals = [sum(vals[i] for vals in series.values()) for i in range(len(labels))]
    if not labels or max(totals, default=0) <= 0:
        return _empty(title)
    top = max(totals)
    base, plot_h = H - PAD_B, H - PAD_B - PAD_T
    step = (W - PAD_L - PAD_R) / len(labels)
    bw = max(step * 0.7, 1.0)
    parts = _axis(top, unit)
    for i, label in enumerate(labels):
        x = PAD_L + i * step + (step - bw) / 2
        y = float(base)
        for j, (name, vals) in enumerate(series.items()):
            h = plot_h * vals[i] / top
            if vals[i] > 0:
                y -= h
                parts.append(
                    f'<rect class="mark" x="{x:.1f}" y="{y:.1f}" width="{bw:.1f}" '
                    f'height="{h:.1f}" fill="{color(j)}" data-series="{_a(name)}" '
                    f'data-label="{_a(label)}" data-value="{vals[i]:.6f}">'
                    f"<title>{escape(f'{label} {name}: {_fmt(vals[i], unit)}')}"
                    "</title></rect>"
                )
        if len(labels) <= 16 or i % max(len(labels) // 8, 1) == 0:
            parts.append(
                f'<text x="{x + bw / 2:.1f}" y="{base + 14}" text-anchor="middle" '
                f'class="tick">{escape(label[-5:])}</text>'
            )
    parts += _legend(list(series))
    return _svg(title, parts)


def horizontal_bars(title: str, items: Sequence[tuple[str, float]], unit: str = "$") -> str:
    """One bar per item, longest first as given."""
    items = [(k, v) for k, v in items if v > 0]
    if not items:
        return _empty(title)
    top = max(v for _, v in items)
    row = 24
    height = PAD_T + row * len(items) + 10
    left, width = 150, W - 150 - 90
    parts = []
    for i, (label, v) in enumerate(items):
        y = PAD_T + i * row
        w = max(width * v / top, 1.0)
        parts.append(
            f'<text x="{left - 8}" y="{y + 15}" text-anchor="end" class="tick">'
            f"{escape(label[:22])}</text>"
            f'<rect class="mark" x="{left}" y="{y + 3}" width="{w:.1f}" height="16" '
            f'fill="{color(i)}" data-series="{_a(label)}" data-label="{_a(label)}" '
            f'data-value="{v:.6f}"><title>{escape(f"{label}: {_fmt(v, unit)}")}'
            f'</title></rect><text x="{left + w + 6:.1f}" y="{y + 15}" '
            f'class="value">{escape(_fmt(v, unit))}</text>'
        )
    return _svg(title, parts, height)


def share_bar(title: str, parts_in: Sequence[tuple[str, float]]) -> str:
    """A 100% bar split into shares (values are counts; shares computed here)."""
    parts_in = [(k, v) for k, v in parts_in if v > 0]
    total = sum(v for _, v in parts_in)
    if total <= 0:
        return _empty(title)
    parts, x, width = [], float(PAD_L), W - PAD_L - PAD_R
    for i, (label, v) in enumerate(parts_in):
        w = width * v / total
        pct = 100 * v / total
        parts.append(
            f'<rect class="mark" x="{x:.1f}" y="20" width="{w:.1f}" height="34" '
            f'fill="{color(i)}" data-series="{_a(label)}" data-label="{_a(label)}" '
            f'data-value="{v:.6f}"><title>{escape(f"{label}: {pct:.1f}%")}</title>'
            "</rect>"
        )
        if w > 40:
            parts.append(
                f'<text x="{x + w / 2:.1f}" y="42" text-anchor="middle" '
                f'class="inbar">{pct:.0f}%</text>'
            )
        x += w
    parts += _legend([label for label, _ in parts_in])
    return _svg(title, parts, 80)


def _svg(title: str, parts: list[str], height: int = H) -> str:
    return (
        f'<svg class="chart" role="img" aria-label="{_a(title)}" viewBox="0 0 {W} {height}"'
        f' width="{W}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
        + "".join(parts)
        + "</svg>"
    )
