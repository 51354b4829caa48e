"""Hostile XML in an app, installed through a running device: external entities, entity
expansion, a huge or deeply nested document, a wrong encoding. Each is refused with the
install reason of the file it is in, nothing of the app remains, and the device keeps serving.

The parser's own refusals are tested in tests/unit/xml/test_xmlsafe.py; here they travel the
whole way: binder call, installer, refusal, clean-up. So do app folders that would make the
installer read without end (a link to /dev/zero, a FIFO, a linked folder, a huge file) or read
outside the app (an asset path that escapes it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.pm.installer import MAX_APP_BYTES
from tests.faults.conftest import FAULTY_APP, others_keep_being_served, shell
from tests.helpers import copy_app
from tests.unit.xml.test_xmlsafe import BILLION_LAUGHS, XXE

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

HOSTILE = "com.example.hostile"
FILES = {
    "AndroidManifest.xml": "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
    "assets/app_functions_v2.xml": "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML",
    "res/xml/app_metadata.xml": "INSTALL_PARSE_FAILED_BAD_APP_METADATA",
}


def huge(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper


ATTACKS = {
    "external-entity": lambda path: path.write_bytes(XXE),
    "entity-expansion": lambda path: path.write_bytes(BILLION_LAUGHS),
    "huge": huge,
    "deeply-nested": lambda path: path.write_bytes(b"<e>" * 100_000 + b"</e>" * 100_000),
    "wrong-encoding": lambda path: path.write_bytes(b'<?xml version="1.0" encoding="UTF-16"?><manifest/>'),
}
REASONS = {
    "external-entity": "must not declare entities",
    "entity-expansion": "entity",  # libxml2 stops the expansion, or the DOCTYPE check refuses it
    "huge": "larger than the 8388608-byte limit",
    "deeply-nested": "could not be parsed",
    "wrong-encoding": "could not be parsed",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
@pytest.mark.parametrize("file", sorted(FILES))
def test_hostile_xml_is_refused_at_install_and_leaves_nothing(fault_device, tmp_path, file, attack):
    app = copy_app(FAULTY_APP, tmp_path, "hostile")
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('package="com.example.faulty"', f'package="{HOSTILE}"'))
    ATTACKS[attack](app / file)
    copies_before = sorted((fault_device.data / "app").iterdir())
    with others_keep_being_served(fault_device), shell(fault_device) as context:
        packages = context.get_system_service("package")
        with pytest.raises(IllegalArgumentException) as caught:
            packages.install_package(str(app))
        assert HOSTILE not in [p.package_name for p in packages.list_packages()]
    message = str(caught.value)
    assert message.startswith(f"{FILES[file]}: {app / file}:"), message
    assert REASONS[attack] in message
    assert sorted((fault_device.data / "app").iterdir()) == copies_before
    assert not (fault_device.data / "data" / HOSTILE).exists()


def link_to_dev_zero(app: Path) -> None:
    (app / "zeros.bin").symlink_to("/dev/zero")


def fifo(app: Path) -> None:
    os.mkfifo(app / "pipe")


def linked_folder(app: Path) -> None:
    (app / "everything").symlink_to("/", target_is_directory=True)


def oversized(app: Path) -> None:
    with (app / "blob.bin").open("wb") as f:
        f.truncate(MAX_APP_BYTES + 1)  # sparse


def asset_outside(name: str):
    def point_at(app: Path) -> None:
        manifest = app / "AndroidManifest.xml"
        manifest.write_text(manifest.read_text().replace('android:value="app_functions_v2.xml"', f'android:value="{name}"'))
    return point_at


@pytest.mark.parametrize(
    ("plant", "reason", "words"),
    [
        (link_to_dev_zero, "INSTALL_FAILED_INVALID_APK", "zeros.bin links outside the app folder (to /dev/zero)"),
        (fifo, "INSTALL_FAILED_INVALID_APK", "pipe is not a regular file"),
        (linked_folder, "INSTALL_FAILED_INVALID_APK", "everything links to a folder"),
        (oversized, "INSTALL_FAILED_INVALID_APK", f"holds more than {MAX_APP_BYTES} bytes"),
        (asset_outside("../../../outside.xml"), "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML",
         "names assets/../../../outside.xml, which is outside the app's assets"),
        (asset_outside("/etc/passwd"), "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML",
         "names assets//etc/passwd, which is outside the app's assets"),
    ],
    ids=["link-to-dev-zero", "fifo", "linked-folder", "oversized", "asset-path-escapes", "asset-path-absolute"],
)
def test_an_app_folder_that_would_make_the_device_read_without_end_is_refused(fault_device, tmp_path, plant, reason, words):
    app = copy_app(FAULTY_APP, tmp_path, "hostile")
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('package="com.example.faulty"', f'package="{HOSTILE}"'))
    (tmp_path / "outside.xml").write_text((FAULTY_APP / "assets" / "app_functions_v2.xml").read_text())
    plant(app)
    copies_before = sorted((fault_device.data / "app").iterdir())
    with others_keep_being_served(fault_device), shell(fault_device) as context:
        with pytest.raises(IllegalArgumentException) as caught:
            context.get_system_service("package").install_package(str(app))
    assert str(caught.value).startswith(f"{reason}: ") and words in str(caught.value), str(caught.value)
    assert sorted((fault_device.data / "app").iterdir()) == copies_before
    assert not (fault_device.data / "data" / HOSTILE).exists()
