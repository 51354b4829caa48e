"""The suite's own machinery: the checklist covers every row, the runner reports what a case saw,
and ``droidsim conformance`` shows a broken device as failing rows and a non-zero exit."""

from __future__ import annotations

import json
import re
import threading

import pytest
from click.testing import CliRunner

from droid.appfunctions.exceptions import AppFunctionException
from sim.cli.conformance import conformance_command
from sim.conformance.cases.access_matrix import SCENARIOS
from sim.conformance.checklist import ROWS
from sim.conformance.expect import Outcome, fails_with, returns, show
from sim.conformance.registry import Case, Mismatch, all_cases, register, select
from sim.conformance.runner import results_to_json, run_case
from sim.device import Device
from sim.conformance.target import CONFORMANCE_APPS, default_apps_root
from tests.helpers import EVENT_BOUND, REPO, copy_app


def test_checklist_keys_are_unique():
    keys = [r.key for r in ROWS]
    assert len(keys) == len(set(keys))


def test_every_checklist_row_has_cases_or_says_why_not():
    covered = {c.row_key for c in all_cases()}
    for row in ROWS:
        if row.not_applicable:
            assert row.key not in covered, row.key
        else:
            assert row.key in covered, f"{row.key} has no case and no not_applicable note"


def test_the_report_table_in_the_docs_lists_every_case_in_order():
    text = (REPO / "docs" / "conformance.md").read_text()
    report = text.split("\n## The report\n", 1)[1].split("\n#", 1)[0]
    assert re.findall(r"^\| `([a-z0-9-]+)` \|", report, re.MULTILINE) == [c.id for c in all_cases()]


def test_the_differences_cite_registered_cases_and_list_every_stated_difference():
    rows = [line for line in (REPO / "docs" / "differences.md").read_text().splitlines() if line.startswith("| ")]
    test_cells = [row.rstrip(" |").rsplit(" | ", 1)[1] for row in rows[2:]]
    cited = {
        case_id for cell in test_cells if "conformance case" in cell
        for case_id in re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", cell)
    }
    registered = {c.id for c in all_cases()}
    assert cited - registered == set()
    stated = {s.id for s in SCENARIOS if s.difference}
    assert stated and stated <= cited


def test_case_ids_are_unique_and_selectable():
    cases = all_cases()
    assert len({c.id for c in cases}) == len(cases)
    assert [c.id for c in select(["kill", "add-async"])] == [c.id for c in cases if c.id in ("kill", "add-async")]
    with pytest.raises(KeyError, match="no-such-case"):
        select(["kill", "no-such-case"])


@pytest.mark.parametrize(
    ("case", "error"),
    [
        (Case("Not An Id", "parcel", "", lambda t: None), "lower-case words"),
        (Case("kill", "parcel", "", lambda t: None), "registered twice"),
        (Case("no-body", "parcel", "", None), "has no body"),
        (Case("unknown-row", "no.such.row", "", lambda t: None), "no checklist row"),
    ],
)
def test_registry_refuses_bad_cases(case, error):
    all_cases()
    with pytest.raises((ValueError, KeyError), match=error):
        register(case)


def _run(body, timeout: float = EVENT_BOUND):
    return run_case(Case("probe", "parcel", "the probe does its job", body), target=None, timeout=timeout)


def test_runner_reports_what_was_expected_and_what_came():
    def mismatch(t):
        raise Mismatch("returned 3", "returned 4")

    result = _run(mismatch)
    assert (result.status, result.expected, result.actual) == ("fail", "returned 3", "returned 4")
    assert "expected returned 3; came returned 4" in result.explain()


def test_runner_reports_an_unexpected_exception_as_what_came():
    def crash(t):
        raise AppFunctionException(AppFunctionException.ERROR_SYSTEM_ERROR, "boom")

    result = _run(crash)
    assert (result.status, result.expected, result.actual) == (
        "fail", "the probe does its job", "ERROR_SYSTEM_ERROR (2000): boom"
    )


