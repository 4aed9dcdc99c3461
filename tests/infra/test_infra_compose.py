"""The on-prem compose stack: schema-valid (compose-spec), the intended shape, no secrets."""

from __future__ import annotations

import json
import re
from pathlib import Path

import infra_rules as r
import pytest
import yaml
from compose_spec import PyCompose

COMPOSE = r.INFRA / "compose.yaml"
TEST_ENV = r.INFRA / "checks" / "compose.env"
_VAR = re.compile(r"\$\$|\$\{([A-Za-z_]\w*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_]\w*)")


class MissingVariable(Exception):
    pass


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's interpolation: $$, ${V}, ${V:-d}, ${V-d}, ${V:?msg}, ${V?msg}, $V."""

    def sub(m: re.Match[str]) -> str:
        if m.group(0) == "$$":
            return "$"
        name = m.group(1) or m.group(4)
        op, arg = m.group(2), m.group(3)
        value = env.get(name)
        unset_or_empty = value is None or (op is not None and op.startswith(":") and value == "")
        if op in (":-", "-") and unset_or_empty:
            return arg
        if op in (":?", "?") and unset_or_empty:
            raise MissingVariable(f"{name}: {arg}")
        return value or ""

    return _VAR.sub(sub, text)


def interpolate_tree(node, env: dict[str, str]):
    """Like compose: parse YAML first (comments are not interpolated), then each string."""
    if isinstance(node, dict):
        return {k: interpolate_tree(v, env) for k, v in node.items()}
    if isinstance(node, list):
        return [interpolate_tree(v, env) for v in node]
    return interpolate(node, env) if isinstance(node, str) else node


def load_compose(env: dict[str, str]) -> dict:
    return interpolate_tree(yaml.safe_load(COMPOSE.read_text()), env)


