"""Deterministic ledger rows for the report tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from gateway.usage.tables import RequestRow

ZONES = {"gpu-local": "on_prem", "bedrock-eu": "cloud", "vertex-eu": "cloud"}
START = datetime(2026, 3, 1, 0, 30, tzinfo=UTC)


def make_rows(n: int, prefix: str = "r") -> list[RequestRow]:
    rows = []
    backends = list(ZONES)
    for i in range(n):
        backend = backends[i % 3]
        cloud = ZONES[backend] == "cloud"
        cost = Decimal(i % 7 + 1) / Decimal(1000) if cloud else Decimal("0.0001")
        rows.append(
            RequestRow(
                id=f"{prefix}{i:06d}",
                created_at=START + timedelta(hours=7 * i),
                tenant=("acme", "globex")[i % 2],
                app=("chat", "search", "ocr")[i % 3 - 1],
                alias="default",
                backend=backend,
                model=f"m-{backend}",
                data_class=("public", "personal", "special")[i % 4 % 3],
                status=500 if i % 10 == 0 else 200,
                error_kind="upstream" if i % 10 == 0 else None,
                prompt_tokens=100 + i,
                completion_tokens=50 + i % 13,
                cost=cost,
                currency="USD",
                cost_try=cost * 40,
                ttft_ms=None if i % 10 == 0 else float(40 + (i * 37) % 900),
            )
        )
    return rows
