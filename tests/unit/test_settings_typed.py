"""Every setting is typed, read from its GECIT_ variable and set by a `gateway serve` flag, and
listed in README's Settings table; the background cadences tests turn off are among them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from gateway.cli import build_parser
from gateway.settings import Settings

CADENCES = {
    "probe_interval_s": 10.0,
    "policy_watch_s": 2.0,
    "policy_sync_s": 1.0,
    "budget_sweep_s": 60.0,
    "budget_hold_stale_s": 3600.0,
}
README = Path(__file__).resolve().parents[2] / "README.md"


def test_settings_have_no_untyped_bag() -> None:
    names = {f.name for f in dataclasses.fields(Settings)}
    assert "extra" not in names
    assert set(CADENCES) <= names
    assert {n: getattr(Settings(), n) for n in CADENCES} == CADENCES


@pytest.mark.parametrize("name", sorted(CADENCES))
def test_a_cadence_comes_from_its_variable_and_its_flag(name: str) -> None:
    assert getattr(Settings.from_env(env={f"GECIT_{name.upper()}": "0.5"}), name) == 0.5
    with pytest.raises(ValueError, match=f"GECIT_{name.upper()}"):
        Settings.from_env(env={f"GECIT_{name.upper()}": "often"})
    flag = "--" + name.replace("_", "-")
    args = build_parser("serve").parse_args(["serve", flag, "0"])
    assert getattr(args, name) == 0.0
    # the flag wins over the variable
    settings = Settings.from_env(env={f"GECIT_{name.upper()}": "7"}, **{name: args.__dict__[name]})
    assert getattr(settings, name) == 0.0


def test_every_cadence_is_in_the_readme_settings_table() -> None:
    table = README.read_text(encoding="utf-8").split("## Settings", 1)[1].split("\n## ", 1)[0]
    for name in CADENCES:
        assert f"`--{name.replace('_', '-')}`" in table, name
        assert f"`GECIT_{name.upper()}`" in table, name
