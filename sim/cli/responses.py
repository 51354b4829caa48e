"""``droidsim responses``: doubles' skeletons and recorded cassettes for code-less apps
(docs/responses.md)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from sim.cli.connection import open_context, resolve


@click.group("responses")
def responses_command() -> None:
    """Where a code-less (Kotlin) app's answers come from: record cassettes, write doubles."""


@responses_command.command("skeleton")
@click.argument("app_dir", metavar="APP_DIR|APP.apk", type=click.Path(exists=True, path_type=Path))
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
def skeleton(app_dir: Path, out_dir: Path) -> None:
    """Write the skeleton of a Python double of APP_DIR's (or APP.apk's) functions into OUT_DIR.

    One class per @AppFunction class (the part of each function id before #), whichever
    service serves it, with typed signatures and dataclasses from the app's function XML, which
    install accepts unchanged (`droidsim install APP --double OUT_DIR`). Each method answers
    ERROR_NOT_SUPPORTED naming the function and its file until you fill it in.

    A function with a type the skeleton cannot spell (a sealed class or union, a subclass of
    another serializable) is written as a stub marked "droidsim: write by hand", the rest as
    usual; the command then names each such function and exits 1."""
    from sim.platform_version import NEWEST
    from sim.pm.install_warnings import no_functions
    from sim.responses.adb import parsed_folder
    from sim.responses.record import RecordError
    from sim.responses.skeleton import SkeletonError, write_skeleton

    try:
        with app_folder(app_dir) as folder:
            parsed = parsed_folder(folder)
            if (none := no_functions(parsed, NEWEST)) is not None:
                raise click.ClickException(f"{none}. There is nothing to double")
            skeleton = write_skeleton(parsed.metadata, out_dir)
    except (SkeletonError, RecordError) as error:
        raise click.ClickException(str(error)) from None
    for file in skeleton.files:
        click.echo(f"wrote {out_dir / file.path}")
    if skeleton.by_hand:
        lines = "".join(f"\n  {b.function_id} ({b.module_file}): {b.reason}" for b in skeleton.by_hand)
        raise click.ClickException(
            f"{len(skeleton.by_hand)} function(s) need a hand: the skeleton wrote each as a stub marked "
            f"'droidsim: write by hand', and install refuses the double until its signature is written "
            f"(docs/declaring-functions.md):{lines}")


@responses_command.command("record")
@click.argument("calls_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The cassette to write (YAML).")
@click.option("--adb", "adb_app", metavar="APP_DIR|APP.apk", type=click.Path(exists=True, path_type=Path),
              help="Record from a phone or emulator through adb instead of a droidsim device; the app (its "
                   "code-less folder, or its APK) types the answers.")
@click.option("--adb-path", default="adb", show_default=True, help="The adb to run.")
@click.option("--serial", "-s", help="adb's -s SERIAL: which phone or emulator.")
@click.option("--device", metavar="ADDRESS", help="The droidsim device to record from (default: as every command finds it).")
@click.pass_context
def record(ctx: click.Context, calls_file: Path, out: Path, adb_app: Path | None, adb_path: str,
           serial: str | None, device: str | None) -> None:
    """Run CALLS_FILE's calls and write what they answered as a cassette.

    Against the droidsim device (--device, as every command finds it), or, with --adb, a
    phone or emulator through `adb shell cmd app_function execute-app-function`."""
    from sim.responses.adb import AdbTarget, metadata_of_folder
    from sim.responses.record import DeviceTarget, RecordError, record as run_calls, write_cassette

    try:
        if adb_app is not None:
            with app_folder(adb_app) as folder:
                metadata = metadata_of_folder(folder)
            cassette = run_calls(calls_file, AdbTarget(metadata, adb_path, serial))
        else:
            options = ctx.find_root().obj
            with open_context(resolve(device or options["device"], options["data"])) as context:
                cassette = run_calls(calls_file, DeviceTarget(context))
    except RecordError as error:
        raise click.ClickException(str(error)) from None
    write_cassette(cassette, out)
    count = sum(len(entries) for entries in cassette["calls"].values())
    click.echo(f"recorded {count} calls of {cassette['package']} into {out}")


@contextmanager
def app_folder(path: Path) -> Iterator[Path]:
    """``path`` itself, or for an APK the folder it decodes to (for the newest SDK), while in use."""
    if path.is_dir():
        yield path
        return
    from sim.apk.errors import ApkError
    from sim.apk.folder import in_apk_terms
    from sim.pm.apk_tools import extracted
    from sim.platform_version import NEWEST
    from sim.responses.record import RecordError

    try:
        with extracted(path, NEWEST.sdk_int) as (folder, decoded):
            try:
                yield folder
            except RecordError as error:  # its places are the APK's entries, not the decoded folder's files
                raise RecordError(in_apk_terms(str(error), folder, path.name, decoded)) from None
    except ApkError as error:
        raise click.ClickException(f"{path} is neither an app folder nor an APK droidsim can read: {error}") from None
