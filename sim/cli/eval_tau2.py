"""``droidsim eval tau2``: τ²-bench's domains on the device.

``eval tau2 --domain D --data DIR ...`` runs an agent on the domain's tasks (``eval tau2 run``,
sim/cli/eval_tau2_run.py): the group takes a first word that names none of its subcommands as
``run``'s options.

``replay`` replays recorded runs (τ-bench's historical trajectories, or a plain list of calls
for τ² tasks) through the domain's app, each on a freshly reset database, and scores each as
its benchmark does; ``gold`` replays every task's gold actions and lists the tasks whose gold
raises an error or leaves the database unchanged. docs/benchmarks.md.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, Iterator

import click

from sim.cli.eval_tau2_run import tau2_run_command
from sim.cli.run_by_default import RunUnlessSubcommand

DOMAIN = click.option("--domain", required=True, metavar="retail|airline", help="The τ² domain.")
DATA = click.option("--data", "data_dir", required=True, metavar="DIR",
                    type=click.Path(file_okay=False, path_type=Path),
                    help="The domain's data folder: τ²'s (db.json, tasks.json, split_tasks.json, policy.md) or "
                         "τ-bench v1's airline (flights.json, reservations.json, users.json).")
PROCESSES = click.option("--processes", is_flag=True,
                         help="Run the app in a process of its own, as a booted device does (default: on a thread).")
JSON = click.option("--json", "json_output", is_flag=True, help="Print one JSON object per line instead of the table.")


@click.group("tau2", cls=RunUnlessSubcommand)
def tau2_group() -> None:
    """τ²-bench's retail and airline domains, as apps on a simulated device: run an agent on their
    tasks (`eval tau2 --domain D --data DIR ...`, the same as `eval tau2 run ...`), replay recorded
    runs, or replay every task's gold actions."""


tau2_group.add_command(tau2_run_command)


@tau2_group.command("replay")
@DOMAIN
@DATA
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@PROCESSES
@click.option("--require-agreement", type=click.IntRange(min=0), metavar="N",
              help="Exit 1 when fewer than N runs get their recorded reward (for CI: `make tau2-replay`).")
@JSON
def replay_command(domain: str, data_dir: Path, file: Path, processes: bool, require_agreement: int | None,
                   json_output: bool) -> None:
    """Replay the recorded runs in FILE, each on a fresh database, and score them as their
    benchmark does: the database against the task's gold actions' (τ²'s comparison), and
    whether the agent said what it had to. FILE is τ-bench's historical-trajectories JSON, or
    a list of {"task_id", "domain", "calls": [{"name", "arguments"}], "messages": [texts]}.
    One JSON object per run with --json: task_id, trial, reward, db_match, communicated,
    errors (the calls that raised), not_judged, recorded_reward."""
    from sim.tau2.replay import Replayer
    from sim.tau2.trajectories import read_runs

    with _domain_app(domain, data_dir, processes) as (loaded, app):
        _, runs = _data(read_runs, file, domain)
        replayer = Replayer(loaded, app)
        with _progress(len(runs), "replaying") as advance:
            results = []
            for run in runs:
                results.append(_data(replayer.replay, run))
                advance()
    if json_output:
        for result in results:
            click.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        _replay_table(results)
    agreeing = sum(1 for r in results if r.agrees)
    if require_agreement is not None and agreeing < require_agreement:
        raise click.ClickException(f"{agreeing} runs got their recorded reward, fewer than the {require_agreement} "
                                   f"required")


def _replay_table(results: list) -> None:
    from sim.cli.output import print_table

    def mark(value: Any) -> str:
        return "-" if value is None else "yes" if value is True else "no" if value is False else str(value)

    rows = [[str(r.run.task_id), r.run.trial, r.reward, mark(r.run.recorded_reward and int(r.run.recorded_reward)),
             mark(r.db_match), mark(r.communicated), len(r.errors), ", ".join(r.not_judged) or "-"] for r in results]
    print_table("Replayed runs", ["task", "trial", "reward", "recorded", "db", "said", "errors", "not judged"], rows)
    rewarded = sum(r.reward for r in results)
    click.echo(f"{len(results)} runs, {rewarded} rewarded")
    recorded = [r for r in results if r.agrees is not None]
    if recorded:
        differ = [r for r in recorded if not r.agrees]
        click.echo(f"the recorded reward on {len(recorded) - len(differ)} of {len(recorded)}"
                   + (": " + "; ".join(_disagreement(r) for r in differ) if differ else ""))


def _disagreement(result: Any) -> str:
    why = "" if result.run.scored else " (the run hit its step limit and was never scored: recorded 0)"
    return f"task {result.run.task_id} trial {result.run.trial}: recorded {int(result.run.recorded_reward)}, " \
           f"replayed {result.reward}{why}"


@tau2_group.command("gold")
@DOMAIN
@DATA
@click.option("--split", metavar="NAME", help="Only the tasks of this split (train, test, base).")
@PROCESSES
@JSON
def gold_command(domain: str, data_dir: Path, split: str | None, processes: bool, json_output: bool) -> None:
    """Replay every task's gold actions through the domain's app on a fresh database, and list
    the tasks whose gold raises an error (τ² goes on past it, as here) or leaves the database
    unchanged (an agent that does nothing matches it). One JSON object per task with --json:
    task_id, errors, unchanged."""
    from sim.tau2.gold import replay_gold

    with _domain_app(domain, data_dir, processes) as (loaded, app):
        tasks = _data(loaded.tasks, split)
        with _progress(len(tasks), "gold") as advance:
            report = []
            for task in tasks:
                gold = replay_gold(app, task.actions)
                report.append({"task_id": task.id, "errors": gold.errors, "unchanged": gold.unchanged})
                advance()
    if json_output:
        for entry in report:
            click.echo(json.dumps(entry, ensure_ascii=False))
        return
    from sim.cli.output import print_table

    flagged = [e for e in report if e["errors"] or e["unchanged"]]
    rows = [[e["task_id"], "; ".join(f"#{x['call']} {x['function']}: {x['code']}: {x['message']}" for x in e["errors"])
             or "-", "yes" if e["unchanged"] else "no"] for e in flagged]
    print_table(f"{domain}: tasks whose gold raises or changes nothing", ["task", "gold errors", "unchanged"], rows)
    errors = sum(1 for e in report if e["errors"])
    unchanged = sum(1 for e in report if e["unchanged"])
    click.echo(f"{len(report)} tasks: gold raises in {errors}, leaves the database unchanged in {unchanged}")


@contextlib.contextmanager
def _domain_app(domain: str, data_dir: Path, processes: bool) -> Iterator[tuple[Any, Any]]:
    from sim.tau2.data import load_domain
    from sim.tau2.device import DomainDevice

    loaded = _data(load_domain, domain, data_dir)
    with DomainDevice(loaded, processes=processes) as device:
        yield loaded, device.app


def _data(function, *args):
    """``function(*args)``; a DataError (bad data, task or run) is the command's error, naming it."""
    from sim.tau2.tasks import DataError

    try:
        return function(*args)
    except DataError as error:
        raise click.ClickException(str(error)) from None


@contextlib.contextmanager
def _progress(total: int, label: str) -> Iterator[Any]:
    """A bar on stderr when it is a terminal; nothing otherwise (the output is for a script)."""
    from sim.cli.output import console

    err = console(stderr=True)
    if not err.is_terminal:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)
