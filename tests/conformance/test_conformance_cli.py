"""``droidsim conformance --device`` against a device in its own process: the same cases over
gRPC, the helper apps installed and removed by the run, the report as a table and as JSON."""

from __future__ import annotations

import json

import pytest

from droid.content import connect
from sim.conformance.registry import all_cases
from tests.helpers import HELPER_APP, HELPER_PACKAGE, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

CALLER_PACKAGE = "android.app.appfunctions.cts"


def installed_packages(data) -> set[str]:
    with connect(f"unix:{data / 'device.sock'}", (data / "shell.credential").read_text()) as shell:
        return {p.package_name for p in shell.get_system_service("package").list_packages()}


def test_conformance_against_a_running_device(tmp_path):
    data = tmp_path / "data"
    device = DeviceProcess(data)
    try:
        assert droidsim("install", str(HELPER_APP), data=data).returncode == 0  # there before the run
        report = tmp_path / "report.json"
        result = droidsim("conformance", "--device", str(data), "--json", str(report), timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        after = installed_packages(data)
    finally:
        device.stop()
    cases = all_cases()
    results = json.loads(report.read_text())
    assert [c["id"] for c in results["cases"]] == [c.id for c in cases]
    expected = {c.id: "skip" if c.pending else "pass" for c in cases}
    assert {c["id"]: c["status"] for c in results["cases"]} == expected
    assert results["device"] == f"unix:{(data / 'device.sock').resolve()}"
    passed = sum(s == "pass" for s in expected.values())
    assert f"{passed} passed, 0 failed, {len(cases) - passed} skipped" in result.stdout
    first_cells = {line.replace("│", " ").split()[0]: line for line in result.stdout.splitlines() if line.startswith("│")}
    for case in cases:  # one table row per case, with its spec reference
        assert case.spec[:40] in first_cells[case.id]
    assert HELPER_PACKAGE in after and CALLER_PACKAGE not in after  # it removes only what it installed
