"""The decoder runs in a child of the verifier's zygote: one that hangs costs that child, and
the next APK decodes as before."""

from __future__ import annotations

import os
import shutil

import pytest

from sim.apk.errors import ApkError
from sim.pm.code_verifier import CodeVerifier
from tests.unit.apk.conftest import APKS, SHOP


def test_a_hanging_decode_is_ended_and_the_verifier_keeps_working(tmp_path):
    hangs, works = tmp_path / "hangs", tmp_path / "works"
    hangs.mkdir()
    os.mkfifo(hangs / "base.apk")  # opening it blocks for ever: nobody writes
    works.mkdir()
    shutil.copy(APKS / "shop.apk", works / "base.apk")
    verifier = CodeVerifier(timeout=1.0)
    try:
        with pytest.raises(ApkError) as refused:
            verifier.decode_apk(hangs, "base.apk", 37)
        assert refused.value.reason == "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION"
        assert refused.value.detail == "decoding the APK killed the decoder's process (or took too long): its reader does not survive it"
        assert verifier.decode_apk(works, "base.apk", 37).package == SHOP
    finally:
        verifier.close()
