"""`droidsim apk extract` records the SDK it resolved the folder for and the services each SDK
indexes (droidsim-extract.json): install refuses to mix the folder with a device of another
SDK, and lint on the folder finds what lint on the APK finds."""

from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.os import IllegalArgumentException
from sim.cli.main import cli
from sim.device import Device
from tests.apks.build import build_unsigned, missing_tools
from tests.helpers import REPO
from tests.unit.apk.conftest import APKS, CANCEL, FETCH, SHOP, TRACK

KOTLIN_SHOP = REPO / "docs" / "examples" / "kotlin-shop" / "shop"


def extract(apk: Path, folder: Path, *options: str) -> Path:
    result = CliRunner().invoke(cli, ["apk", "extract", str(apk), str(folder), *options])
    assert result.exit_code == 0, result.output
    return folder


def lint_findings(target: Path) -> tuple[int, list[tuple[str, str]]]:
    result = CliRunner().invoke(cli, ["lint", str(target), "--json"])
    report = json.loads(result.stdout)
    [app] = report["apps"]
    return result.exit_code, sorted((f["rule"], f["function_id"]) for f in app["findings"])


def test_extract_records_the_sdk_and_what_each_sdk_indexes(tmp_path):
    folder = extract(APKS / "shop.apk", tmp_path / "shop", "--sdk", "36")
    assert json.loads((folder / "droidsim-extract.json").read_text()) == {
        "apk": "shop.apk", "sdk": 36, "enabled_services": {
            "36": ["com.example.shop.OrderFunctionService"],
            "37": ["com.example.shop.OrderFunctionService", "com.example.shop.TrackingFunctionService"]}}


def test_the_documented_folder_is_what_extract_writes(tmp_path):
    folder = extract(APKS / "shop.apk", tmp_path / "shop")
    compared = filecmp.dircmp(folder, KOTLIN_SHOP)
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert files == sorted(str(p.relative_to(KOTLIN_SHOP)) for p in KOTLIN_SHOP.rglob("*") if p.is_file())
    assert all((folder / f).read_bytes() == (KOTLIN_SHOP / f).read_bytes() for f in files), compared.diff_files


@pytest.mark.parametrize("extracted_for, device_sdk, reason", [
    (37, 36, "INSTALL_FAILED_OLDER_SDK"), (36, 37, "INSTALL_FAILED_NEWER_SDK")])
def test_a_folder_is_refused_on_a_device_of_another_sdk(tmp_path, extracted_for, device_sdk, reason):
    folder = extract(APKS / "shop.apk", tmp_path / "shop", "--sdk", str(extracted_for))
    with Device(tmp_path / "data", isolated_apps=False, sdk=device_sdk) as device:
        with pytest.raises(IllegalArgumentException) as raised:
            device.install(folder)
        assert str(raised.value) == (
            f"{reason}: {folder} was extracted from shop.apk for SDK {extracted_for} (droidsim-extract.json); this "
            f"device is Android {device_sdk - 20} (SDK {device_sdk}): extract it again with --sdk {device_sdk}, or "
            "install the APK")
        assert device.registry.get(SHOP) is None


@pytest.mark.parametrize("sdk, indexed", [(36, [CANCEL, FETCH]), (37, [CANCEL, FETCH, TRACK])])
def test_a_folder_installs_on_the_sdk_it_was_extracted_for_as_the_apk_does(tmp_path, sdk, indexed):
    folder = extract(APKS / "shop.apk", tmp_path / "shop", "--sdk", str(sdk))
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        assert sorted(f.id for f in device.install(folder).metadata.app_functions) == indexed
        device.package_manager.uninstall(SHOP)
        assert sorted(f.id for f in device.install(APKS / "shop.apk").metadata.app_functions) == indexed


def test_a_record_that_is_not_one_is_refused(tmp_path, device):
    folder = extract(APKS / "shop.apk", tmp_path / "shop")
    (folder / "droidsim-extract.json").write_text('{"apk": "shop.apk", "sdk": "thirty-seven", "enabled_services": {}}')
    with pytest.raises(IllegalArgumentException, match=(
            f"^INSTALL_FAILED_INVALID_APK: {folder}/droidsim-extract.json: not the record `droidsim apk extract` "
            r"writes \(ValueError: invalid literal")):
        device.install(folder)


def test_lint_on_the_folder_and_on_the_apk_agree(tmp_path):
    """On Android 16 the shop's tracking service is disabled, so no call reaches the wrong
    service (R1): the APK's lint knows it from resources.arsc, the folder's from its record."""
    folder = extract(APKS / "shop.apk", tmp_path / "shop")
    assert lint_findings(folder) == lint_findings(APKS / "shop.apk") == (1, [("D1", CANCEL)])
    (folder / "droidsim-extract.json").unlink()  # a folder without its record: both services look enabled
    assert ("R1", TRACK) in lint_findings(folder)[1]


@pytest.mark.skipif(bool(missing_tools()), reason=f"building an APK needs {', '.join(missing_tools())}")
def test_lint_finds_r1_on_the_apk_and_on_its_folder_when_android_16_indexes_both_services(tmp_path):
    source = shutil.copytree(REPO / "tests" / "apks" / "shop", tmp_path / "source")
    bools = source / "res" / "values" / "bools.xml"
    bools.write_text(bools.read_text().replace('name="tracking_functions_enabled">false', 'name="tracking_functions_enabled">true'))
    apk = tmp_path / "shop.apk"
    build_unsigned(source, apk)
    folder = extract(apk, tmp_path / "shop")
    # Android 16 indexes only the last service and binds the first: every function is R1's.
    assert lint_findings(folder) == lint_findings(apk) == (1, [("D1", CANCEL), ("R1", CANCEL), ("R1", FETCH), ("R1", TRACK)])
