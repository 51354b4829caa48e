"""The report's figures (issue 22, item 7) from records built in the eval contract's shape, and the
compare view over two real runs' folders."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.eval.compare import CompareError, compare, load_runs
from sim.eval.figures import failure_kinds, pass_hat_curve, per_function, wilson
from sim.eval.measured_error import error_line, words_summary
from sim.eval.report import write_html
from sim.eval.run import EvalOptions, run_eval
from sim.eval.summary import summarize

from .conftest import RUN_DATE


def failure(kind, function=None, argument=None, expected=None, got=None, detail="why"):
    return {"kind": kind, "function": function, "argument": argument, "expected": expected, "got": got,
            "detail": detail}


def record(case_id, passed, confusion, failures=(), category="simple", trial=0, **extra):
    turn = {"user": f"words of {case_id}", "calls": [{"name": confusion[0][1], "function_id": None,
                                                      "args": {"orderId": "ord-1"},
                                                      "response": {"error": {"code_name": "ERROR_RESOURCE_NOT_FOUND"}},
                                                      "confirmation": None}],
            "text": "Done! I cancelled it.", "failures": list(failures)}
    return {"config": "base", "case_id": case_id, "category": category, "trial": trial, "passed": passed,
            "failures": [f["detail"] for f in failures], "turns": [turn], "confusion": [list(p) for p in confusion],
            "seconds": 0.2, "model_seconds": 0.1, "tokens": extra.pop("tokens", {}), "recovered": passed,
            "infra_error": None, "confirmation_mode": "runtime", **extra}


RECORDS = [
    record("a", True, [("fetch_order_details", "fetch_order_details")],
           retrieval=[{"function": "fetch_order_details", "turn": 0, "rank": 2, "of": 12, "matched": True}]),
    record("b", False, [("fetch_order_details", "fetch_order_details")],
           [failure("wrong_value", "fetch_order_details", "orderId", "ORD-1", "ord-1"),
            failure("rejected_by_device", "fetch_order_details", None, None, "ERROR_RESOURCE_NOT_FOUND")]),
    record("c", False, [("cancel_order", "fetch_order_details")],
           [failure("wrong_function", "cancel_order", None, "cancel_order", "fetch_order_details"),
            failure("false_claim", None, None, None, "Done! I cancelled it.")], category="multiple"),
    record("d", False, [("cancel_order", "(no call)")], [failure("missing_call", "cancel_order")], category="multiple",
           tokens={"prompt_tokens": 100, "completion_tokens": 10}),
]


def test_wilson_intervals_match_the_textbook_values():
    assert wilson(5, 10) == [0.2366, 0.7634]
    assert wilson(0, 10) == [0.0, 0.2775] and wilson(10, 10) == [0.7225, 1.0]
    assert wilson(0, 0) == [0.0, 0.0]


def test_pass_hat_k_is_taus_estimator_per_case_then_averaged():
    # a: 3 of 3 pass; b: 2 of 3 (pass^2 = C(2,2)/C(3,2) = 1/3); c: none.
    curve = pass_hat_curve({"a": [True] * 3, "b": [True, True, False], "c": [False] * 3}, 3)
    assert curve == {"1": round(5 / 9, 4), "2": round((1 + 1 / 3) / 3, 4), "3": round(1 / 3, 4)}


def test_failure_kinds_count_every_kind_zeros_included():
    kinds = failure_kinds(RECORDS)
    assert kinds == {"wrong_function": 1, "wrong_value": 1, "wrong_type": 0, "missing_call": 1, "extra_call": 0,
                     "rejected_by_device": 1, "false_claim": 1, "wrong_answer": 0, "no_question": 0,
                     "context_overflow": 0}


def test_the_per_function_table_says_what_was_chosen_what_was_wrong_and_what_instead():
    table = {e["function"]: e for e in per_function(RECORDS)}
    assert table["fetch_order_details"] == {
        "function": "fetch_order_details", "expected": 2, "chosen_right": 2, "arguments_right": 1,
        "most_wrong_argument": "orderId", "most_wrong_argument_count": 1, "called_instead": []}
    assert table["cancel_order"] == {
        "function": "cancel_order", "expected": 2, "chosen_right": 0, "arguments_right": 0,
        "most_wrong_argument": None, "most_wrong_argument_count": 0,
        "called_instead": [["(no call)", 1], ["fetch_order_details", 1]]}
    assert [e["function"] for e in per_function(RECORDS)] == ["cancel_order", "fetch_order_details"], "worst first"


def test_summary_and_report_carry_the_same_figures(tmp_path):
    summary = summarize(RECORDS, ["base"], 1)
    summary.update({"suite": "s.yaml", "model": "m", "run_date": "2026-03-14", "confirmation_mode": "runtime",
                    "words": words_summary("rules")})
    scores = summary["configs"]["base"]["scores"]
    assert scores["overall"]["wilson_95"] == wilson(1, 4) and scores["categories"]["multiple"]["passed"] == 0
    assert summary["configs"]["base"]["timing"]["tokens_per_case"] == {"completion_tokens": 10.0, "prompt_tokens": 100.0}
    write_html(tmp_path / "report.html", summary, RECORDS)
    page = (tmp_path / "report.html").read_text()
    assert "25.0% (1/4) <span class=ci>[5–70]</span>" in page
    assert "<td>wrong value</td><td class=n>1</td>" in page and "<td>no question</td><td class=n>0</td>" in page
    assert ("<tr><td>fetch_order_details</td><td class=n>2/2</td><td class=n>1/2</td><td>orderId (1×)</td><td>—</td><td class=n>100% of 1</td><td class=n>0.50</td></tr>"
            in page)
    assert "(no call) (1×), fetch_order_details (1×)" in page
    # A transcript per failed case: the user's words, the call and its response, the reply, why.
    assert page.count("<details><summary>base · ") == 3
    assert "User: words of c" in page and "ERROR_RESOURCE_NOT_FOUND" in page and "Agent: Done! I cancelled it." in page
    assert "✗ false claim: why" in page
    assert "completion 10, prompt 100" in page and "✗ why<" not in page
    assert "confirmation mode <b>runtime</b>" in page


def test_the_confusion_map_has_the_same_labels_on_both_axes():
    from sim.eval.report import confusion_labels

    assert confusion_labels({"cancel_order": {"fetch_order_details": 1, "(no call)": 1}, "(no call)": {"get_note": 1}}) == [
        "cancel_order", "fetch_order_details", "get_note", "(no call)"]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory, shipped):
    out = tmp_path_factory.mktemp("runs")
    ids = ["orders-where-is-my-order", "weather-paris", "notes-groceries", "irrelevant-alarm"]
    for model in ("scripted", "wrong"):
        run_eval(shipped, EvalOptions(model=model, out=out / model, run_date=RUN_DATE, cases=ids))
    return out


def test_compare_puts_runs_side_by_side_with_the_cases_that_flipped(two_runs):
    comparison = compare(load_runs([two_runs / "scripted", two_runs / "wrong"]))
    assert comparison["labels"] == ["scripted", "wrong"]
    assert comparison["categories"]["overall"]["scripted"]["passed"] == 4
    assert comparison["categories"]["overall"]["wrong"]["passed"] == 0
    assert [c["case_id"] for c in comparison["flipped"]] == ["irrelevant-alarm", "notes-groceries", "orders-where-is-my-order",
                                                             "weather-paris"]
    assert comparison["flipped"][0]["passed"] == {"scripted": True, "wrong": False}
    assert comparison["functions"]["fetch_order_details"]["scripted"]["chosen_right"] == 1
    assert comparison["functions"]["fetch_order_details"]["wrong"]["chosen_right"] == 0
    # Retrieval measures the descriptions, not the model: the same apps, the same figures.
    assert comparison["retrieval"]["scripted"] == comparison["retrieval"]["wrong"]
    assert comparison["retrieval"]["scripted"]["expected"] == 3 and comparison["retrieval"]["scripted"]["catalog"] == 12
    assert comparison["functions"]["fetch_order_details"]["scripted"]["retrieval_recall_at_3"] == 1.0


def test_the_compare_command_prints_a_table_json_and_html(two_runs, tmp_path):
    droidsim = [sys.executable, "-m", "sim.cli", "eval", "compare", str(two_runs / "scripted"), str(two_runs / "wrong")]
    table = subprocess.run(droidsim + ["--html", str(tmp_path / "c.html")], capture_output=True, text=True, timeout=120)
    assert table.returncode == 0, table.stderr
    assert "│ overall " in table.stdout and "100.0% (4/4)" in table.stdout and "-100.0 pts" in table.stdout
    assert "cases that flipped (4 of 4 shared)" in table.stdout
    assert "retrieval: the expected functions by BM25" in table.stdout and "│ in the top 3 " in table.stdout
    assert "<td class=fail>FAIL</td>" in (tmp_path / "c.html").read_text()
    as_json = subprocess.run(droidsim + ["--json"], capture_output=True, text=True, timeout=120)
    assert json.loads(as_json.stdout)["shared_cases"] == 4


def test_compare_refuses_a_folder_without_a_run(two_runs, tmp_path):
    with pytest.raises(CompareError, match="no summary.json; is it the --out folder of a finished droidsim eval run"):
        load_runs([two_runs / "scripted", tmp_path])
    with pytest.raises(CompareError, match="at least two"):
        load_runs([two_runs / "scripted"])
    result = subprocess.run([sys.executable, "-m", "sim.cli", "eval", "compare", str(two_runs / "scripted"), str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "no summary.json" in result.stderr


def test_the_report_and_the_table_keep_the_task_and_the_words_apart_and_show_what_is_doubtful(tmp_path):
    from rich.console import Console

    from sim.eval.report import terminal_table

    doubt = {"turn": 0, "check": "denial", "detail": "cancel_order happened, but the agent said 'no luck'",
             "clause": "no luck", "results": "cancel_order happened"}
    verdicts = [("pass", True, "pass", []), ("doubtful", True, "doubtful", [doubt]), ("fail", False, "pass", [])]
    records = [record(f"v{i}", verdict == "pass", [("cancel_order", "cancel_order")], verdict=verdict,
                      task={"passed": task, "failures": [] if task else ["state: not cancelled"], "by": "suite checks"},
                      words={"verdict": words, "reader": "rules", "failures": [], "doubtful": doubtful})
               for i, (verdict, task, words, doubtful) in enumerate(verdicts)]
    summary = summarize(records, ["base"], 1)
    summary.update({"suite": "s.yaml", "model": "m", "run_date": "2026-03-14", "confirmation_mode": "runtime",
                    "words": words_summary("rules")})
    overall = summary["configs"]["base"]["scores"]["overall"]
    assert (overall["passed"], overall["doubtful"], overall["pass@1_if_doubtful_pass"]) == (1, 1, 0.6667)
    assert overall["task"] == {"passed": 2, "pass@1": 0.6667}
    assert overall["words"] == {"passed": 2, "doubtful": 1, "pass@1": 0.6667}
    write_html(tmp_path / "report.html", summary, records)
    page = (tmp_path / "report.html").read_text()
    assert "Words read by rules; measured on the blind set" in page and "The word checks' measured error" in page
    assert "<td class=n>66.7% (2/3)</td><td class=n>66.7% (2/3, 1 doubtful)</td><td class=n>33.3% (1/3, 1 doubtful)" in page
    assert "task pass, words doubtful (read by rules): doubtful" in page
    assert ("? doubtful (denial check, measured above 2 % error; no judge confirmed it), turn 1: the agent said "
            "&#x27;no luck&#x27;; the results say: cancel_order happened") in page
    console = Console(width=200, record=True)
    terminal_table(summary, console)
    shown = console.export_text()
    assert "33.3% (1/3, 1 doubtful)" in shown and "66.7% (2/3, 1 doubtful)" in shown
    doubtful = ", ".join(summary["words"]["doubtful_checks"])  # the checked-in first run's (test_measured_error)
    assert doubtful and f"\n{error_line(summary['words'])}\n" in shown  # whole, wider than the console
    assert f"doubtful checks (above 2 %): {doubtful}" in shown
