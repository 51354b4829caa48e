"""``droidsim conformance``: the conformance suite against a running device.

Like CTS, the run installs its helper apps (tests/conformance/apps) through the package
manager as the shell, acts as them with the credentials in the device's data folder (as adb
does), makes its caller a privileged, allowlisted agent, and afterwards uninstalls the apps and
puts the allowlists back as they were. It prints one row per case and exits 1 if any fails.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import click

from sim.cli.connection import open_context, resolve
from sim.cli.output import console, fail_with
from sim.conformance.registry import Case, for_sdk, select
from sim.conformance.runner import CaseResult, results_to_json, run_cases, summary
from sim.conformance.target import DeviceHandle, default_apps_root, open_target
from sim.zygote.process_manager import DEFAULT_CANCELLATION_TIMEOUT

_STYLES = {"pass": "green", "fail": "bold red"}
REPORT_WIDTH = 200
# Cases that make the helper app die or hang on purpose: the device logs a WARNING for each
# (docs/conformance.md), which the report explains so that nobody takes it for a fault.
DEVICE_WARNINGS = {
    "kill": "the helper app kills itself",
    "cancel-long-running": "the helper app ignores a cancellation and is killed",
    "cancel-not-invoke-callback": "the helper app ignores a cancellation and is killed",
}


@click.command("conformance")
@click.option("--device", "device_option", metavar="ADDRESS",
              help="Data directory, unix:PATH or HOST:PORT (default: the global --device, DROIDSIM_DEVICE, "
                   "else the device running on this machine, else .droidsim/device).")
@click.option("--data", "data_option", metavar="DIR",
              help="The device's data directory, for the apps' credentials (needed with a HOST:PORT address).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the results to FILE as JSON.")
@click.option("--case", "case_ids", multiple=True, metavar="ID", help="Run only this case (repeatable).")
@click.option("--apps", "apps_root", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The conformance apps folder (default: tests/conformance/apps of this checkout).")
@click.pass_context
def conformance_command(ctx: click.Context, device_option: str | None, data_option: str | None,
                        json_file: Path | None, case_ids: tuple[str, ...], apps_root: Path | None) -> None:
    """Run the conformance suite (the CTS checklist) against a device and report each case."""
    try:
        cases = select(case_ids)
    except KeyError as unknown:
        raise click.BadParameter(f"no case {unknown.args[0]!r}; `--case` takes the ids in the report",
                                 param_hint="--case") from None
    options = ctx.find_root().obj or {}
    address = resolve(device_option or options.get("device"), data_option or options.get("data"))
    if address.data_dir is None:
        raise click.ClickException(
            f"{address.target} is not a data directory: pass --data DIR, the device's data directory "
            "(the run reads its apps' credentials and traces there)"
        )
    device = DeviceHandle(
        address.target, address.data_dir, DEFAULT_CANCELLATION_TIMEOUT, lambda package: open_context(address, package)
    )
    results, sdk_int = _run(device, apps_root or default_apps_root(), cases)
    _print_report(results, address.target, sdk_int)
    if json_file is not None:
        json_file.write_text(json.dumps(results_to_json(results, address.target, sdk_int), indent=2) + "\n")
    if any(r.status == "fail" for r in results):
        raise SystemExit(1)


def _run(device: DeviceHandle, apps_root: Path, cases: list[Case]) -> tuple[list[CaseResult], int]:
    """Set the run up on the device and run the cases that check its SDK; a device that refuses
    the set-up (install, pm clear, the allowlists, uninstall) fails the command with its error."""
    out = console()
    spinner = out.status("installing the conformance apps") if out.is_terminal else contextlib.nullcontext()
    with spinner as status:

        def progress(result: CaseResult) -> None:
            if status is not None:
                status.update(f"{result.id}: {result.status}")

        try:
            with open_target(device, apps_root) as target:
                sdk_int = target.shell.sdk_int
                results = run_cases(for_sdk(cases, sdk_int), target, progress)
        except click.ClickException:
            raise
        except Exception as error:
            fail_with(error)
    return results, sdk_int


def _print_report(results: list[CaseResult], device: str, sdk_int: int) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"conformance against {device} (SDK {sdk_int})", title_justify="left")
    table.add_column("case", no_wrap=True)
    for column in ("spec", "result", "expected", "came"):
        table.add_column(column, overflow="fold")
    for result in results:
        table.add_row(
            result.id, result.spec, Text(result.status, style=_STYLES[result.status]),
            Text(result.expected), Text(result.actual),
        )
    out = console()
    if not out.is_terminal:
        out.width = max(out.width, REPORT_WIDTH)  # a log or CI page: no need to squeeze
    out.print(table)
    totals = summary(results)
    out.print(f"{totals['pass']} passed, {totals['fail']} failed")
    warned = [f"{r.id} ({DEVICE_WARNINGS[r.id]})" for r in results if r.id in DEVICE_WARNINGS]
    if warned:
        out.print(f"The device logs a WARNING for each of these cases, on purpose: {'; '.join(warned)}.",
                  soft_wrap=True)
