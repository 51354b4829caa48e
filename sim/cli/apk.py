"""``droidsim apk inspect APP.apk [--sdk N] [--json]`` and ``droidsim apk extract APP.apk DIR``.

Both decode the APK here, in the user's own process (no device): inspect tells what a device
of that SDK would index and whether it would refuse the APK, by running install's own checks
on the decoded folder; extract writes that folder, which then installs as a code-less app.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from sim.cli.output import console, print_json, print_table
from sim.platform_version import NEWEST, VERSIONS, platform_version

_SDK = click.option("--sdk", type=click.Choice([str(v) for v in sorted(VERSIONS)]), default=str(NEWEST.sdk_int),
                    show_default=True, help="Resolve resources (and index services) as a device of this SDK does.")
_APK = click.argument("apk", metavar="APP.apk", type=click.Path(exists=True, dir_okay=False, path_type=Path))


@click.group("apk")
def apk_command() -> None:
    """Look into a real APK (a Gradle build's app-debug.apk) without a device."""


@apk_command.command("inspect")
@_APK
@_SDK
@click.option("--json", "as_json", is_flag=True, help="Print the inspection as JSON.")
def inspect_command(apk: Path, sdk: str, as_json: bool) -> None:
    """What a device of --sdk would index from APP.apk, and what install would refuse.

    Exit status: 0 when install would take it, 1 when it would refuse it.
    """
    report = inspection(apk, int(sdk))
    if as_json:
        print_json(report)
    else:
        _print(report)
    raise SystemExit(1 if report["refusal"] else 0)


@apk_command.command("extract")
@_APK
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@_SDK
def extract_command(apk: Path, folder: Path, sdk: str) -> None:
    """Write APP.apk as the equivalent text app folder DIR (new or empty), resolved for --sdk.

    DIR holds AndroidManifest.xml, assets/ and res/xml/ as text, and droidsim-extract.json: the
    SDK it was resolved for and the services each SDK enables. `droidsim install DIR` installs
    it as a code-less app, as it would the APK, on a device of that SDK (another refuses it);
    `droidsim lint DIR` finds what `droidsim lint APP.apk` finds.
    """
    from sim.apk.errors import ApkError
    from sim.apk.extract_record import EXTRACT_RECORD, ExtractRecord, enabled_services
    from sim.apk.folder import write_folder, write_new
    from sim.pm.apk_tools import ApkOpener

    if folder.exists() and any(folder.iterdir()):
        raise click.ClickException(f"{folder} is not empty: extract writes into a new or empty folder")
    try:
        with ApkOpener() as opener, opener.extracted(apk, int(sdk)) as (_, decoded):
            record = ExtractRecord(apk.name, int(sdk), enabled_services(opener, apk))
            folder.mkdir(parents=True, exist_ok=True)
            write_folder(decoded, folder)
            write_new(folder / EXTRACT_RECORD, record.to_json().encode())
    except ApkError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Extracted {decoded.package} (SDK {sdk}) into {folder}: {len(decoded.files) + 1} files")


def inspection(apk: Path, sdk: int) -> dict:
    """The APK as a device of ``sdk`` would see it; ``refusal`` is install's error, or None."""
    from sim.apk.errors import ApkError
    from sim.pm.apk_tools import extracted

    report: dict = {"apk": str(apk), "sdk": sdk, "package": None, "signing": None, "services": [], "files": [],
                    "app_metadata": None, "functions": [], "notes": [], "refusal": None}
    try:
        # Unchecked here: install's own checks run on the folder below, the manifest's among them.
        with extracted(apk, sdk, checked=False) as (folder, decoded):
            report.update(package=decoded.package, signing={
                "schemes": list(decoded.signing.schemes), "certificate_sha256": list(decoded.signing.certificate_digests)})
            report["services"] = [{"name": s.name, "enabled": s.enabled, "enabled_from": s.enabled_from}
                                  for s in decoded.services]
            report["files"] = [{"path": f.path, "entry": f.entry} for f in decoded.files]
            _checked_by_install(report, folder, apk.name, decoded, sdk)
    except ApkError as error:
        report["refusal"] = str(error)
    return report


def _checked_by_install(report: dict, folder: Path, apk_name: str, decoded, sdk: int) -> None:
    from sim.apk.folder import in_apk_terms
    from sim.cli.shell import signature_json
    from droidsim.v1.metadata_pb2 import InstalledFrom
    from sim.pm.app_parser import parse_app
    from sim.pm.installed_from import APK
    from sim.pm.install_warnings import install_warnings
    from sim.responses.types import shared_types
    from sim.pm.code_verifier import InProcessCodeVerifier
    from sim.pm.install_error import InstallError

    try:  # install's own checks; a decoded APK has no code to run
        parsed = parse_app(folder, InProcessCodeVerifier(), lambda manifest: None, platform_version(sdk))
    except InstallError as error:
        report["refusal"] = in_apk_terms(str(error), folder, apk_name, decoded)
        return
    app = parsed.metadata.app_metadata
    report["app_metadata"] = {"description": app.description, "display_description": app.display_description}
    shared = shared_types(parsed.metadata)
    report["functions"] = [{"id": f.id, "service": f.service_name, **signature_json(f, shared)}
                           for f in parsed.metadata.app_functions]
    report["notes"] = [in_apk_terms(str(note), folder, apk_name, decoded) for note in parsed.notes]
    # Every warning install prints of the APK alone (a cassette's are install's: inspect has none).
    source = InstalledFrom(kind=APK, file_name=apk_name, signing_schemes=decoded.signing.schemes,
                           certificate_sha256=decoded.signing.certificate_digests)
    report["notes"] += install_warnings(parsed, source, platform_version(sdk))


def _print(report: dict) -> None:
    from sim.cli.shell import parameters_line

    out = console()
    signing = report["signing"]
    signed = ", ".join(signing["schemes"]) if signing and signing["schemes"] else "unsigned"
    click.echo(f"{report['apk']}: {report['package'] or '?'} on SDK {report['sdk']} ({signed})")
    for digest in (signing or {}).get("certificate_sha256", []):
        click.echo(f"  signer certificate SHA-256 {digest}")
    if report["services"]:
        print_table("Services", ["service", "enabled", "from"],
                    [[s["name"], "yes" if s["enabled"] else "no", s["enabled_from"]] for s in report["services"]])
    if report["files"]:
        print_table("Decoded files", ["file", "from APK entry"], [[f["path"], f["entry"]] for f in report["files"]])
    if report["app_metadata"]:
        click.echo(f"App description: {report['app_metadata']['description']}")
        click.echo(f"Display description: {report['app_metadata']['display_description']}")
    if report["functions"]:
        print_table("Indexed functions", ["function", "service", "parameters"],
                    [[f["id"], f["service"], parameters_line(f["parameters"])] for f in report["functions"]])
    for note in report["notes"]:  # what a phone of this SDK leaves out (install's warnings)
        click.echo(f"Warning: {note}")
    if report["refusal"]:
        # The refusal quotes the APK's own text: never read as markup ("[facet 'pattern']" would vanish).
        out.print(f"[bold red]Install would refuse it:[/] {escape(report['refusal'])}", soft_wrap=True, markup=True)
    else:
        click.echo("Install would take it.")
