"""The contract between `GET /metrics`, the Grafana dashboard and docs/deployment.md.

A real app (two OpenAI-compatible emulators, a SQLite ledger) serves a plain request, a request
the policy blocks, a request served by `local` after `cloud` failed, and is sent an invalid
policy; then `/metrics` is scraped. Every metric named in the dashboard's `expr` fields must be
in the scrape with every label the expression groups by or matches on, and the docs table must
name exactly the series and labels the gateway exports: the three cannot drift apart again.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.emulators.vllm import build_app as vllm_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "infra" / "grafana" / "dashboards" / "gecit-gateway.json"
DOCS = ROOT / "docs" / "deployment.md"
ADMIN = "admin-secret-for-tests"
# PromQL words that are not metric names; a new function in the dashboard goes here
PROMQL = frozenset(
    {
        "sum",
        "max",
        "min",
        "avg",
        "count",
        "by",
        "without",
        "rate",
        "irate",
        "increase",
        "histogram_quantile",
        "clamp_min",
        "clamp_max",
        "on",
        "ignoring",
        "group_left",
        "group_right",
        "and",
        "or",
        "unless",
        "offset",
    }
)
FROM_PROMETHEUS = frozenset({"up"})  # series Prometheus makes itself for every scrape
ADDED_BY_PROMETHEUS = frozenset({"job", "instance"})  # target labels


def policy_yaml(cloud: str, local: str, gpu: str) -> str:
    return f"""
version: 1
backends:
  cloud: {{kind: openai_compat, zone: cloud, base_url: "{cloud}", model: m,
          price: {{input_per_mtok: "1", output_per_mtok: "2"}}}}
  local: {{kind: openai_compat, zone: on_prem, base_url: "{local}", model: m}}
  gpus:  # an on-prem pool of one simulated vLLM node: the gecit_fleet_* series
    kind: openai_compat
    zone: on_prem
    base_url: "{gpu}/v1"
    model: m
    hourly_cost_usd: "2.00"
    endpoints: [{{name: n1, base_url: "{gpu}/v1", engine: vllm}}]
    fleet: {{scrape_interval_s: 0.1}}
aliases:
  chat: {{backends: [cloud, local]}}
  forbidden: {{backends: [cloud]}}
  fleet: {{backends: [gpus]}}
defaults: {{objective: ordered}}
rules:
  - name: no-forbidden
    match: {{aliases: [forbidden]}}
    action: block
billing:
  tenant_budgets:  # a tenant this test never sends as: only for gecit_budget_remaining
    acme: {{amount: "10", currency: USD}}
