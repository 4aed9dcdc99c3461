"""`gateway emulate KIND --port N`: run a vendor emulator in the foreground."""

from __future__ import annotations

import argparse
import importlib
from types import MappingProxyType

KINDS = MappingProxyType({
    "openai": "gateway.emulators.openai",
    "bedrock": "gateway.emulators.bedrock",
    "vertex": "gateway.emulators.vertex",
    "replicate": "gateway.emulators.replicate",
    "ollama": "gateway.emulators.ollama",
})


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("emulate", help="run a local emulator of a vendor API")
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("--port", type=int, default=9000)
    p.add_argument("--host", default="127.0.0.1")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway.emulators.base import EmulatorState

    module = importlib.import_module(KINDS[args.kind])
    app = module.build_app(EmulatorState())
    print(f"{args.kind} emulator on http://{args.host}:{args.port} "
          f"(control: /_emulator/mode, /_emulator/requests)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
