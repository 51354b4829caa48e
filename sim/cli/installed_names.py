"""Package names the shell is given that name no installed package: said, with the closest one.

A phone's verbs take such a name in silence (an allowlist may name a package before it is
installed, and ``grant-app-function-access`` says only "Failed"); droidsim's commands add a line on
stderr, so a typo in a set-up script does not pass for a step done.
"""

from __future__ import annotations

import difflib
from typing import Any

import click


def installed_packages(context: Any) -> dict[str, Any]:
    """Every installed package's PackageInfo, by name, as the shell sees them."""
    return {info.package_name: info for info in context.get_system_service("package").list_packages()}


def not_installed(package: str, installed: dict[str, Any]) -> str:
    """'PKG is not installed', with the installed name closest to it."""
    close = difflib.get_close_matches(package, list(installed), n=1, cutoff=0.8)
    return f"{package} is not installed" + (f" (did you mean {close[0]}?)" if close else "")


def warn_uninstalled(context: Any, packages: tuple[str, ...] | list[str], listed: str) -> None:
    """A warning for each of ``packages`` added to a list although no package of that name is installed."""
    installed = installed_packages(context)
    for package in packages:
        if package not in installed:
            click.echo(f"warning: {not_installed(package, installed)}: it is on the {listed} all the same, and "
                       "counts once a package of that name is installed", err=True)
