from __future__ import annotations

import importlib
import pkgutil
from collections.abc import AsyncIterator

import pytest

from gateway.emulators.base import EmulatorServer
from tests.contract import harnesses
from tests.contract.harness import Harness, HarnessSpec


def _specs() -> list[HarnessSpec]:
    out = []
    for info in pkgutil.iter_modules(harnesses.__path__):
        module = importlib.import_module(f"{harnesses.__name__}.{info.name}")
        spec = getattr(module, "HARNESS", None)
        if spec is not None:
            out.append(spec)
    return sorted(out, key=lambda s: s.name)


SPECS = _specs()


@pytest.fixture(scope="module", params=SPECS, ids=[s.name for s in SPECS])
def server(request: pytest.FixtureRequest) -> EmulatorServer:
    spec: HarnessSpec = request.param
    if spec.skip_reason:
        pytest.skip(spec.skip_reason)
    srv = EmulatorServer(spec.app_factory).start()
    request.addfinalizer(srv.stop)
    srv.spec = spec  # type: ignore[attr-defined]
    return srv


@pytest.fixture
async def harness(server: EmulatorServer) -> AsyncIterator[Harness]:
    server.state.reset()
    spec: HarnessSpec = server.spec  # type: ignore[attr-defined]
    provider = spec.make_provider(server.url)
    try:
        yield Harness(spec=spec, server=server, provider=provider)
    finally:
        await provider.aclose()
