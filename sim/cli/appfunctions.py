"""``droidsim appfunctions generate|new``: function XML from Python declarations, and a new app."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.folders import app_folders_or_fail
from sim.cli.scaffold import new_command


@click.group()
def appfunctions() -> None:
    """Generate and check function XML from Python declarations."""


@appfunctions.command("generate")
@click.argument("app_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a committed XML is stale.")
def generate(app_dirs: tuple[Path, ...], check: bool) -> None:
    """Write assets/<xml_file_name>.xml for each app (APP_DIR: an app folder, or a folder of
    them), as the Jetpack compiler does."""
    from droid.appfunctions.compiler import run_generate

    raise SystemExit(run_generate(app_folders_or_fail(list(app_dirs)), check))


appfunctions.add_command(new_command)
