"""Build providers from policy backend specs. Vendor modules are imported lazily, only for the
kinds a policy actually uses (so the default start-up never imports boto3 or litellm)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import httpx

from gateway.policy.schema import BACKEND_KINDS, BackendSpec
from gateway.providers.base import Provider


class BackendDisabled(Exception):
    """The backend cannot be used in this process (for example: no credentials); the message
    is the reason shown at start-up."""


class BackendPending(BackendDisabled):
    """Raised instead of blocking when `BuildContext.defer_blocking` is set and the build needs
    I/O that may take seconds (a credential chain asking a metadata server or SSO). The backend
    counts as disabled (the message says why) until `finish()`, run in a worker thread, returns
    the provider or raises BackendDisabled with the final reason."""

    def __init__(self, reason: str, finish: Callable[[], Provider]) -> None:
        super().__init__(reason)
        self.finish = finish


@dataclass(frozen=True)
class BuildContext:
    env: Mapping[str, str]
    local_base_url: str | None = None
    # why the bundled engine cannot serve now (None: it can); the `local` backend's check
    local_health: Callable[[], str | None] | None = None
    transport: httpx.AsyncBaseTransport | None = None
    # Google credentials to use instead of looking them up (tests and offline runs against
    # the Vertex emulator); typed loosely so that this module never imports google-auth
    google_credentials: object | None = None
    # set by a caller that can finish builds off the event loop (the provider pool): a factory
    # may then raise BackendPending rather than block start-up on network credential lookups
    defer_blocking: bool = False


# each factory takes its own spec model (`build(name, spec: OllamaBackend, ctx)`); looked up by
# kind at run time, so the mapping can only promise a spec of the union
Factory = Callable[[str, Any, BuildContext], Provider]

# kind -> "module:function": every kind the policy schema knows is built by the `build`
# function of the provider package named like it, which raises BackendDisabled with a reason
# when it can't run
FACTORIES: Mapping[str, str] = MappingProxyType(
    {kind: f"gateway.providers.{kind}.factory:build" for kind in BACKEND_KINDS}
)


def build_provider(
    name: str, spec: BackendSpec, ctx: BuildContext, factories: Mapping[str, str] = FACTORIES
) -> Provider:
    if not getattr(spec, "enabled", True):
        raise BackendDisabled("disabled in the policy")
    target = factories.get(spec.kind)
    if target is None:
        raise BackendDisabled(f"no adapter for kind '{spec.kind}' in this build")
    module_name, func_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BackendDisabled(f"adapter for '{spec.kind}' is not installed ({exc.name})") from None
    factory: Factory = getattr(module, func_name)
    return factory(name, spec, ctx)
