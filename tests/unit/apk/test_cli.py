"""droidsim install / lint / apk inspect / apk extract on APKs, as a Kotlin developer runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sim.apk.reader import INSTALL_HINT
from sim.cli.main import cli
from sim.pm.spare_decoder import apk_answer
from tests.helpers import ShellOf
from tests.unit.apk.conftest import APKS, CANCEL, FETCH, SHOP, TRACK, apk_bytes, rewritten


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("sdk, tracking", [("36", False), ("37", True)])
def test_inspect_tells_what_each_sdk_indexes(sdk, tracking):
    result = run("apk", "inspect", str(APKS / "shop-signed.apk"), "--sdk", sdk, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["package"] == SHOP and report["refusal"] is None
    assert report["notes"] == []  # the shop declares the app schema: nothing is left out on either SDK
    assert report["services"] == [
        {"name": ".OrderFunctionService", "enabled": True, "enabled_from": "@bool/order_functions_enabled"},
        {"name": ".TrackingFunctionService", "enabled": tracking,
         "enabled_from": "@bool/tracking_functions_enabled" + (" (values-v37)" if tracking else "")},
    ]
    assert [f["id"] for f in report["functions"]] == [FETCH, CANCEL] + ([TRACK] if tracking else [])
    assert report["app_metadata"]["display_description"] == "Track and cancel your orders."
    assert report["signing"]["schemes"] == ["v1", "v2", "v3"]
    assert {"path": "res/xml/tracking_functions.xml", "entry": "res/xml/tracking_functions.xml"} in report["files"]


def test_inspect_says_what_install_would_refuse_and_exits_1(tmp_path):
    broken = tmp_path / "broken.apk"
    broken.write_bytes(rewritten(apk_bytes(), {"assets/order_functions.xml": None}))
    result = run("apk", "inspect", str(broken))
    assert result.exit_code == 1
    assert ("Install would refuse it: INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: broken.apk!/AndroidManifest.xml: service "
            "com.example.shop.OrderFunctionService names assets/order_functions.xml, which does not exist") in result.output


def test_inspect_prints_plain_lines_when_piped():
    result = run("apk", "inspect", str(APKS / "shop.apk"))
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"{APKS / 'shop.apk'}: {SHOP} on SDK 37 (unsigned)"
    assert "\x1b[" not in result.output and "Install would take it." in result.output


def test_extract_writes_a_folder_that_installs_to_the_same_catalog(tmp_path, device):
    folder = tmp_path / "shop"
    result = run("apk", "extract", str(APKS / "shop.apk"), str(folder))
    assert result.exit_code == 0, result.output
    assert result.output == f"Extracted {SHOP} (SDK 37) into {folder}: 6 files\n"
    from_folder = device.install(folder)
    assert from_folder.metadata.installed_from.kind == "folder"
    folder_catalog = [(f.id, f.description) for f in from_folder.metadata.app_functions]
    device.package_manager.uninstall(SHOP)
    from_apk = device.install(APKS / "shop.apk")
    assert [(f.id, f.description) for f in from_apk.metadata.app_functions] == folder_catalog
    assert from_apk.metadata.app_metadata == from_folder.metadata.app_metadata


def test_extract_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    result = run("apk", "extract", str(APKS / "shop.apk"), str(tmp_path))
    assert result.exit_code == 1
    assert f"{tmp_path} is not empty: extract writes into a new or empty folder" in result.output


def test_lint_names_the_apk_entry_and_the_line():
    result = run("lint", str(APKS / "shop.apk"), "--json")
    assert result.exit_code == 1, result.output
    findings = [f for app in json.loads(result.output)["apps"] for f in app["findings"]]
    assert [(f["rule"], f["file"], f["line"]) for f in findings] == [("D1", "shop.apk!/assets/order_functions.xml", 29)]


def test_lint_reports_an_apk_it_cannot_decode_and_exits_2():
    result = run("lint", str(APKS / "shop-config.fr.apk"))
    assert result.exit_code == 2
    assert "cannot lint: INSTALL_PARSE_FAILED_NOT_APK: shop-config.fr.apk is a split APK" in result.output


def test_install_takes_an_apk_file(droid_device, monkeypatch):
    monkeypatch.setattr("sim.cli.install.open_context", lambda *a, **k: ShellOf(droid_device))
    result = run("--device", "unused", "install", str(APKS / "shop.apk"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Success: {SHOP} (uid ")
    assert result.stdout.rstrip().endswith("3 functions)")


def test_without_androguard_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "androguard", None)
    monkeypatch.setitem(sys.modules, "androguard.core", None)
    # What the spare decoder (where APKs are read) answers, the tools' and the device's alike.
    assert apk_answer(apk_bytes(), "shop.apk", 37) == {"refused": ["INSTALL_FAILED_INTERNAL_ERROR", INSTALL_HINT]}
    assert "reinstall droidsim (pip install CHECKOUT" in INSTALL_HINT


def test_neither_the_cli_nor_a_device_imports_androguard_until_an_apk_is_read(tmp_path):
    probe = ("import sys, pathlib, sim.cli.main\nfrom sim.device import Device\n"
             "with Device(pathlib.Path(sys.argv[1]), isolated_apps=False): pass\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('androguard', 'loguru')\n"
             "             or m in ('sim.apk.reader', 'sim.apk.decode', 'sim.apk.archive')))")
    result = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "d")], capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout.strip() == "[]"
