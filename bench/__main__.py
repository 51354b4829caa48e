"""``python -m bench`` (``make bench``): run every figure, print the table, write bench/results.json.

Exit status 0 when the bench ran (a missed target shows as "miss" in the table
and the JSON), 1 with ``--strict`` when a target was missed, 2 when the bench
itself failed.
"""

from __future__ import annotations

import argparse
import json
import os
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
APK_ROUNDS = 40  # installs of the APK, and of its folder, taking turns (a p50 of 10 moved by ±0.3x)
LARGE_TABLE_ROUNDS = 10  # the same with an AndroidX-sized resources.arsc (~0.2 s an APK install)
TAU2_ROUNDS = 2  # replays of τ-bench's 200 recorded runs per side (~10 s each on a quiet machine)

# Groups of rows, for ``--only``; a new group of rows adds its name here and its step in run_all.
CROSS_PROCESS_SECTIONS = frozenset({"latency", "throughput", "search"})
SECTIONS = ("latency", "throughput", "search", "app-hop", "mcp", "in-process", "fixture", "eval", "ray", "boot", "apk",
            "tau2")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="Print the results as JSON instead of a table.")
    output.add_argument("--markdown", action="store_true", help="Print the figures as a Markdown table.")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"Where to write the results (default {RESULTS}).")
    parser.add_argument("--strict", action="store_true", help="Exit 1 when a target is missed (for CI).")
    parser.add_argument("--only", action="append", choices=SECTIONS, metavar="SECTION",
                        help=f"Run only this group of rows (repeatable): {', '.join(SECTIONS)}.")
    args = parser.parse_args(argv)
    args.only = frozenset(args.only or SECTIONS)
    return args


def run_all(log, only: frozenset[str] = frozenset(SECTIONS)) -> Report:
    """The rows of the sections in ``only``, each set up only as far as it needs."""
    from bench import app_hop, boot, cross_process, eval_overhead, in_process, mcp, testing_fixture
    from bench.transport import BareTransports
    from bench.workspace import Workspace
    from sim.server.grpc_server import MAX_WORKERS

    report = Report()
    report.notes.append(load_note("at the start"))
    workspace = Workspace()
    try:
        log("generating apps")
        apps = workspace.generate_apps(max(boot.BOOT_APP_COUNTS) if "boot" in only else 1)
        search_apps = workspace.generate_search_apps() if "search" in only else []
        log("installing apps")
        installs = boot.prepare(workspace, apps) if "boot" in only else None
        cross = only & CROSS_PROCESS_SECTIONS
        if cross or "app-hop" in only:
            transports = BareTransports(workspace.root, MAX_WORKERS)
            try:
                if cross:
                    cross_process.prepare(workspace, apps[0], search_apps)
                    log(f"cross-process: {', '.join(sorted(cross))}")
                    cross_process.run(report, workspace, transports, rounds=ROUNDS, per_round=BATCH,
                                      throughput_seconds=THROUGHPUT_SECONDS, parts=cross)
                if "app-hop" in only:
                    log("device → app hop: framed and gRPC")
                    app_hop.run(report, workspace, transports, rounds=ROUNDS, per_round=BATCH)
            finally:
                transports.close()
        if "mcp" in only:
            log("MCP: tools/call through the bridge")
            mcp.prepare(workspace.mcp_data, apps[0])
            mcp.run(report, workspace.mcp_data, rounds=ROUNDS, per_round=MCP_BATCH)
        if "in-process" in only:
            log("in-process: execute, agent loop")
            in_process.run(report, workspace.local_data, apps[0], rounds=ROUNDS, per_round=IN_PROCESS_BATCH,
                           agent_runs=AGENT_RUNS)
        if "fixture" in only:
            log("the droid_device fixture: set-up and first call")
            testing_fixture.run(report)
        if "eval" in only:
            log("eval: overhead per case, workers")
            eval_overhead.run(report, overhead_rounds=EVAL_ROUNDS, speedup_trials=EVAL_TRIALS)
        if "ray" in only:
            log("eval: a 200 ms model on a 2-node Ray cluster against one local worker")
            from bench import ray_sweep

            ray_sweep.run(report)
        if "boot" in only:
            log("boot and install")
            boot.run(report, workspace, installs, repeats=BOOT_REPEATS, workers=MAX_WORKERS)
        if "apk" in only:
            log("APK install against a folder install of the same app")
            from bench import apk_install

            apk_install.run(report, rounds=APK_ROUNDS, large_table_rounds=LARGE_TABLE_ROUNDS)
        if "tau2" in only:
            log("τ²: the 200 recorded runs replayed through the device, and on the apps in-process")
            from bench import tau2_replay

            tau2_replay.run(report, rounds=TAU2_ROUNDS)
    finally:
        workspace.remove()
    report.notes.append(load_note("at the end"))
    if any(row.target and row.target.guard for row in report.rows):
        report.notes.append("(guard): a regression guard, not a goal: about 20 % past the worst quiet run of a "
                            "figure whose goal was given up (docs/performance.md, \"Guards\")")
    report.notes.append(
        "bytecode is cached for the child processes (PYTHONPYCACHEPREFIX in the bench's temp folder), "
        "as on a developer machine"
    )
    return report


def load_note(when: str) -> str:
    """The load average, and a warning when the machine is busier than its cores: ratios then
    drift (a busy machine slows the side with more thread switches more)."""
    cores = os.cpu_count() or 1
    load = os.getloadavg()
    note = f"load average {when}: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {cores} cores"
    if load[0] > cores:
        note += " (warning: above 1.0 per core, the figures are noisy)"
    return note


def table_console():
    """Colour on a terminal only; off a terminal (a log, a pipe), wide enough for one line per row."""
    from rich.console import Console

    out = Console(highlight=False)
    return out if out.is_terminal else Console(highlight=False, width=150)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from sim.cli.output import console
    from sim.logcat import device_errors_only

    err = console(stderr=True)
    started = time.perf_counter()
    log = lambda message: err.print(f"[dim]bench: {message}[/]")  # noqa: E731 - progress goes to stderr
    try:
        with device_errors_only():
            report = run_all(log, args.only)
    except Exception as error:
        traceback.print_exc()
        err.print(f"[bold red]bench failed:[/] {type(error).__name__}: {error}")
        return 2
    report.write_json(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif args.markdown:
        print(report.markdown(), end="")  # the README's table; the notes (load average) on stderr
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr)
    else:
        report.render(table_console())
        err.print(f"[dim]bench: {time.perf_counter() - started:.0f} s; results in {args.out}[/]")
    return 1 if args.strict and report.missed else 0


if __name__ == "__main__":
    sys.exit(main())
