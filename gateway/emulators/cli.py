"""`gateway emulate KIND --port N`: run a vendor emulator in the foreground."""

from __future__ import annotations

import argparse
import importlib
import sys
from types import MappingProxyType

KINDS = MappingProxyType(
    {
        "openai": "gateway.emulators.openai",
        "bedrock": "gateway.emulators.bedrock",
        "vertex": "gateway.emulators.vertex",
        "replicate": "gateway.emulators.replicate",
        "ollama": "gateway.emulators.ollama",
        "vllm": "gateway.emulators.vllm",
    }
)


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("emulate", help="run a local emulator of a vendor API")
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("--port", type=int, default=9000)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument(
        "--profile",
        default="l40s-8b",
        help="vllm only: the simulated GPU (h100-8b, a100-8b, l40s-8b, rtx6000-8b)",
    )
    p.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="vllm only: simulated seconds per wall-clock second",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway.emulators.base import EmulatorState

    module = importlib.import_module(KINDS[args.kind])
    if args.kind == "vllm":
        from gateway.emulators.gpu_profiles import PROFILES

        if args.profile not in PROFILES or args.time_scale <= 0:
            print(
                f"error: --profile must be one of {', '.join(PROFILES)} and --time-scale positive",
                file=sys.stderr,
            )
            return 2
        app = module.build_app(EmulatorState(), args.profile, args.time_scale)
    else:
        app = module.build_app(EmulatorState())
    print(
        f"{args.kind} emulator on http://{args.host}:{args.port} "
        f"(control: /_emulator/mode, /_emulator/requests)",
        flush=True,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
