"""Every way an APK is refused: a clear error naming the problem, and nothing installed.

The hostile APKs are made here from bytes: the checked-in shop.apk rewritten, or zips built
from nothing. Each goes through the device, so through the verifier's child."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from droid.os import IllegalArgumentException
from tests.unit.apk.conftest import APKS, apk_bytes, rewritten

ENABLED_REFERENCE = bytes.fromhex("0000027f")  # android:enabled="@bool/order_functions_enabled" (0x7F020000)


def zip_of(entries: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in entries:
            archive.writestr(zipfile.ZipInfo(name), content)
    return out.getvalue()


def manifest_of(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("AndroidManifest.xml")


def refused(device, path, message: str) -> None:
    """``message`` is the whole error, the APK's file name written as NAME."""
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(path)
    assert str(raised.value) == message.replace("NAME", path.name)
    assert device.registry.all() == []
    assert list((device.data_dir / "app").iterdir()) == []


def test_not_a_zip(device, write_apk):
    refused(device, write_apk(b"just text\n"),
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is not an APK: not a readable zip (File is not a zip file)")


def test_a_truncated_apk(device, write_apk):
    data = apk_bytes()
    refused(device, write_apk(data[: len(data) // 2]),
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is not an APK: not a readable zip (File is not a zip file)")


def test_a_zip_without_a_manifest(device, write_apk):
    refused(device, write_apk(rewritten(apk_bytes(), {"AndroidManifest.xml": None})),
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is not an APK: it has no AndroidManifest.xml")


@pytest.mark.parametrize("entry", ["../escape.xml", "assets/../../escape.xml", "/etc/escape.xml", "assets\\..\\x.xml"])
def test_entry_names_that_lead_out_of_the_apk(device, write_apk, entry):
    refused(device, write_apk(rewritten(apk_bytes(), add={entry: b"x"})),
            f"INSTALL_FAILED_INVALID_APK: NAME has an entry named {entry!r}, which leads out of the APK")


def test_the_same_entry_twice(device, write_apk):
    with pytest.warns(UserWarning, match="Duplicate name"):
        data = rewritten(apk_bytes(), add={"AndroidManifest.xml": manifest_of(apk_bytes())})
    refused(device, write_apk(data), "INSTALL_FAILED_INVALID_APK: NAME has two entries named 'AndroidManifest.xml'")


def test_more_entries_than_the_device_takes(device, write_apk):
    entries = [("AndroidManifest.xml", manifest_of(apk_bytes()))] + [(f"assets/{i}", b"") for i in range(100_000)]
    refused(device, write_apk(zip_of(entries)),
            "INSTALL_FAILED_INVALID_APK: NAME has 100001 entries; the device takes at most 100000")


def test_declared_sizes_past_the_limit_are_refused_before_anything_inflates(device, write_apk):
    """A zip bomb's central directory says what it would inflate to: 2 x 4 GiB here, in a few bytes."""
    data = bytearray(zip_of([("AndroidManifest.xml", b"a"), ("assets/a", b"b"), ("assets/b", b"c")]))
    central = data.find(b"PK\x01\x02")
    for _ in range(2):
        central = data.find(b"PK\x01\x02", central + 1)
        struct.pack_into("<I", data, central + 24, 0xFFFFFFF0)  # the uncompressed size
    refused(device, write_apk(bytes(data)),
            "INSTALL_FAILED_INVALID_APK: NAME declares more than 1073741824 bytes once inflated (a zip bomb?)")


def test_one_entry_inflating_past_what_the_device_reads(device, write_apk):
    bomb = rewritten(apk_bytes(), {"resources.arsc": bytes(33 * 1024 * 1024)})
    refused(device, write_apk(bomb),
            "INSTALL_FAILED_INVALID_APK: NAME!/resources.arsc declares 34603008 bytes; the device reads at most 33554432")


def test_an_app_bundle_asks_for_a_universal_apk(device, write_apk):
    bundle = zip_of([("BundleConfig.pb", b""), ("base/manifest/AndroidManifest.xml", b"")])
    refused(device, write_apk(bundle, "app-release.aab"),
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is an Android App Bundle (.aab), not an APK: build a universal APK "
            "(bundletool build-apks --mode=universal, or ./gradlew assembleDebug)")


def test_an_apk_set_asks_for_a_universal_apk(device, write_apk):
    apks = zip_of([("toc.pb", b""), ("splits/base-master.apk", apk_bytes())])
    refused(device, write_apk(apks, "app.apks"),
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is an APK set (.apks), not an APK: build a universal APK "
            "(bundletool build-apks --mode=universal, or ./gradlew assembleDebug)")


def test_malformed_binary_xml(device, write_apk):
    refused(device, write_apk(rewritten(apk_bytes(), {"AndroidManifest.xml": b"\x03\x00\x08\x00" + b"\xff" * 64})),
            "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: NAME!/AndroidManifest.xml is not valid binary XML")


def test_an_element_name_xml_does_not_allow_is_refused_not_renamed(device, write_apk):
    """aapt2 writes only names XML allows; a name with a space is a forged manifest, and the
    device refuses it rather than installing what a renamed element would mean."""
    manifest = manifest_of(apk_bytes()).replace("service".encode("utf-16-le"), "serv ce".encode("utf-16-le"))
    refused(device, write_apk(rewritten(apk_bytes(), {"AndroidManifest.xml": manifest})),
            "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: NAME!/AndroidManifest.xml is not valid binary XML "
            "(Invalid tag name 'serv ce')")


def test_a_malformed_resource_table(device, write_apk):
    with pytest.raises(IllegalArgumentException, match=r"^INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: app.apk!/resources.arsc "):
        device.install(write_apk(rewritten(apk_bytes(), {"resources.arsc": b"\x02\x00\x0c\x00" + b"\x00" * 40})))
    assert device.registry.all() == []


def test_a_reference_resources_arsc_does_not_define(device, write_apk):
    manifest = manifest_of(apk_bytes())
    assert manifest.count(ENABLED_REFERENCE) == 1
    broken = manifest.replace(ENABLED_REFERENCE, bytes.fromhex("ff00027f"))
    refused(device, write_apk(rewritten(apk_bytes(), {"AndroidManifest.xml": broken})),
            "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: NAME!/AndroidManifest.xml:7: <service> android:enabled "
            "refers to resource 0x7F0200FF, which resources.arsc does not define")


def test_a_property_naming_a_missing_asset(device, write_apk):
    refused(device, write_apk(rewritten(apk_bytes(), {"assets/order_functions.xml": None})),
            "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: NAME!/AndroidManifest.xml: service "
            "com.example.shop.OrderFunctionService names assets/order_functions.xml, which does not exist")


def test_a_property_naming_a_missing_xml_resource(device, write_apk):
    refused(device, write_apk(rewritten(apk_bytes(), {"res/xml/tracking_functions.xml": None})),
            "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: NAME!/AndroidManifest.xml: service "
            "com.example.shop.TrackingFunctionService names @xml/tracking_functions (res/xml/tracking_functions.xml), "
            "which does not exist")


def test_invalid_function_xml_names_the_entry_and_line(device, write_apk):
    text = zipfile.ZipFile(io.BytesIO(apk_bytes())).read("assets/order_functions.xml").decode()
    broken = text.replace("<enabledByDefault>true</enabledByDefault>", "<enabledByDefault>true</enabledByDefaul>", 1)
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(write_apk(rewritten(apk_bytes(), {"assets/order_functions.xml": broken.encode()})))
    assert str(raised.value).startswith("INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: app.apk!/assets/order_functions.xml:5:")
    assert device.registry.all() == []


def test_an_asset_that_is_not_text(device, write_apk):
    refused(device, write_apk(rewritten(apk_bytes(), {"assets/order_functions.xml": b"\xff\xfe<appfunctions/>"})),
            "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: NAME!/assets/order_functions.xml is not UTF-8 text "
            "('utf-8' codec can't decode byte 0xff in position 0: invalid start byte)")


def test_a_split_apk_asks_for_a_universal_apk(device):
    refused(device, APKS / "shop-config.fr.apk",
            "INSTALL_PARSE_FAILED_NOT_APK: NAME is a split APK (config.fr), not a whole app: build a universal APK "
            "(bundletool build-apks --mode=universal, or ./gradlew assembleDebug)")


def test_an_apk_larger_than_the_device_takes_is_refused_before_it_is_read_whole(device, write_apk, monkeypatch):
    monkeypatch.setattr("sim.apk.folder.MAX_APK_BYTES", 1000)
    path = write_apk(apk_bytes())
    refused(device, path, f"INSTALL_FAILED_INVALID_APK: {path} is larger than the 1000 bytes the device takes")
