"""``python -m bench`` (``make bench``): run every figure, print the table, write bench/results.json.

Exit status 0 when every target is met, 1 when one is missed (the table says
which), 2 when the bench itself failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="Print the results as JSON instead of a table.")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"Where to write the results (default {RESULTS}).")
    return parser.parse_args(argv)


def run_all(log) -> "Report":
    from bench import boot, cross_process, in_process
    from bench.report import Report
    from bench.transport import BareTransports
    from bench.workspace import Workspace
    from sim.server.grpc_server import MAX_WORKERS

    report = Report()
    workspace = Workspace()
    try:
        log("generating apps")
        apps = workspace.generate_apps(max(boot.BOOT_APP_COUNTS))
        search_apps = workspace.generate_search_apps()
        log("installing apps")
        installs = boot.prepare(workspace, apps)
        cross_process.prepare(workspace, apps[0], search_apps)
        transports = BareTransports(workspace.root, MAX_WORKERS)
        try:
            log("cross-process: latency, throughput, search")
            cross_process.run(report, workspace, transports, rounds=6, per_round=300, throughput_seconds=1.0)
            log("device → app hop: framed and gRPC")
            cross_process.app_hop(report, workspace, transports, rounds=4, per_round=300)
        finally:
            transports.close()
        log("in-process: execute, agent loop")
        in_process.run(report, workspace.local_data, apps[0], rounds=6, per_round=1000, agent_runs=40)
        log("boot and install")
        boot.run(report, workspace, installs, repeats=5, workers=MAX_WORKERS)
    finally:
        workspace.remove()
    report.notes.append(
        "bytecode is cached for the child processes (PYTHONPYCACHEPREFIX in the bench's temp folder), "
        "as on a developer machine"
    )
    return report


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from sim.cli.output import console

    err = console(stderr=True)
    started = time.perf_counter()
    log = (lambda message: err.print(f"[dim]bench: {message}[/]")) if not args.json else (lambda message: None)
    try:
        report = run_all(log)
    except Exception as error:
        traceback.print_exc()
        err.print(f"[bold red]bench failed:[/] {type(error).__name__}: {error}")
        return 2
    report.write_json(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        report.render(console())
        err.print(f"[dim]bench: {time.perf_counter() - started:.0f} s; results in {args.out}[/]")
    return 1 if report.missed else 0


if __name__ == "__main__":
    sys.exit(main())
