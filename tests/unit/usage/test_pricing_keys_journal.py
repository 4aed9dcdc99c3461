"""Pricing order (policy > catalog > on-prem > unknown), keys, journal replay of torn lines."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from gateway.policy.loader import load_text
from gateway.usage.db import make_engine, migrate
from gateway.usage.journal import Journal, read_segment
from gateway.usage.keys import create_key, get_key, matches, revoke_key, rotate_key, split_key
from gateway.usage.pricing import Pricer, load_catalog, split_kdv
from gateway.usage.sessions import SessionStore

POLICY = """
version: 1
backends:
  priced: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: x,
           price: {input_per_mtok: "0.15", output_per_mtok: "0.60"}}
  catalog: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: gpt-4o-mini}
  mystery: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: no-such}
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: y,
        hourly_cost_usd: "3.6"}
  free: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: z}
aliases:
  a: {backends: [gpu]}
billing: {usd_try: "40", kdv_rate: "0.20"}
"""


def _pricer() -> Pricer:
    compiled = load_text(POLICY)
    return Pricer(lambda: compiled.policy, load_catalog())


def test_policy_price_is_exact_and_converted_to_try() -> None:
    cost = _pricer().price("priced", 1000, 500)
    assert cost.amount == Decimal("0.00045") and cost.source == "policy"
    assert cost.amount_try == Decimal("0.018")
    assert split_kdv(Decimal("0.018"), Decimal("0.20")) == (Decimal("0.0036"), Decimal("0.0216"))


def test_catalog_then_unknown_never_zero() -> None:
    p = _pricer()
    cat = p.price("catalog", 1_000_000, 1_000_000)
    assert cat.source == "catalog" and cat.amount is not None and cat.amount > 0
    assert p.price("mystery", 10, 10).amount is None
    assert p.price("free", 10, 10).amount is None  # on-prem without a declared cost


def test_on_prem_cost_from_hourly_cost_and_measured_speed() -> None:
    p = _pricer()
    assert p.price("gpu", 10, 100).amount is None  # not measured yet
    p.meter.observe("gpu", 100, 1.0)  # 100 tokens/s
    # 3.6 USD/h at 100 tokens/s = 0.00001 USD per output token
    assert p.price("gpu", 10, 100).amount == Decimal("0.001")


def test_keys_hash_only_and_revocation(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    migrate(engine)
    info, key = create_key(engine, "acme", "web", now=1.0)
    parts = split_key(key)
    assert parts is not None and parts[0] == info.id
    stored = get_key(engine, info.id)
    assert stored is not None and key not in stored.secret_hash and matches(stored, parts[1])
    wrong = parts[1][:-1] + ("1" if parts[1][-1] == "0" else "0")  # always differs
    assert not matches(stored, wrong)
    assert revoke_key(engine, info.id, 2.0) and not revoke_key(engine, info.id, 3.0)
    again = get_key(engine, info.id)
    assert again is not None and not again.active
    engine.dispose()


def test_rotate_revokes_the_old_key_and_its_sessions_and_keeps_its_scope(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    migrate(engine)
    old, old_key = create_key(engine, "acme", "web", scope="admin", name="ops", now=1.0)
    sessions = SessionStore(engine, ttl_s=600, per_key=4)
    cookie, _csrf = sessions.create(old.id, old.id, None, 1.0)
    rotated = rotate_key(engine, old.id, 2.0)
    assert rotated is not None
    new, new_key = rotated
    assert new.id != old.id and new_key != old_key
    assert (new.tenant, new.app, new.scope, new.name) == ("acme", "web", "admin", "ops")
    parts = split_key(new_key)
    stored = get_key(engine, new.id)
    assert parts is not None and stored is not None and matches(stored, parts[1])
    gone = get_key(engine, old.id)
    assert gone is not None and not gone.active
    assert sessions.find(cookie, 3.0) is None  # the old key's session ended with it
    assert rotate_key(engine, old.id, 3.0) is None  # a revoked key is not rotated again
    assert rotate_key(engine, "knope", 3.0) is None
    engine.dispose()


def test_journal_keeps_uncommitted_segments_and_skips_a_torn_line(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j")
    assert j.open() == []
    j.append({"id": "a"})
    j.append({"id": "b"})
    j.close()  # nothing committed: the segment stays for replay
    j2 = Journal(tmp_path / "j")
    left = j2.open()
    assert len(left) == 1
    with left[0].open("ab") as f:
        f.write(b'{"id": "c"')  # a torn last line (machine crash mid-write)
    assert [e["id"] for e in read_segment(left[0])] == ["a", "b"]
    j2.forget(left[0])
    j2.close()
    assert not left[0].exists()
