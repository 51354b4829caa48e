"""`droidsim lint`: output grouped by app with a summary, --json for scripts, exit codes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from sim.cli.lint import lint_command
from tests.helpers import SAMPLE_APPS
from tests.unit.lint.conftest import CORPUS

ORDERS = SAMPLE_APPS / "orders"


def run(*args: str):
    return CliRunner().invoke(lint_command, [*map(str, args)])


def test_a_clean_app_exits_0_with_a_summary() -> None:
    result = run(ORDERS)
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        f"com.example.orders  {ORDERS}",
        "  no findings",
        "Linted 1 app: 0 errors, 0 warnings, 0 suppressed",
    ]


FILLER = """
class FunctionService(AppFunctionServiceEntryPoint):
    service_name = SERVICE
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    async def get_opening_hours(self, museum: str) -> str:
        \"""This function is used to get the opening hours of a museum.

        Args:
            museum: The museum, for example the Louvre.
        \"""
        return ""
"""


def test_warnings_alone_exit_0(write_app) -> None:
    result = run(write_app("museum", FILLER, description="Museum opening hours and exhibitions."))
    assert result.exit_code == 0, result.output
    assert "warning F3 [get_opening_hours]" in result.output
    assert re.fullmatch(r"Linted 1 app: 0 errors, \d+ warnings?, 0 suppressed", result.output.splitlines()[-1])


def test_a_folder_without_code_lints_as_the_code_less_app_install_makes_of_it() -> None:
    """XML alone installs (its answers come from a response source, docs/responses.md), so lint,
    which runs install's checks, reports only the words."""
    result = run(CORPUS / "f3_filler_opening")
    assert result.exit_code == 0, result.output
    assert " I1 " not in result.output and "warning F3 [get_opening_hours]" in result.output


def test_an_error_exits_1() -> None:
    result = run(CORPUS / "d1_unmarked_destructive")
    assert result.exit_code == 1
    assert "error D1 [delete_note]" in result.output


def test_output_is_grouped_by_app_and_plain_off_a_terminal() -> None:
    result = run(CORPUS / "d1_unmarked_destructive", ORDERS, CORPUS / "f3_filler_opening")
    lines = result.output.splitlines()
    headers = [i for i, line in enumerate(lines) if not line.startswith(" ") and not line.startswith("Linted")]
    assert [lines[i].split()[0] for i in headers] == ["com.example.lint.notes2", "com.example.orders", "com.example.lint.museum"]
    d1 = next(i for i, line in enumerate(lines) if " D1 " in line)
    f3 = next(i for i, line in enumerate(lines) if " F3 " in line)
    assert headers[0] < d1 < headers[1] < headers[2] < f3
    assert "\x1b[" not in result.output
    assert lines[-1] == "Linted 3 apps: 1 error, 1 warning, 0 suppressed"


def test_json_lists_each_finding_with_rule_severity_location_message_and_fix() -> None:
    app_dir = CORPUS / "p4_declared_default"
    result = run(app_dir, "--json")
    report = json.loads(result.output)
    assert set(report) == {"apps", "summary"}
    assert report["summary"] == {"apps": 1, "errors": 1, "warnings": 0, "suppressed": 0, "unreadable": 0, "exit_code": 1}
    (app,) = report["apps"]
    assert (app["app_dir"], app["package"], app["error"], app["notes"]) == (str(app_dir), "com.example.lint.books", None, [])
    (finding,) = app["findings"]
    assert set(finding) == {
        "rule", "severity", "title", "package", "function_id", "file", "line", "message", "fix", "suppressed", "reason",
    }
    assert finding["rule"] == "P4" and finding["severity"] == "error" and finding["suppressed"] is False
    assert finding["function_id"] == "com.example.lint.books.FunctionService#search_books"
    # The location is the parameter's own line in the Python source.
    assert Path(finding["file"]).resolve() == (app_dir / "books.py").resolve()
    assert "limit: int = 10" in (app_dir / "books.py").read_text().splitlines()[finding["line"] - 1]
    assert "limit" in finding["message"] and "10" in finding["fix"]
    assert result.exit_code == 1


def test_an_xml_finding_points_at_the_element_line() -> None:
    app_dir = CORPUS / "f6_undescribed_parameter"
    (finding,) = json.loads(run(app_dir, "--json").output)["apps"][0]["findings"]
    xml = (app_dir / "assets" / "functions.xml").read_text().splitlines()
    assert Path(finding["file"]).name == "functions.xml"
    assert xml[finding["line"] - 1].strip() == "<parameters>"
    assert "<name>branch</name>" in "\n".join(xml[finding["line"]:finding["line"] + 6])


def test_an_unreadable_app_exits_2_and_the_others_are_still_linted(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(CORPUS / "f3_filler_opening", broken)
    xml = broken / "assets" / "functions.xml"
    xml.write_text(xml.read_text().replace("</appfunctions>", ""))
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(broken, empty, ORDERS, "--json")
    report = json.loads(result.output)
    errors = [a["error"] for a in report["apps"]]
    assert errors[0].startswith(f"{xml}:") and "could not be parsed" in errors[0]
    assert errors[1] == f"{empty} is not an app folder (it has no AndroidManifest.xml) and holds no app folders (*/AndroidManifest.xml)"
    assert errors[2] is None and report["apps"][2]["package"] == "com.example.orders"
    assert report["summary"]["unreadable"] == 2
    assert result.exit_code == 2
    assert "cannot lint:" in run(empty).output


def test_a_folder_of_apps_lints_every_app_in_it() -> None:
    report = json.loads(run(CORPUS, "--json").output)
    assert [a["app_dir"] for a in report["apps"]] == [str(p.parent) for p in sorted(CORPUS.glob("*/AndroidManifest.xml"))]


def test_an_unreachable_device_exits_2(tmp_path: Path) -> None:
    result = run("--device", tmp_path, ORDERS)  # a data directory with no device running
    assert result.exit_code == 2
    assert "no device at" in result.output
