"""The checked-in test APKs are what tests/apks/build.py makes from their sources, byte for byte."""

from __future__ import annotations

import pytest

from tests.apks import build


@pytest.mark.skipif(bool(build.missing_tools()), reason=f"rebuilding the test APKs needs {', '.join(build.missing_tools())}")
def test_the_checked_in_apks_rebuild_byte_for_byte(tmp_path):
    for path in build.build_all(tmp_path):
        checked_in = build.checked_in(path)
        assert path.read_bytes() == checked_in.read_bytes(), f"{checked_in} is not what its sources build: run {build.__file__}"
