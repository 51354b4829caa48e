"""Every conformance case against a fresh in-process device: one pytest test per case.

The device runs its apps in their own processes (kill and cancellation need real ones) with a
short cancellation timeout; the cases call it through local binders, and ``droidsim
conformance`` (test_conformance_cli.py) runs the same cases over gRPC.
"""

from __future__ import annotations

import pytest

from sim.conformance.in_process import in_process_device
from sim.conformance.registry import all_cases, for_sdk
from sim.conformance.runner import run_case
from sim.conformance.target import open_target
from sim.platform_version import ANDROID_16, NEWEST

CASES = for_sdk(all_cases(), NEWEST.sdk_int)  # a fresh device runs the newest version
ANDROID_16_CASES = for_sdk(all_cases(), ANDROID_16.sdk_int)


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    with in_process_device(tmp_path_factory.mktemp("conformance") / "data") as device:
        with open_target(device) as target:
            yield target


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case, target):
    result = run_case(case, target)
    assert result.status == "pass", result.explain()


@pytest.fixture(scope="module")
def android_16_target(tmp_path_factory):
    with in_process_device(tmp_path_factory.mktemp("conformance-16") / "data", sdk=ANDROID_16.sdk_int) as device:
        with open_target(device) as target:
            yield target


@pytest.mark.parametrize("case", ANDROID_16_CASES, ids=[c.id for c in ANDROID_16_CASES])
def test_case_on_android_16(case, android_16_target):
    """`--sdk 36`: every case that holds for Android 16 passes there too."""
    result = run_case(case, android_16_target)
    assert result.status == "pass", result.explain()
