"""The app folders a command was given, or the error that says which is none."""

from __future__ import annotations

from pathlib import Path

import click


def app_folders_or_fail(paths: list[Path]) -> list[Path]:
    """Every app folder in ``paths`` (a folder of them counts for each), as a click error when one
    is no app folder."""
    from sim.pm.app_folders import NotAnAppFolder, app_folders

    try:
        return app_folders(paths)
    except NotAnAppFolder as error:
        raise click.ClickException(str(error)) from None
