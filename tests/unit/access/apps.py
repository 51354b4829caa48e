"""Test apps for access control: copies of the CTS helper with another package name, other
permissions and access levels on some functions."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import HELPER_APP, HELPER_PACKAGE, copy_app

EXECUTE_APP_FUNCTIONS = "android.permission.EXECUTE_APP_FUNCTIONS"
EXECUTE_APP_FUNCTIONS_SYSTEM = "android.permission.EXECUTE_APP_FUNCTIONS_SYSTEM"
MANAGE_APP_FUNCTION_ACCESS = "android.permission.MANAGE_APP_FUNCTION_ACCESS"

# Helper functions given each access level by make_app(levels=LEVELED); all return a + b.
SELF_FUNCTION = "add"
SYSTEM_FUNCTION = "addAsync"
TRUSTED_FUNCTION = "add_invokeCallbackTwice"
LEVELED = {SELF_FUNCTION: "self", SYSTEM_FUNCTION: "system"}


def make_app(
    root: Path,
    package: str,
    uses: tuple[str, ...] = (),
    levels: dict[str, str] | None = None,
    declares: tuple[tuple[str, str], ...] = (),
) -> Path:
    """A helper copy named ``package`` that requests ``uses``, declares ``declares``
    (name, protectionLevel) and gives the functions in ``levels`` those access levels."""
    app = copy_app(HELPER_APP, root, _unused_folder(root, package))
    manifest = app / "AndroidManifest.xml"
    text = manifest.read_text().replace(f'package="{HELPER_PACKAGE}"', f'package="{package}"')
    entries = [f'    <uses-permission android:name="{p}" />' for p in uses]
    entries += [f'    <permission android:name="{n}" android:protectionLevel="{level}" />' for n, level in declares]
    text = text.replace("    <application>", "\n".join([*entries, "    <application>"]))
    manifest.write_text(text)
    xml = app / "assets" / "app_functions_v2.xml"
    functions = xml.read_text()
    for function_id, level in (levels or {}).items():
        anchor = f"<id>{function_id}</id>"
        assert anchor in functions, function_id
        functions = functions.replace(anchor, f"{anchor}\n        <accessLevel>{level}</accessLevel>", 1)
    xml.write_text(functions)
    return app


def _unused_folder(root: Path, package: str) -> str:
    """A folder name not taken yet, so one package can be built twice (an update)."""
    number = 0
    while (root / f"{package}-{number}").exists():
        number += 1
    return f"{package}-{number}"


def make_manifest_only(root: Path, package: str, uses: tuple[str, ...] = ()) -> Path:
    """An app with no AppFunctionService: a manifest and nothing else."""
    app = root / package
    app.mkdir(parents=True)
    permissions = "".join(f'    <uses-permission android:name="{p}" />\n' for p in uses)
    (app / "AndroidManifest.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" '
        f'package="{package}">\n{permissions}    <application />\n</manifest>\n'
    )
    return app