def read_env(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            k, _, v = line.partition("=")
            env[k.strip()] = v.strip()
    return env


@pytest.fixture(scope="module")
def compose() -> dict:
    return load_compose(read_env(TEST_ENV))


def test_compose_spec_schema_accepts_the_file(compose: dict) -> None:
    parsed = PyCompose.from_json(json.dumps(compose))
    assert set(parsed.service_names()) == set(compose["services"])


def test_compose_spec_schema_rejects_a_broken_copy(compose: dict) -> None:
    broken = json.loads(json.dumps(compose))
    broken["services"]["proxy"]["portz"] = broken["services"]["proxy"].pop("ports")
    with pytest.raises(ValueError):
        PyCompose.from_json(json.dumps(broken))


def test_every_password_is_required_from_the_environment() -> None:
    env = read_env(TEST_ENV)
    for name in (
        "POSTGRES_PASSWORD",
        "REDIS_PASSWORD",
        "GECIT_ADMIN_KEY",
        "GECIT_METRICS_KEY",
        "GRAFANA_ADMIN_PASSWORD",
    ):
        partial = {k: v for k, v in env.items() if k != name}
        with pytest.raises(MissingVariable, match=name):
            load_compose(partial)


def test_two_gateway_replicas_behind_the_proxy(compose: dict) -> None:
    services = compose["services"]
    gateways = sorted(n for n in services if n.startswith("gateway-"))
    assert len(gateways) == 2
    conf = (r.INFRA / "compose" / "nginx.conf").read_text()
    upstream = re.search(r"upstream gecit_gateway \{(.*?)\}", conf, re.S).group(1)
    assert sorted(re.findall(r"server (gateway-\w+):8080", upstream)) == gateways
    assert "proxy_buffering off" in conf  # SSE passes through
    assert "non_idempotent" not in conf  # a POST is never replayed on the other replica
    for g in gateways:
        svc = services[g]
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert svc["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "/readyz" in " ".join(svc["healthcheck"]["test"])
        assert svc["read_only"] is True and svc["cap_drop"] == ["ALL"]
        env = svc["environment"]
        assert env["GECIT_DATABASE_URL"].startswith("postgresql+psycopg://")
        assert env["GECIT_REDIS_URL"].startswith("redis://")
        assert "ports" not in svc
        assert services["proxy"]["depends_on"][g]["condition"] == "service_healthy"


def test_only_the_proxy_listens_beyond_loopback(compose: dict) -> None:
    for name, svc in compose["services"].items():
        for port in svc.get("ports", []):
            if name != "proxy":
                assert str(port).startswith("127.0.0.1:"), (name, port)
    for name in ("postgres", "redis", "ollama", "vllm"):
        assert "ports" not in compose["services"][name]
    assert compose["networks"]["backend"]["internal"] is True
    assert set(compose["services"]["postgres"]["networks"]) == {"backend"}


def test_inference_services(compose: dict) -> None:
    services = compose["services"]
    assert "ollama" in services and "profiles" not in services["ollama"]
    vllm = services["vllm"]
    assert vllm["profiles"] == ["gpu"]
    devices = vllm["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["driver"] == "nvidia" and "gpu" in devices[0]["capabilities"]


def test_vllm_serves_tool_calls(compose: dict) -> None:
    """Without auto tool choice and a parser, vLLM refuses every request that offers tools."""
    command = compose["services"]["vllm"]["command"]
    assert "--enable-auto-tool-choice" in command
    parser = command[command.index("--tool-call-parser") + 1]
    model = command[command.index("--model") + 1]
    assert (parser, model) == ("hermes", "Qwen/Qwen2.5-7B-Instruct")  # Qwen2.5 speaks hermes


def test_every_depends_on_target_exists_and_long_running_services_have_healthchecks(
    compose: dict,
) -> None:
    services = compose["services"]
    for name, svc in services.items():
        assert "healthcheck" in svc, name
        for dep in svc.get("depends_on", {}):
            assert dep in services, (name, dep)


def test_prometheus_scrapes_every_replica(compose: dict) -> None:
    prom = yaml.safe_load((r.INFRA / "compose" / "prometheus.yml").read_text())
    job = next(j for j in prom["scrape_configs"] if j["job_name"] == "gecit-gateway")
    assert job["metrics_path"] == "/metrics"
    # the replicas require keys, so /metrics does: scraped with the metrics key's secret
    prom_svc = compose["services"]["prometheus"]
    key_file = job["authorization"]["credentials_file"]
    # the service writes that file from its own GECIT_METRICS_KEY, into a tmpfs, then starts
    assert "GECIT_METRICS_KEY" in prom_svc["environment"]
    assert f"> {key_file}" in " ".join(prom_svc["command"])
    assert any(t.startswith(key_file.rsplit("/", 1)[0]) for t in prom_svc["tmpfs"])
    assert all(
        "GECIT_METRICS_KEY" in compose["services"][t.split(":")[0]]["environment"]
        for t in {t for sc in job["static_configs"] for t in sc["targets"]}
    )
    targets = {t for sc in job["static_configs"] for t in sc["targets"]}
    assert targets == {f"{n}:8080" for n in compose["services"] if n.startswith("gateway-")}
    prom_nets = set(compose["services"]["prometheus"]["networks"])
    for n in targets:
        assert prom_nets & set(compose["services"][n.split(":")[0]]["networks"])


def test_grafana_dashboard() -> None:
    dash = json.loads((r.INFRA / "grafana" / "dashboards" / "gecit-gateway.json").read_text())
    ds = yaml.safe_load(
        (r.INFRA / "grafana" / "provisioning" / "datasources" / "prometheus.yaml").read_text()
    )
    uid = ds["datasources"][0]["uid"]
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids)) >= 8
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    assert all(p["datasource"]["uid"] == uid for p in dash["panels"])
    assert all(e.count("(") == e.count(")") for e in exprs)
    metrics = {m for e in exprs for m in re.findall(r"\b(gecit_\w+)", e)}
    assert {
        "gecit_requests_total",
        "gecit_request_latency_seconds_bucket",
        "gecit_ttft_seconds_bucket",
        "gecit_cost_usd_total",
    } <= metrics


def test_compose_policy_is_valid_for_the_gateway() -> None:
    schema = pytest.importorskip("gateway.policy.schema")
    policy = yaml.safe_load((r.INFRA / "compose" / "policy" / "policy.yaml").read_text())
    schema.Policy.model_validate(policy)
