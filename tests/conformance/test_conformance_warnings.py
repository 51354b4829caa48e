"""The warnings a conformance run leaves in the device's terminal are the ones docs/conformance.md
explains, and the report says which cases cause them."""

from __future__ import annotations

import re

import pytest

from sim.cli.conformance import DEVICE_WARNINGS
from tests.helpers import DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

EXPLAINED = re.compile(
    r"WARNING droidsim\.zygote: android\.app\.appfunctions\.cts("
    r" \(pid \d+\) died with exit code -9"
    r"|: (longRunningFunction|notInvokeCallback) ignored cancellation for [\d.]+s; killing pid \d+)"
)


@pytest.mark.timeout(300)
def test_the_cases_that_warn_are_named_and_their_warnings_are_the_documented_ones(tmp_path) -> None:
    device = DeviceProcess(tmp_path / "data", extra=("--cancellation-timeout", "0.5"))
    try:
        cases = [arg for case in DEVICE_WARNINGS for arg in ("--case", case)]
        result = droidsim("conformance", "--device", str(device.data), *cases, timeout=240)
    finally:
        device.stop()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == (
        "The device logs a WARNING for each of these cases, on purpose: "
        "kill (the helper app kills itself); "
        "cancel-long-running (the helper app ignores a cancellation and is killed); "
        "cancel-not-invoke-callback (the helper app ignores a cancellation and is killed)."
    )
    warnings = [line.strip() for line in device.output if "WARNING" in line]
    assert warnings and all(EXPLAINED.fullmatch(w) for w in warnings), warnings
