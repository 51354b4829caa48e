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
from sim.platform_version import NEWEST

CASES = for_sdk(all_cases(), NEWEST.sdk_int)  # a fresh device runs the newest version


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    with in_process_device(tmp_path_factory.mktemp("conformance") / "data") as device:
        with open_target(device) as target:
            yield target


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case, target):
    result = run_case(case, target)
    assert result.status == "pass", result.explain()
