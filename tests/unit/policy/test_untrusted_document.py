"""The policy is an untrusted document: YAML bombs, deep nesting, binary files and duplicate
keys are listed problems with their lines (never a hang, a traceback or a silent choice);
credential variables and destinations a backend names are checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gateway.policy.loader import PolicyError, PolicyLimits, load_file, load_text
from gateway.policy.yamlsafe import YamlLimits

VALID = """version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://10.0.0.5:8000/v1", model: m}
aliases:
  chat: {backends: [gpu]}
"""


def _problems(text: str, limits: PolicyLimits = PolicyLimits()) -> list[tuple[int | None, str]]:
    with pytest.raises(PolicyError) as err:
        load_text(text, limits=limits)
    return [(p.line, p.message) for p in err.value.problems]


def _bomb(levels: int = 7) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels + 1):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_the_yaml_bomb_is_refused_at_its_first_anchor() -> None:
    text = _bomb()
    assert len(text) < 600
    problems = _problems(text)
    assert problems == [(1, "YAML anchors (&name) are not allowed in a policy")]


def test_an_alias_in_an_otherwise_valid_policy_is_refused_with_its_line() -> None:
    text = VALID.replace("  gpu: {kind", "  gpu: &g {kind") + "  other: {backends: [gpu]}\n"
    assert _problems(text) == [(3, "YAML anchors (&name) are not allowed in a policy")]
    aliased = VALID + "rules:\n  - name: r\n    match: *x\n"
    assert _problems(aliased)[0][1].startswith("YAML aliases")


def test_a_5000_deep_file_is_a_problem_with_its_line_not_a_traceback() -> None:
    text = "version: 1\nbackends: " + "[" * 5000 + "]" * 5000 + "\n"
    problems = _problems(text)
    assert problems == [(2, "the policy nests deeper than 64 levels")]
    block = "version: 1\nx:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 500))
    assert _problems(block)[0][1] == "the policy nests deeper than 64 levels"


def test_a_binary_file_is_a_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_bytes(b"version: 1\nbackends:\n  x: \xff\xfe\x00\x01\n")
    with pytest.raises(PolicyError) as err:
        load_file(path)
    assert [(p.line, p.message) for p in err.value.problems] == [
        (3, "not UTF-8 text (a binary file?)")
    ]
    nul = _problems("version: 1\nbackends: {}\naliases:\n  a\x00b: 1\n")
    assert nul[0][0] == 4 and "not valid YAML" in nul[0][1]


def test_duplicate_keys_are_refused_with_both_lines() -> None:
    text = VALID + "aliases:\n  chat: {backends: [gpu]}\n"
    assert _problems(text) == [(6, "duplicate key 'aliases' (first on line 4)")]
    inner = VALID.replace("model: m}", "model: m, model: n}")
    assert _problems(inner) == [(3, "duplicate key 'model' (first on line 3)")]


def test_size_and_node_limits_are_settings() -> None:
    big = VALID + "# " + "x" * 2000 + "\n"
    assert (
        "larger than 1000 bytes" in _problems(big, PolicyLimits(YamlLimits(max_bytes=1000)))[0][1]
    )
    many = VALID + "rules: [" + ",".join(f"{{name: r{i}}}" for i in range(200)) + "]\n"
    msg = _problems(many, PolicyLimits(YamlLimits(max_nodes=100)))[0][1]
    assert msg == "the policy has more than 100 YAML nodes"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gateway", *args], capture_output=True, text=True, timeout=60
    )


def test_policy_check_exits_2_with_one_line_per_problem(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_bomb())
    deep = tmp_path / "deep.yaml"
    deep.write_text("version: 1\nbackends: " + "[" * 5000 + "]" * 5000 + "\n")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    dup = tmp_path / "dup.yaml"
    dup.write_text(VALID + "version: 1\n")
    for path, line in ((bomb, 1), (deep, 2), (binary, 1), (dup, 6)):
        out = _cli("policy", "check", str(path))
        assert out.returncode == 2, (path, out.stderr)
        assert "Traceback" not in out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{path}: <root> (line {line}): "), lines


# ---- credentials and destinations -------------------------------------------------------


def _backend(spec: str) -> str:
    return f"""version: 1
backends:
  gpu: {{kind: openai_compat, zone: on_prem, base_url: "http://10.0.0.5:8000/v1", model: m}}
  other: {spec}
aliases:
  chat: {{backends: [gpu]}}
