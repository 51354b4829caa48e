"""What an install takes but says a word about, in its output and in logcat: an unsigned APK,
an APK without AppFunctions on this SDK, a cassette's calls of functions this SDK does not index."""

from __future__ import annotations

import logging
import shutil
from contextlib import nullcontext
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from sim.device import Device
from sim.responses.staging import ResponseOptions
from tests.apks.build import build_unsigned, missing_tools
from tests.helpers import REPO
from tests.unit.apk.conftest import APKS, SHOP, TRACK

UNSIGNED = (
    "shop.apk is not signed: Android refuses an unsigned APK (INSTALL_PARSE_FAILED_NO_CERTIFICATES); droidsim "
    "installs it, but no signed build can update it until it is uninstalled (./gradlew assembleDebug signs with the "
    "debug key; sign a release build with apksigner)")
SHOP_CASSETTE = REPO / "docs" / "examples" / "shop.cassette.yaml"
PLATFORM_SERVICE = "androidx.appfunctions.service.PlatformAppFunctionService"

needs_aapt2 = pytest.mark.skipif(bool(missing_tools()), reason=f"building an APK needs {', '.join(missing_tools())}")


def install(device, *args: str, monkeypatch):
    monkeypatch.setattr("sim.cli.install.open_context", lambda *a, **k: nullcontext(device.shell_context()))
    return CliRunner().invoke(cli, ["--device", "unused", "install", *args])


