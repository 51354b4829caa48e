"""The same build installed again is not decoded again: not on the same device, not on the
other devices of a test run; other bytes, another SDK and a refused APK are decoded each time."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.apk.decode import DecodedApk, DecodedFile
from sim.apk.signing import Signing
from sim.device import Device
from sim.pm.code_verifier import InProcessCodeVerifier
from sim.pm.decoded_apks import DecodedApks
from tests.unit.apk.conftest import APKS, CANCEL, FETCH, TRACK, apk_bytes, rewritten


class CountingVerifier(InProcessCodeVerifier):
    def __init__(self) -> None:
        super().__init__()
        self.decodes = 0

    def decode_apk(self, *args, **kwargs):
        self.decodes += 1
        return super().decode_apk(*args, **kwargs)


def a_device(path: Path, verifier: CountingVerifier, decoded_apks: DecodedApks | None = None,
             sdk: int | None = None) -> Device:
    return Device(path, isolated_apps=False, verifier=verifier, decoded_apks=decoded_apks, sdk=sdk)


def function_ids(package) -> list[str]:
    return sorted(f.id for f in package.metadata.app_functions)


def test_a_reinstall_of_the_same_build_is_not_decoded_again_and_the_log_says_so(tmp_path, caplog):
    verifier = CountingVerifier()
    with a_device(tmp_path / "data", verifier) as device:
        first = device.install(APKS / "shop.apk")
        caplog.set_level(logging.INFO, logger="droidsim.pm")
        again = device.install(APKS / "shop.apk")
    assert verifier.decodes == 1
    digest = hashlib.sha256(apk_bytes()).hexdigest()
    assert f"shop.apk: these bytes (SHA-256 {digest[:16]}) were decoded for SDK 37 before: not decoded again" \
        in caplog.messages
    assert function_ids(again) == function_ids(first) == [CANCEL, FETCH, TRACK]
    assert again.metadata.installed_from == first.metadata.installed_from


def test_devices_that_share_the_decodes_decode_a_build_once(tmp_path):
    verifier, shared = CountingVerifier(), DecodedApks()
    for name in ("one", "two"):
        with a_device(tmp_path / name, verifier, shared) as device:
            assert function_ids(device.install(APKS / "shop.apk")) == [CANCEL, FETCH, TRACK]
    assert verifier.decodes == 1


def test_other_bytes_are_decoded_whatever_the_file_name(tmp_path):
    verifier = CountingVerifier()
    changed = tmp_path / "shop.apk"
    changed.write_bytes(rewritten(apk_bytes(), add={"assets/notes.txt": b"one byte more or less"}))
    with a_device(tmp_path / "data", verifier) as device:
        device.install(APKS / "shop.apk")
        device.install(changed)
    assert verifier.decodes == 2


def test_another_sdk_decodes_the_same_bytes_for_itself(tmp_path):
    verifier, shared = CountingVerifier(), DecodedApks()
    with a_device(tmp_path / "sdk37", verifier, shared, sdk=37) as device:
        assert function_ids(device.install(APKS / "shop.apk")) == [CANCEL, FETCH, TRACK]
    with a_device(tmp_path / "sdk36", verifier, shared, sdk=36) as device:
        # the service enabled only from values-v37 stays out: Android 16's decode, not 17's
        assert function_ids(device.install(APKS / "shop.apk")) == [CANCEL, FETCH]
    assert verifier.decodes == 2


def test_a_refused_apk_is_decoded_and_refused_each_time(tmp_path):
    verifier = CountingVerifier()
    apk = tmp_path / "app.apk"
    apk.write_bytes(rewritten(apk_bytes(), replace={"AndroidManifest.xml": None}))
    with a_device(tmp_path / "data", verifier) as device:
        refusals = []
        for _ in range(2):
            with pytest.raises(IllegalArgumentException) as refused:
                device.install(apk)
            refusals.append(str(refused.value))
    assert verifier.decodes == 2
    assert refusals == ["INSTALL_PARSE_FAILED_NOT_APK: app.apk is not an APK: it has no AndroidManifest.xml"] * 2


def decoded(package: str, text: str = "") -> DecodedApk:
    return DecodedApk(package, 37, (DecodedFile("AndroidManifest.xml", "AndroidManifest.xml", text),), (),
                      Signing((), ()))


def test_the_least_recently_used_goes_first():
    kept = DecodedApks(max_apks=2)
    kept.keep("a", 37, decoded("a"))
    kept.keep("b", 37, decoded("b"))
    kept.get("a", 37)
    kept.keep("c", 37, decoded("c"))
    assert [kept.get(k, 37) and kept.get(k, 37).package for k in "abc"] == ["a", None, "c"]


def test_the_text_kept_is_bounded_and_a_decode_beyond_the_bound_is_not_kept():
    kept = DecodedApks(max_text_chars=10)
    kept.keep("a", 37, decoded("a", "x" * 6))
    kept.keep("b", 37, decoded("b", "x" * 6))  # 12 chars: a goes
    kept.keep("huge", 37, decoded("huge", "x" * 11))
    assert (kept.get("a", 37), kept.get("b", 37).package, kept.get("huge", 37)) == (None, "b", None)
