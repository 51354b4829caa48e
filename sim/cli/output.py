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


def print_table(title: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> None:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*[str(cell) for cell in row])
    console().print(table)


def fail_with(error: BaseException) -> None:
    """Print an error as ``NAME (code): message`` on stderr and exit non-zero. The line is
    never wrapped (a script greps it whole); colour only on a terminal."""
    if isinstance(error, AppFunctionException):
        text = f"{error.error_name} ({error.error_code})"
        if error.error_message is not None:
            text += f": {error.error_message}"
    else:
        text = f"{type(error).__name__}: {error}"
    from rich.text import Text

    console(stderr=True).print(Text.assemble(("Error: ", "bold red"), text), soft_wrap=True)
    raise SystemExit(1)
