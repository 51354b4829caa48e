"""Terminal output: tables and colour on a terminal, plain JSON for scripts."""

from __future__ import annotations

import json
from typing import Any, Iterable

import click

from droid.appfunctions.exceptions import AppFunctionException


def print_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))


def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def table_console():
    """Where wide tables go: the terminal, or piped, a console wide enough that no row wraps (whole
    lines, however many columns the table has)."""
    out = console()
    if out.is_terminal:
        return out
    from rich.console import Console

    return Console(highlight=False, width=400)


def print_table(title: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> None:
    """A table on a terminal; piped, plain lines with every cell whole (columns padded,
    nothing truncated or wrapped), so a script or grep sees every id and description."""
    columns = list(columns)
    rows = [[str(cell) for cell in row] for row in rows]
    out = console()
    if not out.is_terminal:
        widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(columns)]
        click.echo(title)
        for line in [columns, *rows]:
            click.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        return
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    out.print(table)


def fail_with(error: BaseException, hint: str | None = None) -> None:
    """Print an error as ``NAME (code): message`` on stderr and exit non-zero. The line is
    never wrapped (a script greps it whole); colour only on a terminal. A ``hint`` (what to
    do about it) follows on a line of its own."""
    if isinstance(error, AppFunctionException):
        text = f"{error.error_name} ({error.error_code})"
        if error.error_message is not None:
            text += f": {error.error_message}"
    else:
        text = f"{type(error).__name__}: {error}"
    from rich.text import Text

    err = console(stderr=True)
    err.print(Text.assemble(("Error: ", "bold red"), text), soft_wrap=True)
    if hint:
        err.print(Text(hint), soft_wrap=True)
    raise SystemExit(1)


def warn_if_edited(context: Any) -> None:
    """``warning:`` on stderr when the app's folder has changed since it was installed
    (sim/agent_app/installed_copy.py): its agent runs the copy install made."""
    from sim.agent_app.installed_copy import edited_since_install

    warning = edited_since_install(context)
    if warning:
        click.echo(f"warning: {warning}", err=True)
