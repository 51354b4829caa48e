"""Every conformance case against fresh in-process devices, one of each SDK it holds for: one pytest test per run.

The device runs its apps in their own processes (kill and cancellation need real ones) with a
short cancellation timeout; the cases call it through local binders, and ``droidsim
conformance`` (test_conformance_cli.py) runs the same cases over gRPC.
"""

from __future__ import annotations

import contextlib

import pytest

from sim.conformance.in_process import in_process_device
from sim.conformance.registry import all_cases, for_sdk
from sim.conformance.runner import run_case
from sim.conformance.target import open_target
from sim.platform_version import ANDROID_16, NEWEST

# Each case on each version it holds for: a fresh device runs the newest, `--sdk 36` Android 16.
RUNS = [(sdk, case) for sdk in (NEWEST.sdk_int, ANDROID_16.sdk_int) for case in for_sdk(all_cases(), sdk)]


@pytest.fixture(scope="module")
def target_for(tmp_path_factory):
    """``target_for(sdk)``: the module's device of that SDK, set up on first use."""
    with contextlib.ExitStack() as devices:
        targets = {}

        def target(sdk: int):
            if sdk not in targets:
                data = tmp_path_factory.mktemp(f"conformance-{sdk}") / "data"
                device = devices.enter_context(in_process_device(data, sdk=sdk))
                targets[sdk] = devices.enter_context(open_target(device))
            return targets[sdk]

        yield target


@pytest.mark.parametrize(("sdk", "case"), RUNS, ids=[f"{case.id}-sdk{sdk}" for sdk, case in RUNS])
def test_case(sdk, case, target_for):
    result = run_case(case, target_for(sdk))
    assert result.status == "pass", result.explain()