def test_runner_abandons_a_case_that_hangs():
    release = threading.Event()
    result = _run(lambda t: release.wait(), timeout=0.05)
    release.set()
    assert (result.status, result.actual) == ("fail", "still running; abandoned")


def test_results_json_has_totals_and_every_row():
    def mismatch(t):
        raise Mismatch("returned 3", "returned 4")

    results = [_run(lambda t: None), _run(mismatch)]
    data = results_to_json(results, "unix:/dev/null", 37)
    assert data["sdk"] == 37
    assert data["summary"] == {"pass": 1, "fail": 1}
    assert [c["status"] for c in data["cases"]] == ["pass", "fail"]
    assert set(data["cases"][0]) == {"id", "spec", "summary", "status", "expected", "actual", "seconds"}


def test_checks_compare_types_and_name_error_codes():
    with pytest.raises(Mismatch) as caught:
        returns(Outcome(value=True), 1)
    assert (caught.value.expected, caught.value.actual) == ("returned 1", "returned True")
    denied = AppFunctionException(AppFunctionException.ERROR_DENIED, "Caller does not have permission")
    with pytest.raises(Mismatch) as caught:
        fails_with(Outcome(error=denied), AppFunctionException.ERROR_DISABLED)
    assert (caught.value.expected, caught.value.actual) == (
        "ERROR_DISABLED (1002)", "ERROR_DENIED (1000): Caller does not have permission"
    )
    assert show(b"\x00" * (5 * 1024 * 1024)).startswith("<5242880 bytes, sha256 ")


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", cancellation_timeout=0.5) as device:
        device.serve()
        yield device


def test_cli_fails_when_the_device_refuses_an_app_and_leaves_nothing_behind(device, tmp_path):
    apps = tmp_path / "apps"
    for app in CONFORMANCE_APPS:
        copy_app(default_apps_root() / app.folder, apps)
    manifest = apps / "caller" / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('android:exported="true"', ""))
    result = CliRunner().invoke(conformance_command, ["--device", str(device.data_dir), "--apps", str(apps)])
    assert result.exit_code == 1
    assert "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED" in result.output and "android:exported" in result.output
    assert device.registry.all() == []  # the helper it had installed is gone again
    assert device.permissions.privileged_allowlist() == []  # it never got as far as the set-up


@pytest.fixture
def broken_device(device):
    """A device whose enabled check lets disabled functions run."""
    device.index.is_enabled = lambda package, function: True
    return device


def test_cli_shows_a_broken_device_as_failing_rows_and_exits_1(broken_device, tmp_path):
    report = tmp_path / "report.json"
    result = CliRunner().invoke(conformance_command, [
        "--device", str(broken_device.data_dir), "--case", "disabled-by-default", "--case", "add-async",
        "--json", str(report),
    ])
    assert result.exit_code == 1, result.output
    assert "1 passed, 1 failed" in result.output
    row = next(line for line in result.output.splitlines() if "disabled-by-default" in line)
    assert "fail" in row and "ERROR_DISABLED (1002)" in row and "returned 3" in row
    data = json.loads(report.read_text())
    assert data["summary"] == {"pass": 1, "fail": 1}
    failed = next(c for c in data["cases"] if c["status"] == "fail")
    assert (failed["id"], failed["expected"], failed["actual"]) == (
        "disabled-by-default", "ERROR_DISABLED (1002)", "returned 3"
    )
    assert broken_device.registry.get("android.app.appfunctions.cts") is None  # the run cleaned up


def test_cli_refuses_an_unknown_case_and_an_address_without_data(tmp_path):
    unknown = CliRunner().invoke(conformance_command, ["--device", str(tmp_path), "--case", "nope"])
    assert unknown.exit_code == 2 and "no case 'nope'" in unknown.output
    tcp = CliRunner().invoke(conformance_command, ["--device", "localhost:5000"], env={"DROIDSIM_DATA": ""})
    assert tcp.exit_code == 1 and "pass --data DIR" in tcp.output
