"""What the soak benchmark (bench/soak.py) counts while it runs, and its one table of figures."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Latency:
    at: float  # seconds since the start
    seconds: float
    phase: str  # "warmup", "quiet", "bad" or "pg" (within the PostgreSQL restart window)
    stream: bool


@dataclass
class Tally:
    normal: list[Latency] = field(default_factory=list)
    normal_errors: int = 0  # transport errors of normal requests (no answer at all)
    # request ids of every answer and refusal that must have its ledger row
    expected: set[str] = field(default_factory=set)
    reset_ids: set[str] = field(default_factory=set)  # streams the client reset (rows too)
    answers: int = 0
    refusals: int = 0
    missing_id: int = 0  # an answer without x-request-id (counted; cannot be matched)
    no_row_by_design: dict[int, int] = field(default_factory=dict)  # 401/429 unauthenticated
    bad_sent: dict[str, int] = field(default_factory=dict)
    status_by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    bad_errors: int = 0
    policy_puts: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> status
    policy_errors: int = 0
    rss: list[tuple[float, float]] = field(default_factory=list)
    pg_down_s: float | None = None  # seconds no new connection succeeded
    pg_restart_at: float | None = None
    ledger_rows: int = 0
    quarantined: str = "?"
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def sent(self, kind: str) -> None:
        with self.lock:
            self.bad_sent[kind] = self.bad_sent.get(kind, 0) + 1

    def count(
        self, kind: str, status: int, rid: str | None, *, row: bool = True, reset: bool = False
    ) -> None:
        """One answer (2xx) or refusal; `row` False for a caller refused before the ledger
        (an unknown key writes no row, by design); `reset` for a stream the client cut."""
        with self.lock:
            self._count(kind, status, rid, row, reset)

    def _count(self, kind: str, status: int, rid: str | None, row: bool, reset: bool) -> None:
        counts = self.status_by_kind.setdefault(kind, {})
        counts[str(status)] = counts.get(str(status), 0) + 1
        if not row:
            self.no_row_by_design[status] = self.no_row_by_design.get(status, 0) + 1
            return
        if reset:
            pass  # counted apart: the client did not take the answer
        elif 200 <= status < 300:
            self.answers += 1
        else:
            self.refusals += 1
        if not rid:
            self.missing_id += 1
        elif reset:
            self.reset_ids.add(rid)
        else:
            self.expected.add(rid)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * len(s)))] * 1000, 1)


def rss_figures(rss: list[tuple[float, float]], warmup_s: float) -> dict[str, Any]:
    """Baseline: the first sample at or after the warm-up; end: the last sample before the
    drain. Growth = end / baseline - 1 (the max is shown beside it)."""
    if not rss:
        return {}
    after = [r for t, r in rss if t >= warmup_s] or [rss[-1][1]]
    return {
        "start": round(rss[0][1], 1),
        "baseline": round(after[0], 1),
        "end": round(after[-1], 1),
        "max": round(max(r for _, r in rss), 1),
        "growth_pct": round((after[-1] / after[0] - 1) * 100, 1),
    }


def figures(t: Tally, ledger_ids: set[str], conf: dict[str, Any]) -> dict[str, Any]:
    by_phase: dict[str, list[float]] = {}
    for lat in t.normal:
        by_phase.setdefault(lat.phase, []).append(lat.seconds)
    lost = sorted((t.expected | t.reset_ids) - ledger_ids)
    quiet, bad = by_phase.get("quiet", []), by_phase.get("bad", [])
    rss = rss_figures(t.rss, conf["warmup_s"])
    p99_q, p99_b = pct(quiet, 0.99), pct(bad, 0.99)
    return {
        **conf,
        "rss_mb": rss,
        "rows": {
            "answers": t.answers,
            "refusals": t.refusals,
            "client_resets": len(t.reset_ids),
            "expected": len(t.expected | t.reset_ids),
            "in_ledger": len((t.expected | t.reset_ids) & ledger_ids),
            "lost": len(lost),
            "lost_sample": lost[:5],
            "ledger_rows_total": t.ledger_rows,
            "answers_without_request_id": t.missing_id,
            "quarantined": t.quarantined,
            "no_row_by_design_unauthenticated": t.no_row_by_design,
        },
        "normal_ms": {
            phase: {"n": len(v), "p50": pct(v, 0.5), "p99": pct(v, 0.99)}
            for phase, v in sorted(by_phase.items())
        },
        "normal_transport_errors": t.normal_errors,
        "bad_sent": t.bad_sent,
        "status_by_kind": t.status_by_kind,
        "bad_transport_errors": t.bad_errors,
        "policy_puts": t.policy_puts,
        "policy_put_transport_errors": t.policy_errors,
        "pg_restart_at_s": t.pg_restart_at,
        "pg_down_s": t.pg_down_s,
        "acceptance": {
            "rss_growth_le_10pct": bool(rss) and rss["growth_pct"] <= 10.0,
            "zero_rows_lost": not lost and t.missing_id == 0,
            "p99_bad_within_20pct_of_quiet": p99_q is not None
            and p99_b is not None
            and p99_b <= 1.2 * p99_q,
        },
    }


def table(f: dict[str, Any]) -> str:
    """The figures as one two-column table (the JSON file holds the same, nested)."""
    rows: list[tuple[str, str]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value and prefix not in ("lost_sample",):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            rows.append((prefix, str(value)))

    walk("", f)
    width = max(len(k) for k, _ in rows)
    line = "-" * (width + 2) + "+" + "-" * 40
    out = [line, f"{'figure':<{width}}  | value", line]
    out += [f"{k:<{width}}  | {v}" for k, v in rows]
    out.append(line)
    return "\n".join(out)