"""


@pytest.fixture(scope="module")
def scrape(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("metrics-contract")
    with (
        EmulatorServer(openai_app) as cloud,
        EmulatorServer(openai_app) as local,
        EmulatorServer(vllm_app) as gpu,
    ):
        settings = Settings(
            database_url=f"sqlite:///{tmp / 'ledger.db'}",
            local_engine=False,
            admin_key=ADMIN,
            journal_path=str(tmp / "journal"),
            probe_interval_s=0,
            policy_sync_s=0,
        )
        app = create_app(
            settings, seams=Seams(), policy=load_text(policy_yaml(cloud.url, local.url, gpu.url))
        )
        with TestClient(app) as client:
            yield _traffic(client, cloud)


def _ask(client: TestClient, model: str) -> Any:
    return client.post(
        "/v1/chat/completions",
        json={"model": model, "messages": [{"role": "user", "content": "Bugün hava nasıl?"}]},
    )


def _traffic(client: TestClient, cloud: EmulatorServer) -> str:
    assert _ask(client, "chat").headers["x-gecit-backend"] == "cloud"
    blocked = _ask(client, "forbidden")
    assert blocked.status_code == 403, blocked.text
    assert blocked.json()["error"]["code"] == "blocked_by_policy"
    cloud.state.mode = Mode(kind="status", status=500)
    fell_back = _ask(client, "chat")
    cloud.state.mode = Mode()
    assert fell_back.status_code == 200, fell_back.text
    assert fell_back.headers["x-gecit-backend"] == "local"
    bad = client.put(
        "/admin/policy",
        headers={"authorization": f"Bearer {ADMIN}"},
        content="version: 1\nbackends: 3\n",
    )
    assert bad.status_code == 422, bad.text
    assert _ask(client, "fleet").headers["x-gecit-node"] == "n1"
    deadline = time.monotonic() + 10
    body: str = client.get("/metrics").text
    while "gecit_fleet_node_kv_usage{" not in body and time.monotonic() < deadline:
        time.sleep(0.1)  # the node's own figures arrive with the pool's next scrape
        body = client.get("/metrics").text
    return body


def _samples(body: str) -> dict[str, list[dict[str, str]]]:
    """Sample name (with its _total / _bucket / _sum suffix) -> the label sets scraped."""
    out: dict[str, list[dict[str, str]]] = {}
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            out.setdefault(s.name, []).append(dict(s.labels))
    return out


def _value(body: str, name: str, **labels: str) -> float | None:
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return None


def _expr_parts(expr: str) -> tuple[set[str], set[str]]:
    """(metric names, label names) an expression uses: the labels of `by (...)` /
    `without (...)` groupings and of `{...}` matchers."""
    rest = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string values are not names
    rest = re.sub(r"\[[^\]]*\]", "", rest)  # range selectors ($__rate_interval)
    labels: set[str] = set()
    for group in re.findall(r"\b(?:by|without)\s*\(([^)]*)\)", rest):
        labels |= {x.strip() for x in group.split(",") if x.strip()}
    rest = re.sub(r"\b(?:by|without)\s*\([^)]*\)", "", rest)
    for matchers in re.findall(r"\{([^}]*)\}", rest):
        labels |= set(re.findall(r"([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)", matchers))
    rest = re.sub(r"\{[^}]*\}", "", rest)
    names = set(re.findall(r"(?<![\w.])([a-zA-Z_:][\w:]*)", rest)) - PROMQL
    return names, labels


def _dashboard_exprs() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    return [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]


def test_the_parser_finds_names_and_labels() -> None:
    names, labels = _expr_parts(
        'histogram_quantile(0.95, sum by (le, backend) (rate(x_bucket{job="g",status=~"5.."}'
        '[$__rate_interval]))) / clamp_min(y_total{job="g"}, 1e-9) / 1e6'
    )
    assert names == {"x_bucket", "y_total"}
    assert labels == {"le", "backend", "job", "status"}


def test_every_dashboard_series_is_exported_with_the_labels_it_uses(scrape: str) -> None:
    samples = _samples(scrape)
    exprs = _dashboard_exprs()
    assert exprs
    problems = []
    for expr in exprs:
        names, labels = _expr_parts(expr)
        assert names, expr
        for name in names - FROM_PROMETHEUS:
            if name not in samples:
                problems.append(f"{name}: not in the scrape ({expr})")
                continue
            have = set().union(*(set(ls) for ls in samples[name]))
            missing = labels - ADDED_BY_PROMETHEUS - have
            if missing:
                problems.append(f"{name}: no label {sorted(missing)} ({expr})")
    assert not problems, "\n".join(problems)


def test_the_traffic_moved_the_new_series(scrape: str) -> None:
    assert _value(scrape, "gecit_blocked_total", reason="rule:no-forbidden") == 1.0
    assert _value(scrape, "gecit_fallbacks_total", from_backend="cloud", to_backend="local") == 1.0
    assert _value(scrape, "gecit_policy_reloads_total", result="rejected") == 1.0
    assert _value(scrape, "gecit_policy_reloads_total", result="accepted") == 0.0
    assert _value(scrape, "gecit_backend_up", backend="local") == 1.0
    node = {"backend": "gpus", "node": "n1"}
    assert _value(scrape, "gecit_fleet_node_output_tokens_total", **node) == 128.0
    assert _value(scrape, "gecit_fleet_node_hourly_cost_usd", **node) == 2.0
    assert (_value(scrape, "gecit_fleet_node_busy_seconds_total", **node) or 0) > 0
    assert _value(scrape, "gecit_fleet_node_in_flight", **node) == 0.0
    assert _value(scrape, "gecit_fleet_queue_waiting", backend="gpus", data_class="special") == 0
    assert _value(scrape, "gecit_backend_up", backend="cloud") == 1.0  # one failure: closed
    assert (
        _value(scrape, "gecit_requests_total", backend="none", data_class="public", status="403")
        == 1.0
    )
    assert (
        _value(scrape, "gecit_request_latency_seconds_count", backend="cloud", data_class="public")
        == 1.0
    )
    rss = _value(scrape, "process_resident_memory_bytes")
    assert rss is not None and rss > 0


def _docs_table() -> dict[str, set[str]]:
    text = DOCS.read_text()
    section = text[text.index("## Metrics the dashboard expects") :]
    section = section[: section.index("\n## ", 1)]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        name = re.findall(r"`([^`]+)`", cells[0])[0]
        labels = re.sub(r"\([^)]*\)", "", cells[2])  # drop the explained values
        rows[name] = set(re.findall(r"`([^`]+)`", labels))
    return rows


def test_the_docs_table_is_what_the_gateway_exports(scrape: str) -> None:
    samples = _samples(scrape)
    table = _docs_table()
    exported = {n for n in samples if n.startswith("gecit_")}
    for name, labels in table.items():
        scraped = [
            n for n in samples if n in (name, f"{name}_bucket", f"{name}_sum", f"{name}_count")
        ]
        assert scraped, f"{name} is in the docs table but not in the scrape"
        have = set().union(*(set(ls) for n in scraped for ls in samples[n])) - {"le"}
        assert have == labels, (name, have, labels)
        exported -= {name, f"{name}_bucket", f"{name}_sum", f"{name}_count"}
    assert not exported, f"exported but not in the docs table: {sorted(exported)}"
    for expr in _dashboard_exprs():  # and the dashboard reads only documented series
        for name in _expr_parts(expr)[0] - FROM_PROMETHEUS:
            base = re.sub(r"_(bucket|sum|count)$", "", name)
            assert name in table or base in table, f"{name} (dashboard) is not documented"
