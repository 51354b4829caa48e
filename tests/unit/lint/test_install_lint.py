"""The install-time lint: XML and source read, app code never run."""

from __future__ import annotations

import sys

from droid.appfunctions.loader import app_package_name
from sim.lint import lint_apps, lint_installed_app
from sim.lint import lint_apps


def test_it_reads_the_source_without_importing_the_app(corpus_copy) -> None:
    app_dir = corpus_copy("p4_declared_default")
    module = app_dir / "books.py"
    module.write_text(module.read_text() + 'raise SystemExit("the app was imported")\n')

    (finding,) = lint_installed_app(app_dir)
    assert finding.rule == "P4" and finding.function_id.endswith("#search_books")
    assert "limit: int = 10" in module.read_text().splitlines()[finding.line - 1]
    assert app_package_name(app_dir) not in sys.modules


def test_the_cli_lints_the_xml_when_the_code_does_not_load(corpus_copy) -> None:
    app_dir = corpus_copy("p4_declared_default")
    module = app_dir / "books.py"
    module.write_text(module.read_text() + 'raise RuntimeError("broken on purpose")\n')

    (app,) = lint_apps([app_dir]).apps
    assert [f.rule for f in app.findings] == ["P4", "I1"]  # I1: install refuses code that does not load
    assert app.findings[1].message.startswith("INSTALL_FAILED_BAD_CODE: ") and "broken on purpose" in app.findings[1].message
    (note,) = app.notes
    assert "its code did not load, so its XML is linted instead" in note and "broken on purpose" in note


def test_a_legacy_v1_function_xml_is_noted_and_not_linted(tmp_path) -> None:
    app_dir = tmp_path / "legacy"
    (app_dir / "assets").mkdir(parents=True)
    (app_dir / "AndroidManifest.xml").write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.legacy">'
        '<application><service android:name=".LegacyService" '
        'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">'
        '<intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>'
        '<property android:name="android.app.appfunctions" android:value="legacy.xml"/>'
        "</service></application></manifest>"
    )
    (app_dir / "assets" / "legacy.xml").write_text(
        "<appfunctions><appfunction><function_id>legacy_do</function_id></appfunction></appfunctions>"
    )
    (app,) = lint_apps([app_dir]).apps
    assert app.findings == []
    assert app.notes == [f"{app_dir / 'assets' / 'legacy.xml'}: a legacy v1 function XML has no descriptions, so it is not linted"]
    assert lint_installed_app(app_dir) == []


def test_the_install_time_lint_of_an_apks_copy_claims_nothing_of_android_16(tmp_path, caplog) -> None:
    """The copy holds one SDK's resources (the travel APK's check-in service enabled from values-v37,
    on a device of SDK 37): what Android 16 indexes of it is not known there, so R1 says nothing; the
    APK linted itself, from its resources for both SDKs, has no R1 either."""
    import logging
    from pathlib import Path

    from sim.device import Device

    apk = Path(__file__).resolve().parents[2] / "apks" / "travel-signed.apk"
    with caplog.at_level(logging.INFO, logger="droidsim.pm"), Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(apk)
    assert "installed com.example.travel" in caplog.text and " R1 " not in caplog.text
