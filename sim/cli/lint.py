"""``droidsim lint APP_DIR|APP.apk... [--json] [--junit FILE] [--device ADDRESS] [--suppressions FILE] [--show-suppressed]``."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import click

from sim.cli.connection import open_context, resolve
from sim.cli.output import console, print_json
from sim.lint import lint_apps, peers_from_device
from sim.lint.report import print_report, report_json
from sim.lint.runner import EXIT_UNREADABLE, AppReport
from sim.pm.app_folders import NotAnAppFolder, app_folders_in
from sim.platform_version import ANDROID_16, NEWEST


@click.command("lint")
@click.argument("app_dirs", nargs=-1, required=True, metavar="APP_DIR|APP.apk...",
                type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("--device", metavar="ADDRESS",
              help="Also compare with every package installed on this device (data directory, unix:PATH or "
                   "HOST:PORT).")
@click.option("--suppressions", "suppressions_file", metavar="FILE", type=click.Path(exists=True, path_type=Path),
              help="Silence findings listed, each with its reason, in this file (docs/lint-rules.md): how an "
                   "APK's findings are silenced, since KSP writes its XML.")
@click.option("--show-suppressed", is_flag=True, help="List suppressed findings too, with their reasons.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as JUnit XML for CI: a testcase per app and rule, failed by an error.")
@click.pass_context
def lint_command(ctx: click.Context, app_dirs: tuple[Path, ...], as_json: bool, device: str | None,
                 suppressions_file: Path | None, show_suppressed: bool, junit: Path | None) -> None:
    """Check apps against the AppFunctions quality guidelines (docs/lint-rules.md).

    APP_DIR is an app folder, or a folder of app folders; APP.apk an APK, decoded for the
    newest SDK, its findings naming the APK's entries (APP.apk!/assets/...:LINE, lines of the
    decoded XML as `droidsim apk extract` writes it). Exit status: 0 clean or warnings only,
    1 errors, 2 an app or the device could not be read.

    Silence one finding, with the reason, in a comment above the function (Python)
    or inside its <appfunction> (XML), or, for an APK, in a --suppressions file:

    \b
        # droidsim-lint: disable=RULE reason
        <!-- droidsim-lint: disable=RULE reason -->
        <lint><suppress rule="RULE" function="NAME" reason="..."/></lint>
    """
    suppressions = _suppressions(suppressions_file)
    if junit:
        _check_writable(junit)
    peers = []
    if device:
        data = (ctx.obj or {}).get("data")
        try:
            with open_context(resolve(device, data)) as context:
                peers = peers_from_device(context.app_function_manager)
        except click.ClickException as error:
            error.exit_code = EXIT_UNREADABLE
            raise
    with ExitStack() as stack:
        apks = {}  # decoded folder -> (APK, decoded), to name findings in the APK's terms
        folders = []
        unreadable = []
        opener = None
        for path in app_dirs:
            if path.is_file():
                opener = opener or stack.enter_context(_opener())
                _decode(opener, path, stack, apks, folders, unreadable)
            else:
                folders += _folders(path)
        on_android_16 = {folder: _services_on_android_16(opener, apk) for folder, (apk, _) in apks.items()}
        report = lint_apps(folders, device_peers=peers, suppressions=suppressions, android16_services={
            folder: services for folder, services in on_android_16.items() if services is not None})
        report.apps = [_in_apk_terms(app, apks) for app in report.apps] + unreadable
    if junit:
        from sim.lint.junit_report import write_lint_junit

        write_lint_junit(junit, report)
    if as_json:
        print_json(report_json(report, show_suppressed))
    else:
        print_report(report, show_suppressed, console())
    ctx.exit(report.exit_code)


def _suppressions(path: Path | None) -> list:
    from sim.lint.suppressions import read_suppressions
    from sim.xmlsafe import XmlError

    try:
        return read_suppressions(path) if path else []
    except XmlError as error:
        refused = click.ClickException(f"{error} (nothing was linted)")
        refused.exit_code = EXIT_UNREADABLE
        raise refused from None


def _check_writable(path: Path) -> None:
    """Before any work: a report that could not be written at the end is refused now."""
    from sim.junit import JUnitPathError, check_writable

    try:
        check_writable(path)
    except JUnitPathError as error:
        refused = click.ClickException(str(error))
        refused.exit_code = EXIT_UNREADABLE
        raise refused from None


def _opener():
    from sim.pm.apk_tools import ApkOpener

    return ApkOpener()


def _decode(opener, apk: Path, stack: ExitStack, apks: dict, folders: list[Path], unreadable: list[AppReport]) -> None:
    from sim.apk.errors import ApkError

    try:
        folder, decoded = stack.enter_context(opener.extracted(apk, NEWEST.sdk_int))
    except ApkError as error:
        unreadable.append(AppReport(apk, error=str(error)))
        return
    apks[folder] = (apk, decoded)
    folders.append(folder)


def _services_on_android_16(opener, apk: Path) -> list[str] | None:
    """What an Android 16 phone indexes of the APK: its resources resolved for SDK 36 (as
    `droidsim apk extract` records it for the folder it writes, so the two lints agree)."""
    from sim.apk.extract_record import enabled_services

    services = enabled_services(opener, apk, (ANDROID_16.sdk_int,)).get(ANDROID_16.sdk_int)
    return None if services is None else list(services)


def _in_apk_terms(app: AppReport, apks: dict) -> AppReport:
    if app.app_dir not in apks:
        return app
    from sim.apk.folder import in_apk_terms

    apk, decoded = apks[app.app_dir]

    def named(text: str) -> str:
        return in_apk_terms(text, app.app_dir, apk.name, decoded)

    # A finding's file may be shown relative to the working directory; its APK entry is not.
    findings = [replace(f, file=named(str(Path(f.file).absolute())), message=named(f.message)) for f in app.findings]
    return AppReport(apk, app.package, findings, [named(n) for n in app.notes], app.error and named(app.error))


def _folders(path: Path) -> list[Path]:
    """The app folders ``path`` stands for; itself when it is none, so that the report names
    it as unreadable (exit 2) while the other apps are still linted."""
    try:
        return app_folders_in(path)
    except NotAnAppFolder:
        return [path]