"""


@pytest.mark.parametrize(
    "var",
    [
        "GECIT_ADMIN_KEY",
        "GECIT_DATABASE_URL",
        "HOME",
        "PATH",
        "AWS_SECRET_ACCESS_KEY",
        "GECIT_CRED_",
        "lower_case",
    ],
)
def test_a_backend_may_not_name_any_variable_as_its_key(var: str) -> None:
    for spec in (
        f'{{kind: openai_compat, zone: cloud, base_url: "https://evil.example", '
        f"model: m, api_key_env: {var}}}",
        f"{{kind: litellm, model: openai/m, api_key_env: {var}}}",
        f"{{kind: replicate, model: a/b, api_token_env: {var}}}",
        f"{{kind: vertex, project: p, model: m, credentials_env: {var}}}",
    ):
        problems = _problems(_backend(spec))
        assert any(
            line == 4
            and (
                "credential variables must start with 'GECIT_CRED_'" in m
                or "not an environment variable name" in m
            )
            for line, m in problems
        ), (spec, problems)


def test_prefixed_and_vendor_standard_names_are_accepted() -> None:
    for var in ("GECIT_CRED_OPENAI", "OPENAI_API_KEY", "REPLICATE_API_TOKEN"):
        load_text(
            _backend(
                f'{{kind: openai_compat, zone: cloud, base_url: "https://api.openai'
                f'.com/v1", model: m, api_key_env: {var}}}'
            )
        )
    custom = PolicyLimits(credential_prefix="ACME_LLM_")
    load_text(
        _backend("{kind: litellm, model: openai/m, api_key_env: ACME_LLM_KEY}"), limits=custom
    )
    # a prefix never opens the gateway's own settings
    bad = PolicyLimits(credential_prefix="GECIT_")
    assert _problems(
        _backend("{kind: litellm, model: openai/m, api_key_env: GECIT_ADMIN_KEY}"), bad
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest",
        "http://[fd00:ec2::254]/",
        "http://metadata.google.internal/",
        "http://2852039166/",
        "http://0xa9fea9fe/",
        "http://[::ffff:169.254.169.254]/",
        "http://[fe80::1]/",
        "file:///etc/passwd",
    ],
)
def test_link_local_and_metadata_destinations_are_refused(url: str) -> None:
    for spec in (
        f'{{kind: openai_compat, zone: on_prem, base_url: "{url}", model: m}}',
        f'{{kind: ollama, host: "{url}", model: m}}',
        f'{{kind: bedrock, model: m, endpoint_url: "{url}"}}',
        f'{{kind: litellm, model: openai/m, api_base: "{url}"}}',
        f'{{kind: vertex, project: p, model: m, base_url: "{url}"}}',
    ):
        problems = _problems(_backend(spec))
        assert any(
            line == 4 and ("metadata" in m or "http and https" in m) for line, m in problems
        ), (spec, problems)


@pytest.mark.parametrize(
    "spec",
    [
        "{kind: bedrock, zone: on_prem, model: anthropic.claude}",
        "{kind: openai_compat, zone: on_prem, model: gpt-4o,"
        ' base_url: "https://api.openai.com/v1"}',
        "{kind: litellm, zone: on_prem, model: gpt-4o}",
        '{kind: litellm, zone: on_prem, model: openai/m, api_base: "https://api.example.com"}',
        "{kind: vertex, zone: on_prem, project: p, model: gemini}",
        "{kind: replicate, zone: on_prem, model: a/b}",
        '{kind: ollama, host: "https://ollama.example.com", model: m}',
    ],
)
def test_a_cloud_service_or_public_host_is_not_on_prem(spec: str) -> None:
    problems = _problems(_backend(spec))
    assert any(line == 4 and "on_prem" in m for line, m in problems), problems
    load_text(_backend(spec.replace("}", ", private_endpoint: true}")))


def test_private_hosts_stay_on_prem_without_a_flag() -> None:
    for host in (
        "http://10.1.0.5:11434",
        "http://127.0.0.1:11434",
        "http://ollama:11434",
        "http://gpu1.corp.internal:11434",
        "http://[fd12::5]:11434",
    ):
        load_text(_backend(f'{{kind: ollama, host: "{host}", model: m}}'))
    load_text(_backend("{kind: litellm, zone: on_prem, model: ollama/llama3}"))


async def test_the_file_watcher_refuses_a_bomb_and_keeps_serving(tmp_path: Path) -> None:
    from gateway.policy.reload import PolicyReloader

    path = tmp_path / "policy.yaml"
    path.write_text(VALID)
    reloader = PolicyReloader(load_file(path), lambda: 0.0, path=path)
    before = reloader.current().sha256
    path.write_text(_bomb())
    assert await reloader.check_file_async() is None
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    assert reloader.check_file() is None
    assert reloader.current().sha256 == before and reloader.rejected == 2
    path.write_text(VALID.replace("model: m", "model: n"))
    assert await reloader.check_file_async() is not None
    assert reloader.current().sha256 != before
