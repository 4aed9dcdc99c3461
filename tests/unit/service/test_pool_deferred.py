"""Backends whose credential lookup may block are finished in a worker thread: start-up does not
wait, the backend is listed as disabled (pending) until the thread is done, then enabled."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from gateway.policy.loader import load_text
from gateway.providers.registry import BackendDisabled, BackendPending, BuildContext
from gateway.service import pool as pool_module
from gateway.service.pool import ProviderPool

POLICY = """version: 1
backends:
  l: {kind: local}
  bed: {kind: bedrock, zone: cloud, region: eu-central-1, model: MODEL}
aliases:
  a: {backends: [l, bed]}
"""


class Fake:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True


async def _until(cond: Any, limit: float = 10.0) -> None:
    for _ in range(int(limit / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


async def test_pending_build_is_enabled_when_the_thread_finishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()
    seen: list[bool] = []

    def build(name: str, spec: Any, ctx: BuildContext) -> Any:
        if name == "l":
            raise BackendDisabled("not running")
        seen.append(ctx.defer_blocking)

        def finish() -> Any:
            release.wait(5)
            return Fake(name)

        raise BackendPending("resolving", finish)

    monkeypatch.setattr(pool_module, "build_provider", build)
    pool = ProviderPool(BuildContext(env={}))
    pool.sync(load_text(POLICY.replace("MODEL", "m1")))
    assert seen == [True]
    assert pool.disabled == {"l": "not running", "bed": "resolving"} and pool.providers == {}
    release.set()
    await _until(lambda: "bed" in pool.providers)
    assert pool.disabled == {"l": "not running"}
    await pool.aclose()


async def test_a_failed_pending_build_keeps_the_backend_disabled_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(name: str, spec: Any, ctx: BuildContext) -> Any:
        if name == "l":
            raise BackendDisabled("not running")

        def finish() -> Any:
            raise BackendDisabled("no credentials after all")

        raise BackendPending("resolving", finish)

    monkeypatch.setattr(pool_module, "build_provider", build)
    pool = ProviderPool(BuildContext(env={}))
    pool.sync(load_text(POLICY.replace("MODEL", "m1")))
    await _until(lambda: pool.disabled.get("bed") == "no credentials after all")
    assert pool.providers == {}


async def test_a_pending_build_for_a_replaced_spec_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gates = {"m1": threading.Event(), "m2": threading.Event()}
    built: list[Fake] = []

    def build(name: str, spec: Any, ctx: BuildContext) -> Any:
        if name == "l":
            raise BackendDisabled("not running")

        def finish() -> Any:
            gates[spec.model].wait(5)
            fake = Fake(f"{name}-{spec.model}")
            built.append(fake)
            return fake

        raise BackendPending("resolving", finish)

    monkeypatch.setattr(pool_module, "build_provider", build)
    pool = ProviderPool(BuildContext(env={}))
    pool.sync(load_text(POLICY.replace("MODEL", "m1")))
    pool.sync(load_text(POLICY.replace("MODEL", "m2")))  # hot reload before m1 resolved
    gates["m1"].set()
    await _until(lambda: len(built) == 1)
    await asyncio.sleep(0.05)
    assert pool.providers == {} and "bed" in pool.disabled  # m1's late result is stale
    gates["m2"].set()
    await _until(lambda: "bed" in pool.providers)
    assert pool.providers["bed"].name == "bed-m2"
    await pool.aclose()


def test_without_a_running_loop_the_build_is_not_deferred(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(name: str, spec: Any, ctx: BuildContext) -> Any:
        assert not ctx.defer_blocking
        return Fake(name)

    monkeypatch.setattr(pool_module, "build_provider", build)
    pool = ProviderPool(BuildContext(env={}))
    pool.sync(load_text(POLICY.replace("MODEL", "m1")))
    assert list(pool.providers) == ["l", "bed"]


async def test_bedrock_from_a_shared_credentials_file_resolves_in_the_background(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    creds = tmp_path / "credentials"
    creds.write_text("[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = s\n")
    for var in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(creds))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    pool = ProviderPool(BuildContext(env={}))
    pool.sync(load_text(POLICY.replace("MODEL", "amazon.nova-lite-v1:0")))
    assert "background" in pool.disabled["bed"]
    await _until(lambda: "bed" in pool.providers)
    assert "bed" not in pool.disabled
    await pool.aclose()