def test_an_unsigned_apk_installs_with_a_warning_in_the_output_and_in_logcat(device, monkeypatch, caplog):
    with caplog.at_level(logging.WARNING, logger="droidsim.pm"):
        result = install(device, str(APKS / "shop.apk"), monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Success: {SHOP} (uid ")
    assert result.stderr == f"Warning: {UNSIGNED}\n"
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [f"{SHOP}: {UNSIGNED}"]


def test_a_signed_apk_installs_without_a_word(device, monkeypatch, caplog):
    with caplog.at_level(logging.WARNING, logger="droidsim.pm"):
        result = install(device, str(APKS / "shop-signed.apk"), monkeypatch=monkeypatch)
    assert result.exit_code == 0 and result.stderr == ""
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def _built(source: Path, out: Path) -> Path:
    build_unsigned(source, out)
    return out


def _no_functions_apk(tmp_path: Path, *uses_permissions: str) -> Path:
    """An APK whose build lost the AppFunctions library: no AppFunctionService, no function XML."""
    source = tmp_path / "app"
    (source / "res" / "values").mkdir(parents=True)
    (source / "assets").mkdir()
    (source / "res" / "values" / "strings.xml").write_text(
        '<resources><string name="app_name">App</string></resources>')
    uses = "".join(f'<uses-permission android:name="{p}"/>' for p in uses_permissions)
    (source / "AndroidManifest.xml").write_text(
        f'<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">{uses}'
        '<application android:label="@string/app_name"/></manifest>')
    return _built(source, tmp_path / "app.apk")


SETUP = (
    'add the AppFunctions library and its KSP compiler to the app module: implementation("androidx.appfunctions:'
    'appfunctions:VERSION") (it merges androidx.appfunctions.service.PlatformAppFunctionService into the manifest; '
    'before 1.0.0-alpha10 also "androidx.appfunctions:appfunctions-service"), ksp("androidx.appfunctions:'
    'appfunctions-compiler:VERSION") with ksp { arg("appfunctions:aggregateAppFunctions", "true") }, and annotate '
    "the functions with @AppFunction; a release build must keep the service (R8 keep rules)")
NO_SERVICE = ("no enabled service has the android.app.appfunctions.AppFunctionService intent filter, so the "
              "AppFunctions library is not in the build (an agent app needs none)")


@needs_aapt2
def test_an_apk_without_any_appfunctions_is_said_so_by_install_and_inspect_and_fails_lint(tmp_path, device, monkeypatch):
    apk = _no_functions_apk(tmp_path)
    warning = f"Warning: com.example.app has no AppFunctions that Android 17 (SDK 37) indexes: {NO_SERVICE}: {SETUP}"
    result = install(device, str(apk), monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[1] == warning
    inspected = CliRunner().invoke(cli, ["apk", "inspect", str(apk)])
    assert inspected.exit_code == 0, inspected.output
    assert result.stderr.splitlines() == [line for line in inspected.stdout.splitlines() if line.startswith("Warning: ")]
    linted = CliRunner().invoke(cli, ["lint", str(apk)])
    assert linted.exit_code == 1, linted.output
    assert f"error I3 com.example.app has no AppFunctions a phone indexes: {NO_SERVICE}." in linted.output
    assert f"fix: {SETUP[0].upper()}{SETUP[1:]}." in linted.output


@needs_aapt2
def test_the_skeleton_of_an_apk_without_appfunctions_says_why_and_the_set_up_and_writes_nothing(tmp_path):
    """It said only 'declares no functions of a service: there is nothing to double' (kotlin walk, round 4)."""
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(_no_functions_apk(tmp_path)), str(tmp_path / "double")])
    assert result.exit_code == 1
    assert result.output == (f"Error: com.example.app has no AppFunctions that Android 17 (SDK 37) indexes: {NO_SERVICE}: "
                             f"{SETUP}. There is nothing to double\n")
    assert not (tmp_path / "double").exists()


@needs_aapt2
def test_an_agent_apk_needs_no_appfunctions_of_its_own(tmp_path):
    linted = CliRunner().invoke(cli, ["lint", str(_no_functions_apk(tmp_path, "android.permission.EXECUTE_APP_FUNCTIONS"))])
    assert linted.exit_code == 0, linted.output
    assert "I3" not in linted.output


@needs_aapt2
def test_an_apk_whose_library_service_is_disabled_on_this_sdk_says_which(tmp_path, device, monkeypatch):
    """The bank with the library's enabled state left false (no values-v36 override)."""
    source = shutil.copytree(REPO / "tests" / "apks" / "bank", tmp_path / "bank")
    shutil.rmtree(source / "res" / "values-v36")
    result = install(device, str(_built(source, tmp_path / "bank.apk")), monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[1] == (
        f"Warning: com.example.bank has no AppFunctions that Android 17 (SDK 37) indexes: its functions are declared "
        f"by service {PLATFORM_SERVICE}, which Android 17 (SDK 37) does not index (android:enabled false on this SDK; "
        "app-level XML before Android 17)")


@pytest.mark.parametrize("sdk, indexed", [(36, False), (37, True)])
def test_one_cassette_serves_both_sdks(tmp_path, sdk, indexed):
    """trackParcel's service is enabled from v37: on Android 16 its recorded call is typed, kept
    and said to be unused; on Android 17 it answers."""
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        package = device.install(APKS / "shop-signed.apk", responses=ResponseOptions(cassette=SHOP_CASSETTE))
        assert (TRACK in {f.id for f in package.metadata.app_functions}) == indexed
        assert dict(package.metadata.answers.recorded) == {
            "com.example.shop.OrderFunctionService#fetchOrderStatus": 2,
            "com.example.shop.OrderFunctionService#cancelOrder": 1, **({TRACK: 1} if indexed else {})}
        if indexed:
            from droid.appfunctions import AppFunctionData, ExecuteAppFunctionRequest

            manager = device.shell_context().app_function_manager
            response = manager.execute_app_function(
                ExecuteAppFunctionRequest(SHOP, TRACK, AppFunctionData({"orderId": "ORD-1234"})))
            assert response.return_value == "Leipzig parcel centre, out for delivery"


def test_on_android_16_the_cassette_says_which_calls_it_keeps_unused(tmp_path, monkeypatch):
    with Device(tmp_path / "data", isolated_apps=False, sdk=36) as device:
        result = install(device, str(APKS / "shop-signed.apk"), "--responses", str(SHOP_CASSETTE), monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"Warning: shop.cassette.yaml: 1 recorded call of {TRACK} kept unused: this device does not index that "
        "function (a device of another SDK does)\n")


def test_a_typo_in_an_unindexed_functions_entry_still_fails_on_android_16(tmp_path):
    cassette = tmp_path / "shop.cassette.yaml"
    cassette.write_text(SHOP_CASSETTE.read_text().replace("parameters: {orderId: ORD-1234}\n      response: Leipzig",
                                                          "parameters: {orderID: ORD-1234}\n      response: Leipzig"))
    from droid.os import IllegalArgumentException

    with Device(tmp_path / "data", isolated_apps=False, sdk=36) as device:
        with pytest.raises(IllegalArgumentException, match=r"INSTALL_FAILED_BAD_RESPONSES: shop.cassette.yaml: "
                                                            r"trackParcel\[0\].parameters.orderID: .* has no such parameter"):
            device.install(APKS / "shop-signed.apk", responses=ResponseOptions(cassette=cassette))
