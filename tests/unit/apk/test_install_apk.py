"""droidsim install APP.apk: decoded for the device's SDK, indexed by the folder pipeline,
updated only by its own signers, gone without a trace when uninstalled."""

from __future__ import annotations

import hashlib
import ssl

import pytest

from droid.appfunctions import AppFunctionNotSupportedException, ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.os import IllegalArgumentException
from sim.device import Device
from tests.unit.apk.conftest import APKS, CANCEL, FETCH, SHOP, TRACK


def certificate_digest(key: str) -> str:
    """What apksigner prints as the certificate's SHA-256, from the checked-in certificate itself."""
    pem = (APKS / "keys" / f"{key}.x509.pem").read_text()
    return hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest()


def function_ids(package) -> list[str]:
    return sorted(f.id for f in package.metadata.app_functions)


def test_android_16_indexes_only_the_service_enabled_below_37(device36):
    package = device36.install(APKS / "shop.apk")
    assert function_ids(package) == [CANCEL, FETCH]


def test_android_17_takes_the_values_v37_override_and_reads_the_binary_res_xml_functions(device):
    package = device.install(APKS / "shop.apk")
    assert function_ids(package) == [CANCEL, FETCH, TRACK]
    track = next(f for f in package.metadata.app_functions if f.id == TRACK)
    assert track.description == "Tells where the parcel of a shipped order is now."


def test_the_binary_app_metadata_resolves_its_string_in_the_default_locale(device):
    metadata = device.install(APKS / "shop.apk").metadata.app_metadata
    assert metadata.display_description == "Track and cancel your orders."  # not the values-fr translation
    assert metadata.description.startswith("Online shop orders: look up an order by its ID")


def test_the_file_name_does_not_matter_only_the_content(device, write_apk):
    package = device.install(write_apk((APKS / "shop.apk").read_bytes(), "app-debug.zip"))
    assert package.metadata.installed_from.file_name == "app-debug.zip"


def test_an_unsigned_apk_installs_and_is_recorded_as_unsigned(device):
    apk = device.install(APKS / "shop.apk").metadata.installed_from
    assert apk.kind == "apk"
    assert (list(apk.signing_schemes), list(apk.certificate_sha256)) == ([], [])
    assert apk.sha256 == hashlib.sha256((APKS / "shop.apk").read_bytes()).hexdigest()


def test_a_signed_apk_records_its_schemes_and_the_certificate_digest(device):
    apk = device.install(APKS / "shop-signed.apk").metadata.installed_from
    assert list(apk.signing_schemes) == ["v1", "v2", "v3"]
    assert list(apk.certificate_sha256) == [certificate_digest("test")]


def test_an_update_signed_by_another_key_is_refused_and_changes_nothing(device):
    before = device.install(APKS / "shop-signed.apk")
    with pytest.raises(IllegalArgumentException) as refused:
        device.install(APKS / "shop-other-key.apk")
    assert str(refused.value) == (
        f"INSTALL_FAILED_UPDATE_INCOMPATIBLE: {SHOP} is installed signed by certificate SHA-256 "
        f"{certificate_digest('test')}; this update is signed by certificate SHA-256 {certificate_digest('other')} "
        f"(uninstall it first to replace it)")
    after = device.registry.get(SHOP)
    assert (after.app_dir, after.metadata) == (before.app_dir, before.metadata)
    assert sorted(p.name for p in (device.data_dir / "app").iterdir()) == [before.app_dir.name]


def test_an_unsigned_update_of_a_signed_apk_is_refused_too(device):
    device.install(APKS / "shop-signed.apk")
    with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_UPDATE_INCOMPATIBLE: .* this update is signed by no one"):
        device.install(APKS / "shop.apk")


def test_an_update_by_the_same_signer_keeps_uid_and_data(device):
    first = device.install(APKS / "shop-signed.apk")
    (first.data_dir / "notes.txt").write_text("kept")
    second = device.install(APKS / "shop-signed.apk")
    assert second.uid == first.uid
    assert (second.data_dir / "notes.txt").read_text() == "kept"


def test_uninstall_removes_the_decoded_copy_and_the_data(device):
    package = device.install(APKS / "shop-signed.apk")
    device.package_manager.uninstall(SHOP)
    assert not package.app_dir.exists() and not package.data_dir.exists()
    assert device.registry.get(SHOP) is None
    device.install(APKS / "shop-other-key.apk")  # a new install: whoever signs it


def test_the_apk_origin_and_signer_survive_a_restart(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(APKS / "shop-signed.apk")
    with Device(tmp_path / "data", isolated_apps=False) as device:
        assert list(device.registry.get(SHOP).metadata.installed_from.certificate_sha256) == [certificate_digest("test")]
        with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_UPDATE_INCOMPATIBLE"):
            device.install(APKS / "shop-other-key.apk")


def test_a_call_answers_from_no_dex_it_refuses_naming_the_call(device):
    device.install(APKS / "shop.apk")
    manager = device.shell_context().app_function_manager
    request = ExecuteAppFunctionRequest(SHOP, FETCH, AppFunctionData({"orderId": "ORD-1234"}))
    with pytest.raises(AppFunctionNotSupportedException, match=f"{SHOP} has no answer for {FETCH}"):
        manager.execute_app_function(request)


def test_the_installed_copy_keeps_the_apk_as_base_apk(device):
    package = device.install(APKS / "shop.apk")
    assert (package.app_dir / "base.apk").read_bytes() == (APKS / "shop.apk").read_bytes()
    manifest = (package.app_dir / "AndroidManifest.xml").read_text()
    assert 'android:enabled="true"' in manifest and "@7F" not in manifest


def test_list_app_functions_json_says_the_package_came_from_a_signed_apk(device):
    from sim.cli.shell import functions_as_json

    device.install(APKS / "shop-signed.apk")
    listing = functions_as_json(device.shell_context().app_function_manager.search_app_functions(None))
    sha256 = hashlib.sha256((APKS / "shop-signed.apk").read_bytes()).hexdigest()
    assert {f["id"]: f["installed_from"] for f in listing[SHOP]}[FETCH] == {
        "kind": "apk", "file": "shop-signed.apk", "sha256": sha256, "signing_schemes": ["v1", "v2", "v3"],
        "certificate_sha256": [certificate_digest("test")]}


def test_dumpsys_says_apk_and_unsigned_or_folder(device, tmp_path):
    from tests.helpers import SAMPLE_APPS

    device.install(APKS / "shop.apk")
    device.install(SAMPLE_APPS / "weather")
    lines = device.shell_context().app_function_manager.dump().splitlines()
    shop = next(line for line in lines if line.startswith(f"  {SHOP} "))
    sha256 = hashlib.sha256((APKS / "shop.apk").read_bytes()).hexdigest()
    assert shop.endswith(f" from=apk:shop.apk sha256={sha256} unsigned")
    assert next(line for line in lines if line.startswith("  com.example.weather ")).endswith(" from=folder")
