"""`droidsim eval` in its own process: the shipped suite from a fresh checkout, and refusals."""

from __future__ import annotations

import html
import json

from sim.eval.measured_error import error_line, words_summary
from tests.helpers import REPO, droidsim

from .conftest import write_suite

SUITE = REPO / "sim" / "eval" / "suites" / "sample-apps.yaml"


def test_the_shipped_suite_with_the_offline_model_writes_all_four_outputs(tmp_path):
    result = droidsim("eval", str(SUITE), "--out", str(tmp_path), "--date", "2026-03-14", timeout=240)
    assert result.returncode == 0, result.stderr
    assert "overall" in result.stdout and "category" in result.stdout
    for column in ("base task", "base words", "base pass@1"):  # both verdicts, and together
        assert column in result.stdout
    # The words' reader and its measured error, in one line, whole when piped.
    assert "\n" + error_line(words_summary("rules")) + "\n" in result.stdout
    assert result.stderr.count("\n[") >= 85  # one progress line per case off a terminal
    assert "DEBUG" not in result.stderr, result.stderr  # bm25s logs each index it builds at DEBUG
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 86 and all(json.loads(line)["case_id"] for line in lines)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["model"] == "offline" and summary["run_date"] == "2026-03-14"
    assert summary["words"] == json.loads(json.dumps(words_summary("rules")))
    assert summary["configs"]["base"]["scores"]["overall"]["cases"] == 86
    assert (tmp_path / "accuracy-per-category.svg").read_text().startswith("<svg")
    page = (tmp_path / "report.html").read_text()
    # Self-contained: the charts are inline, nothing is fetched when the page is opened.
    assert page.count("<svg") >= 2 and "<script" not in page and "<link" not in page and " src=" not in page
    assert html.escape(error_line(words_summary("rules"))[1:]) in page  # the report's header says it too


def test_a_malformed_suite_is_refused_naming_file_line_and_field(tmp_path):
    path = write_suite(tmp_path, "suite: t\ncases:\n  - id: x\n    category: simple\n    user: hi\n    abstain: maybe\n")
    result = droidsim("eval", str(path), "--out", str(tmp_path / "o"))
    assert result.returncode == 1
    assert f"{path}:6: cases[0].abstain: " in result.stderr
    assert not (tmp_path / "o").exists()


def test_an_unknown_model_is_refused(tmp_path):
    result = droidsim("eval", str(SUITE), "--model", "gpt", "--out", str(tmp_path))
    assert result.returncode == 1 and "unknown model 'gpt'" in result.stderr


def test_a_state_change_nobody_checks_is_warned_about_and_the_run_goes_on(tmp_path):
    path = write_suite(tmp_path, "suite: t\ncases:\n  - id: note\n    category: simple\n    user: Make a note Milk\n"
                                 "    calls: [{function: create_note, args: {title: Milk}}]\n")
    result = droidsim("eval", str(path), "--model", "scripted", "--out", str(tmp_path / "o"), timeout=120)
    assert result.returncode == 0, result.stderr
    assert (f"warning: {path}:3: case note: it expects create_note, which changes the device, but has no state "
            "check (add state: to read what changed)\n") in result.stderr  # one whole line, piped
