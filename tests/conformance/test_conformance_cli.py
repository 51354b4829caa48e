"""``droidsim conformance --device`` against a device in its own process: the same cases over
gRPC, the helper apps installed and removed by the run, the report as a table and as JSON."""

from __future__ import annotations

import json

import pytest

from droid.content import connect
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST
from sim.conformance.registry import all_cases, for_sdk
from sim.platform_version import NEWEST
from tests.helpers import HELPER_APP, HELPER_PACKAGE, DeviceProcess, droidsim

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def device_state(data) -> tuple[set[str], list[str], str | None]:
    """What the run may change: the installed packages, the privileged allowlist and the
    additional agent allowlist."""
    with connect(f"unix:{data / 'device.sock'}", (data / "shell.credential").read_text()) as shell:
        package_manager = shell.get_system_service("package")
        return (
            {p.package_name for p in package_manager.list_packages()},
            list(package_manager.get_privileged_allowlist()),
            shell.get_system_service("settings").get_setting(*ADDITIONAL_AGENT_ALLOWLIST),
        )


# The run's own limit (droidsim(..., timeout=300)) decides, not the suite's default: on a loaded
# machine the shell-command cases alone take a minute.
@pytest.mark.timeout(400)
def test_conformance_against_a_running_device(tmp_path):
    data = tmp_path / "data"
    # The cancellation cases wait out the device's cancellation timeout (5 s by default) twice.
    device = DeviceProcess(data, extra=("--cancellation-timeout", "1"))
    try:
        assert droidsim("install", str(HELPER_APP), data=data).returncode == 0  # there before the run
        before = device_state(data)
        report = tmp_path / "report.json"
        result = droidsim("conformance", "--device", str(data), "--json", str(report), timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        after = device_state(data)
    finally:
        device.stop()
    cases = for_sdk(all_cases(), NEWEST.sdk_int)
    results = json.loads(report.read_text())
    assert results["sdk"] == NEWEST.sdk_int and f"(SDK {NEWEST.sdk_int})" in result.stdout
    assert [c["id"] for c in results["cases"]] == [c.id for c in cases]
    assert {c["id"]: c["status"] for c in results["cases"]} == {c.id: "pass" for c in cases}
    assert results["device"] == f"unix:{(data / 'device.sock').resolve()}"
    assert f"{len(cases)} passed, 0 failed" in result.stdout
    first_cells = {line.replace("│", " ").split()[0]: line for line in result.stdout.splitlines() if line.startswith("│")}
    for case in cases:  # one table row per case, with its spec reference
        assert case.spec[:40] in first_cells[case.id]
    assert after == before  # the helper, there before, stays; the other apps and the allowlists are as they were
    assert before == ({HELPER_PACKAGE}, [], None)
