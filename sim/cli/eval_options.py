"""The options ``droidsim eval`` and ``droidsim eval tau2`` share: where the work runs, where the
outputs go, and how a run with infrastructure errors ends. Defined once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import click

_WHERE = (
    click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Local worker processes."),
    click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
                 help="Run as Ray tasks on the cluster at ADDRESS (HOST:PORT of `ray start --head`), else at "
                      "RAY_ADDRESS; without either (or with `local`), on a Ray started for the run."),
    click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("eval-out"),
                 show_default=True, help="Where results.jsonl, summary.json and report.html go."),
)


def where_it_runs(command: Callable) -> Callable:
    """--workers, --ray [ADDRESS] and --out."""
    for option in reversed(_WHERE):
        command = option(command)
    return command


def ray_options(ray_address: str | None) -> dict[str, Any]:
    """``ray`` and ``ray_address`` for the run's options from ``--ray [ADDRESS]``."""
    if ray_address is None:
        return {"ray": False, "ray_address": None}
    return {"ray": True, "ray_address": ray_address or os.environ.get("RAY_ADDRESS") or None}


def server_went_down(error: Exception, out: Path) -> click.ClickException:
    """The refusal of a run a model server stopped (ModelUnavailable): what is kept and how to go on."""
    return click.ClickException(f"a model server went down, so the run stopped: {error}. The finished trials are "
                                f"in {out / 'results.jsonl'}; rerun with --resume to go on")


def show_summary(summary: dict[str, Any], json_output: bool, out: Path, table: Callable[[dict, Any], None],
                 err: Any) -> None:
    """summary.json on stdout with --json; else ``table`` of it, and where the outputs went."""
    from sim.cli.output import print_json, table_console

    if json_output:
        print_json(summary)
        return
    table(summary, table_console())
    err.print(f"results in {out}/: results.jsonl, summary.json, report.html", style="dim", markup=False)


def exit_on_infra_errors(summary: dict[str, Any], allow_errors: bool, err: Any) -> None:
    """Exit 3 when trials met an infrastructure error and --allow-errors was not given."""
    errors = sum(c["scores"]["overall"]["infra_errors"] for c in summary["configs"].values())
    if errors and not allow_errors:
        err.print(f"{errors} trial(s) met an infrastructure error (server error, timeout or crash) and have no "
                  "verdict; each is said above and in results.jsonl (infra_error). Fix what failed (the model "
                  "server, or a case's setup call) and rerun, or pass --allow-errors",
                  style="red", markup=False, soft_wrap=True)
        raise SystemExit(3)
