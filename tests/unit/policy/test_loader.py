"""Loader: every problem with path + line; shipped policies validate; schema.json in sync."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.policy.loader import PolicyError, json_schema, load_file, load_text

ROOT = Path(__file__).resolve().parents[3]
POLICIES = sorted((ROOT / "policies").glob("*.yaml"))

BAD = """version: 1
backends:
  local:
    kind: local
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: http://x
    model: m
    colour: blue
    transfer:
      mechanism: none
      classes: [public, special]
aliases:
  chat:
    backends: [local, ghost]
rules:
  - name: special-out
    match: {data_classes: [special]}
    allow_backends: [cloud]
"""


def test_every_shipped_policy_validates() -> None:
    assert len(POLICIES) >= 5
    for path in POLICIES:
        compiled = load_file(path)
        assert compiled.policy.aliases, path


def test_schema_json_matches_the_models() -> None:
    on_disk = json.loads((ROOT / "policies" / "schema.json").read_text(encoding="utf-8"))
    assert on_disk == json_schema(), "run: gateway policy schema -o policies/schema.json"


def test_unknown_key_is_reported_with_path_and_line() -> None:
    with pytest.raises(PolicyError) as err:
        load_text(BAD)
    found = {(p.path, p.line, p.message) for p in err.value.problems}
    assert ("backends.cloud.colour", 10, "unknown key") in found


def test_semantic_problems_all_at_once_with_lines() -> None:
    text = BAD.replace("    colour: blue\n", "")
    with pytest.raises(PolicyError) as err:
        load_text(text)
    problems = [(p.path, p.line, p.message) for p in err.value.problems]
    assert ("aliases.chat.backends[1]", 15, "unknown backend 'ghost'") in problems
    transfer = [(ln, m) for path, ln, m in problems if path == "backends.cloud.transfer.classes"]
    assert len(transfer) == 2 and all(ln == 12 for ln, _ in transfer)
    assert any("special" in m for _, m in transfer)
    rule = [(ln, m) for path, ln, m in problems if path == "rules[0].allow_backends[0]"]
    assert rule and rule[0][0] == 19 and "cloud backend 'cloud'" in rule[0][1]


def test_alias_unreachable_for_a_class_must_be_blocked_explicitly() -> None:
    text = """version: 1
backends:
  c: {kind: openai_compat, zone: cloud, base_url: "http://x", model: m}
aliases:
  chat: {backends: [c]}
"""
    with pytest.raises(PolicyError) as err:
        load_text(text)
    msgs = [p.message for p in err.value.problems]
    assert any("'personal'" in m for m in msgs) and any("'special'" in m for m in msgs)
    ok = (
        text
        + """rules:
  - name: refuse-personal
    match: {data_classes: [personal, special]}
    action: block
    message: personal data needs an on-prem model
"""
    )
    assert load_text(ok).policy.rules[0].action == "block"


def test_negative_price_and_bad_yaml_are_refused() -> None:
    text = """version: 1
backends:
  c: {kind: local, price: {input_per_mtok: "-1", output_per_mtok: "1"}}
aliases: {chat: {backends: [c]}}
"""
    with pytest.raises(PolicyError) as err:
        load_text(text)
    assert err.value.problems[0].path == "backends.c.price.input_per_mtok"
    assert err.value.problems[0].line == 3
    with pytest.raises(PolicyError) as err2:
        load_text("version: 1\nbackends: [\n")
    assert err2.value.problems[0].line is not None
