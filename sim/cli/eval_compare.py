"""``droidsim eval compare RUN_A RUN_B ...`` and the ``eval`` group that holds it beside a run.

``droidsim eval SUITE ...`` stays the way to run a suite (it is ``eval run``); a first
word that names a subcommand (``compare``) goes to that subcommand instead.
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.eval import eval_command
from sim.cli.eval_tau2 import tau2_group


class _RunUnlessSubcommand(click.Group):
    """``eval SUITE`` means ``eval run SUITE``; ``eval compare ...`` and ``eval --help`` are the group's."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.command("compare")
@click.argument("runs", nargs=-1, required=True, metavar="RUN_A RUN_B [RUN...]",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "json_output", is_flag=True, help="Print the comparison as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the comparison as a self-contained HTML page here.")
def compare_command(runs: tuple[Path, ...], json_output: bool, html_path: Path | None) -> None:
    """Put finished runs (eval --out folders) side by side: per category, per function, the cases that flipped."""
    from sim.cli.output import console, print_json
    from sim.eval.compare import CompareError, compare, load_runs, terminal, write_html

    try:
        comparison = compare(load_runs(list(runs)))
    except CompareError as error:
        raise click.ClickException(str(error)) from None
    if html_path is not None:
        write_html(html_path, comparison)
    if json_output:
        print_json(comparison)
        return
    out = console()
    if not out.is_terminal:  # piped: whole lines, however many runs the tables have
        from rich.console import Console

        out = Console(highlight=False, width=400)
    terminal(comparison, out)


eval_group = _RunUnlessSubcommand("eval", help="Score an agent on SUITE (`eval SUITE ...`, the same as `eval run "
                                  "SUITE ...`), compare finished runs (`eval compare RUN_A RUN_B`), or run "
                                  "τ²-bench's domains (`eval tau2 ...`).",
                                  commands={"run": eval_command, "compare": compare_command, "tau2": tau2_group})
