"""Soak benchmark (not a CI test): the gateway under mixed and hostile traffic, 30 minutes.

`gateway serve`, its ledger on PostgreSQL (or SQLite), in front of `gateway emulate openai`,
all on 127.0.0.1, for `--minutes` (default 30).

Traffic, all the time:
- normal chat from `--workers` workers with an API key (half streamed), `--think-s` apart;
- a policy PUT every `--policy-every` seconds (default 30): two valid documents (each a real
  swap: new compiled policy, new providers), then one hostile one in turn (YAML bomb, binary,
  `api_key_env: GECIT_ADMIN_KEY`, a 169.254.169.254 backend, duplicate keys, 5,000-deep
  nesting), which must be refused with the running policy unchanged.
In every other `--phase-s` window (a "bad" phase; the ones between are "quiet"), bad inputs
beside them, one every `--bad-every` seconds: oversized bodies, malformed JSON, unknown
fields (`base_url`, `fallbacks`, `mock_response`), 10^30 integers, unauthenticated requests
(sent from 127.0.0.2, so the failed-auth limit of that address does not touch the normal
clients), identifier-dense messages (4,000 e-mails and identity numbers) and client resets
(a stream closed with RST once its head and first bytes arrived).

With `--pg-restart-cmd`, half way the command is run (a shell command that restarts the
PostgreSQL behind `--database-url`; never point it at a server others use) while a probe
measures how long new connections fail.

Figures (one table on stdout; `--json` writes them too):
- RSS of the gateway process sampled every 5 s: at start, the baseline (first sample after
  `--warmup-s`, default max(120 s, 10% of the run), by which time every input kind has been
  seen), the end and the max; growth = end / baseline - 1.
- rows: every answer and every refusal of an authenticated caller, and every reset stream,
  carries an x-request-id; after the run each must have its ledger row (waited for up to
  `--drain-s`). Unauthenticated refusals write no row by design and are counted apart.
- p50/p99 of normal requests by phase (warm-up, quiet, bad, and "pg": from the restart to 15 s
  after it). On a shared, loaded machine the absolute values move with the neighbours' load;
  the alternating phases compare quiet and bad under the same load.

Example (a private PostgreSQL on 5433, as its owner `postgres`):
  python bench/soak.py --database-url postgresql://postgres@127.0.0.1:5433/postgres \\
    --pg-restart-cmd "su postgres -c '/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/soakpg \\
      -m fast -w restart'" --json /tmp/soak.json
A PostgreSQL URL names a server and a database to connect to: the soak creates its own
throwaway database there and drops it at the end. Every process started here is stopped here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from soak_inputs import BAD_KINDS
from soak_procs import Processes
from soak_report import figures, table
from soak_traffic import Traffic


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=4, help="normal-traffic workers")
    ap.add_argument("--think-s", type=float, default=0.05, help="pause of a normal worker")
    ap.add_argument("--phase-s", type=float, default=60.0, help="length of a quiet/bad phase")
    ap.add_argument("--bad-every", type=float, default=0.25, help="seconds between bad inputs")
    ap.add_argument("--policy-every", type=float, default=30.0, help="seconds between PUTs")
    ap.add_argument("--warmup-s", type=float, help="default: max(120, 10%% of the run)")
    ap.add_argument("--drain-s", type=float, default=180.0, help="wait for the ledger rows")
    ap.add_argument(
        "--database-url",
        default=None,
        help="postgresql://user@host:port/db of a server to create a throwaway database "
        "on (default: SQLite in the temporary directory)",
    )
    ap.add_argument(
        "--pg-restart-cmd",
        help="shell command restarting that PostgreSQL, run half way (needs --database-url)",
    )
    ap.add_argument(
        "--bad-kinds",
        default=",".join(BAD_KINDS),
        help="comma-separated bad inputs to send (default: all)",
    )
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--keep", help="copy the gateway's log here at the end")
    args = ap.parse_args(argv)
    if args.pg_restart_cmd and not (args.database_url or "").startswith("postgresql"):
        ap.error("--pg-restart-cmd needs a PostgreSQL --database-url")
    args.bad_kinds = tuple(k for k in args.bad_kinds.split(",") if k)
    if not set(args.bad_kinds) <= set(BAD_KINDS):
        ap.error(f"--bad-kinds: choose from {', '.join(BAD_KINDS)}")
    if args.warmup_s is None:
        args.warmup_s = max(120.0, args.minutes * 6)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gecit-soak-") as tmp:
        procs = Processes(Path(tmp), args.database_url)
        try:
            procs.start()
            traffic = Traffic(args, procs)
            asyncio.run(traffic.run())
            print(
                f"[soak] traffic over; waiting for ledger rows ({time.strftime('%X')})",
                file=sys.stderr,
            )
            ledger_ids = procs.ledger_ids(
                traffic.tally.expected | traffic.tally.reset_ids, args.drain_s
            )
            traffic.tally.ledger_rows = len(ledger_ids)
            traffic.tally.quarantined = procs.quarantined()
        finally:
            procs.stop(args.keep)
    conf = {
        "minutes": args.minutes,
        "database": "postgresql" if procs.pg_name else "sqlite",
        "workers": args.workers,
        "phase_s": args.phase_s,
        "warmup_s": args.warmup_s,
    }
    result = figures(traffic.tally, ledger_ids, conf)
    print(table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
