"""``python -m bench`` (``make bench``): run every figure, print the table, write bench/results.json.

Exit status 0 when the bench ran (a missed target shows as "miss" in the table
and the JSON), 1 with ``--strict`` when a target was missed, 2 when the bench
itself failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

from bench.report import Report

RESULTS = Path(__file__).resolve().parent / "results.json"

# The run's budget: about a minute on 2 cores, most of it installing apps and booting devices.
ROUNDS = 6  # alternating batches of a figure and its baseline
BATCH = 300  # cross-process calls per batch
IN_PROCESS_BATCH = 1000
MCP_BATCH = 50  # MCP calls per batch: milliseconds each, over HTTP
THROUGHPUT_SECONDS = 1.0  # per run; three runs per side and caller count
AGENT_RUNS = 40  # per script length
BOOT_REPEATS = 5  # boots per figure, after one that warms the caches
EVAL_ROUNDS = 3  # passes over the shipped suite's single-turn cases
EVAL_TRIALS = 4  # trials of the shipped suite per worker count


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="Print the results as JSON instead of a table.")
    output.add_argument("--markdown", action="store_true", help="Print the figures as a Markdown table.")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"Where to write the results (default {RESULTS}).")
    parser.add_argument("--strict", action="store_true", help="Exit 1 when a target is missed (for CI).")
    return parser.parse_args(argv)


def run_all(log) -> Report:
    from bench import app_hop, boot, cross_process, eval_overhead, in_process, mcp, testing_fixture
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
        mcp.prepare(workspace.mcp_data, apps[0])
        transports = BareTransports(workspace.root, MAX_WORKERS)
        try:
            log("cross-process: latency, throughput, search")
            cross_process.run(report, workspace, transports, rounds=ROUNDS, per_round=BATCH,
                              throughput_seconds=THROUGHPUT_SECONDS)
            log("device → app hop: framed and gRPC")
            app_hop.run(report, workspace, transports, rounds=ROUNDS, per_round=BATCH)
        finally:
            transports.close()
        log("MCP: tools/call through the bridge")
        mcp.run(report, workspace.mcp_data, rounds=ROUNDS, per_round=MCP_BATCH)
        log("in-process: execute, agent loop")
        in_process.run(report, workspace.local_data, apps[0], rounds=ROUNDS, per_round=IN_PROCESS_BATCH,
                       agent_runs=AGENT_RUNS)
        log("the droid_device fixture: set-up and first call")
        testing_fixture.run(report)
        log("eval: overhead per case, workers")
        eval_overhead.run(report, overhead_rounds=EVAL_ROUNDS, speedup_trials=EVAL_TRIALS)
        log("boot and install")
        boot.run(report, workspace, installs, repeats=BOOT_REPEATS, workers=MAX_WORKERS)
    finally:
        workspace.remove()
    report.notes.append(
        "bytecode is cached for the child processes (PYTHONPYCACHEPREFIX in the bench's temp folder), "
        "as on a developer machine"
    )
    return report


def table_console():
    """Colour on a terminal only; off a terminal (a log, a pipe), wide enough for one line per row."""
    from rich.console import Console

    out = Console(highlight=False)
    return out if out.is_terminal else Console(highlight=False, width=150)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from sim.cli.output import console

    err = console(stderr=True)
    started = time.perf_counter()
    log = lambda message: err.print(f"[dim]bench: {message}[/]")  # noqa: E731 - progress goes to stderr
    try:
        report = run_all(log)
    except Exception as error:
        traceback.print_exc()
        err.print(f"[bold red]bench failed:[/] {type(error).__name__}: {error}")
        return 2
    report.write_json(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif args.markdown:
        print(report.markdown(), end="")
    else:
        report.render(table_console())
        err.print(f"[dim]bench: {time.perf_counter() - started:.0f} s; results in {args.out}[/]")
    return 1 if args.strict and report.missed else 0


if __name__ == "__main__":
    sys.exit(main())
