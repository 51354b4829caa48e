"""``droidsim install`` and ``droidsim uninstall``: the device's package manager, as adb's."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.connection import open_context, resolve
from sim.cli.folders import app_folders_or_fail
from sim.cli.output import fail_with


@click.command()
@click.argument("app_dir", metavar="APP", type=click.Path(exists=True, path_type=Path))
@click.option("--system", is_flag=True, help="Install as a privileged system app.")
@click.option("--responses", "cassette", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="CASSETTE", help="A code-less app answers recorded calls from this cassette (docs/responses.md).")
@click.option("--double", "double_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR",
              help="A code-less app's calls go to the Python double in DIR, a class per @AppFunction class "
                   "(droidsim responses skeleton writes one).")
@click.option("--on-miss", type=click.Choice(["refuse", "schema"]),
              help="What a call nothing answers gets: ERROR_NOT_SUPPORTED (refuse, the default) or a value "
                   "generated from the schema, marked as such.")
@click.pass_context
def install(ctx: click.Context, app_dir: Path, system: bool, cassette: Path | None, double_dir: Path | None,
            on_miss: str | None) -> None:
    """Install (or update) an app folder, every app folder in a folder, or an APK, on the device.

    A folder with no Python code (a Kotlin app's manifest, res/xml and function XML) answers
    from --responses and --double, else refuses; an update keeps what it was given before.
    An APK (any file: its content decides) is decoded for the device's SDK and is such an app;
    an update must be signed by the same key (docs/kotlin.md). What a phone of the device's SDK
    would leave out (no app schema, a service without BIND_APP_FUNCTION_SERVICE...) follows as
    "Warning:" lines on stderr, each with the change that brings it back."""
    from droidsim.v1.package_manager_pb2 import ResponseOptions

    folders = [app_dir] if app_dir.is_file() else app_folders_or_fail([app_dir])
    responses = ResponseOptions(cassette=str(cassette.resolve()) if cassette else "",
                                double_dir=str(double_dir.resolve()) if double_dir else "", on_miss=on_miss or "")
    with open_context(resolve(ctx.obj["device"], ctx.obj["data"])) as context:
        for folder in folders:
            try:
                info = context.get_system_service("package").install_package(str(folder.resolve()), system, responses)
            except Exception as error:
                fail_with(error)
            click.echo(f"Success: {info.package_name} (uid {info.uid}, {_function_count(info)})")
            for warning in info.warnings:
                click.echo(f"Warning: {warning}", err=True)


def _function_count(info) -> str:
    """What install counts: the functions the device indexed, and how many of them the shell
    (and so list-app-functions) sees when that is fewer."""
    declared, visible = info.declared_function_count, len(info.function_ids)
    counted = f"{declared} function{'s' if declared != 1 else ''}"
    if visible == declared:
        return counted
    hidden = "the other one is" if declared - visible == 1 else f"the other {declared - visible} are"
    return f"{counted}, {visible} visible to the shell: {hidden} ACCESS_LEVEL_SELF, the app's own"


@click.command()
@click.argument("package")
@click.pass_context
def uninstall(ctx: click.Context, package: str) -> None:
    """Remove a package and everything it stored."""
    with open_context(resolve(ctx.obj["device"], ctx.obj["data"])) as context:
        try:
            context.get_system_service("package").uninstall_package(package)
        except Exception as error:
            fail_with(error)
    click.echo("Success")
