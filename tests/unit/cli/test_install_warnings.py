"""`droidsim install` prints, after Success, what a phone of the device's SDK would leave out."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli.main import cli
from tests.helpers import HELPER_APP, ShellOf, copy_app

SCHEMA_PROPERTY = '<property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />'


def test_install_warns_of_a_missing_app_schema_on_stderr(droid_device, monkeypatch, tmp_path):
    monkeypatch.setattr("sim.cli.install.open_context", lambda *a, **k: ShellOf(droid_device))
    app = copy_app(HELPER_APP, tmp_path)
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(SCHEMA_PROPERTY, ""))
    result = CliRunner().invoke(cli, ["--device", "unused", "install", str(app)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Success: android.app.appfunctions.cts.helper (uid ")
    [warning] = result.stderr.splitlines()
    assert warning.startswith(f"Warning: {manifest}:")
    assert "Android 17 reads its function XML with the platform's schema" in warning
    assert warning.endswith(f"Add {SCHEMA_PROPERTY} to the <service> (a Gradle build merges that asset in from "
                            "androidx.appfunctions; for a Python app droidsim appfunctions generate writes it).")

    copy = copy_app(HELPER_APP, tmp_path, "whole")  # as shipped: nothing to say
    result = CliRunner().invoke(cli, ["--device", "unused", "install", str(copy)])
    assert result.exit_code == 0 and result.stderr == ""
