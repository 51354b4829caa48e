"""--junit: the run as JUnit XML, one test case per case and trial, as CI reads it (sim/junit.py)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

from sim.eval.measured_error import RULES, doubtful_checks
from sim.eval.results import junit_cases
from sim.junit import JUnitCase, JUnitPathError, check_writable, write_junit
from tests.helpers import REPO, droidsim

SHOP = REPO / "docs" / "examples" / "shop.eval.yaml"


def test_eval_writes_a_test_case_per_case_failed_with_its_reason_and_conversation(tmp_path):
    report = tmp_path / "eval.xml"
    result = droidsim("eval", str(SHOP), "--out", str(tmp_path / "o"), "--junit", str(report), timeout=240)
    assert result.returncode == 0, result.stderr
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "3" and root.get("failures") == "1"
    (suite,) = root
    assert (suite.tag, suite.get("name"), suite.get("errors"), suite.get("skipped")) == ("testsuite", "kotlin-shop",
                                                                                          "0", "0")
    cases = {case.get("name"): case for case in suite}
    assert sorted(cases) == ["cancel", "order-status", "where-is-my-parcel"]
    assert {case.get("classname") for case in suite} == {"kotlin-shop.base"}
    passed = {p.get("name"): p.get("value") for p in cases["order-status"].iter("property")}
    assert passed == {"verdict": "pass", "task": "pass", "words": "pass", "words.reader": "rules"}
    assert [child.tag for child in cases["order-status"]] == ["properties"]
    properties, failure = cases["where-is-my-parcel"]
    # The words fail the claim check: decisive, or doubtful while its measured error is above 2 %.
    words, why = ("doubtful", "doubtful (claim check, measured above 2 % error; no judge confirmed it): ") \
        if "claim" in doubtful_checks(RULES) else ("fail", "")
    assert {p.get("name"): p.get("value") for p in properties} == {"verdict": "fail", "task": "fail", "words": words,
                                                                   "words.reader": "rules"}
    assert failure.tag == "failure"
    assert failure.get("message") == "expected trackParcel, but fetchOrderStatus was called"  # the task's first
    assert failure.text.startswith(f"task: fail (suite checks)\nwords: {words} (read by rules)\n\n"
                                   "expected trackParcel, but fetchOrderStatus was called\n"
                                   f"{why}trackParcel did not happen, but the agent said 'Fetch order status returned "
                                   "SHIPPED.'")
    assert "user: Where is the parcel of order ORD-1234 now?\n" in failure.text
    assert 'call: fetchOrderStatus {"orderId": "ORD-1234"} -> {"result": "SHIPPED"}' in failure.text


def test_trials_configurations_and_infrastructure_errors_each_have_their_test_case(tmp_path):
    records = [
        {"config": "variant", "case_id": "b", "trial": 1, "passed": True, "failures": [], "seconds": 0.5},
        {"config": "base", "case_id": "b", "trial": 0, "passed": False, "failures": ["x was not called", "y"],
         "seconds": 1.25, "turns": [{"user": "do x", "calls": [], "text": "Done!"}]},
        {"config": "base", "case_id": "a", "trial": 0, "passed": False, "failures": [], "seconds": 2.0,
         "infra_error": {"kind": "timeout", "detail": "no answer in 30 s"}, "turns": [{"traceback": "..."}]},
    ]
    cases = junit_cases(records, "s", trials=2)
    assert [(c.classname, c.name) for c in cases] == [("s.base", "a (trial 1)"), ("s.base", "b (trial 1)"),
                                                      ("s.variant", "b (trial 2)")]
    assert (cases[0].failure, cases[0].error) == ("timeout: no answer in 30 s", True)
    assert (cases[1].failure, cases[1].error) == ("x was not called", False)
    assert cases[1].details == "x was not called\ny\n\nuser: do x\nagent: Done!"
    assert cases[2].failure is None
    report = tmp_path / "r.xml"
    write_junit(report, "s", cases)
    root = ET.parse(report).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("time")) == ("3", "1", "1", "3.750")
    kinds = [[child.tag for child in case] for case in root.iter("testcase")]
    assert kinds == [["error"], ["failure"], []]


def test_a_doubtful_words_verdict_fails_saying_so_with_its_evidence(tmp_path):
    doubt = {"turn": 0, "check": "denial", "detail": "cancel_order happened, but the agent said 'no luck'",
             "clause": "no luck", "results": "cancel_order happened"}
    record = {"config": "base", "case_id": "c", "trial": 0, "passed": False, "verdict": "doubtful", "seconds": 1.0,
              "failures": [doubt["detail"]], "task": {"passed": True, "failures": [], "by": "suite checks"},
              "words": {"verdict": "doubtful", "reader": "rules", "failures": [], "doubtful": [doubt]},
              "turns": [{"user": "cancel it", "calls": [], "text": "no luck"}]}
    (case,) = junit_cases([record], "s", trials=1)
    assert case.failure == ("doubtful (denial check, measured above 2 % error; no judge confirmed it): "
                            "cancel_order happened, but the agent said 'no luck'")
    assert case.details.startswith("task: pass (suite checks)\nwords: doubtful (read by rules)\n\ndoubtful")
    assert dict(case.properties) == {"verdict": "doubtful", "task": "pass", "words": "doubtful", "words.reader": "rules"}
    write_junit(tmp_path / "r.xml", "s", [case])
    (properties, failure) = ET.parse(tmp_path / "r.xml").getroot().find("testsuite/testcase")
    assert [p.get("name") for p in properties] == ["verdict", "task", "words", "words.reader"] and failure.tag == "failure"


def test_what_xml_cannot_hold_is_replaced_and_the_rest_kept(tmp_path):
    report = tmp_path / "r.xml"
    write_junit(report, "s\x00", [JUnitCase("c", "n", failure="said \x1b[31m<no>\x1b[0m & \"left\"",
                                            details="line\x07 one\nline two")])
    case = ET.parse(report).getroot().find("testsuite/testcase")
    failure = case.find("failure")
    assert failure.get("message") == 'said \ufffd[31m<no>\ufffd[0m & "left"'
    assert failure.text == "line\ufffd one\nline two"
    assert ET.parse(report).getroot().get("name") == "s\ufffd"


def test_a_report_that_could_not_be_written_is_refused_before_the_run(tmp_path):
    with pytest.raises(JUnitPathError, match="is a folder; give the report's file name"):
        check_writable(tmp_path)
    with pytest.raises(JUnitPathError, match="the folder .*/missing does not exist"):
        check_writable(tmp_path / "missing" / "r.xml")
    result = droidsim("eval", str(SHOP), "--out", str(tmp_path / "o"), "--junit", str(tmp_path / "no" / "r.xml"))
    assert result.returncode == 1 and "Error: --junit" in result.stderr and "does not exist" in result.stderr
    assert not (tmp_path / "o").exists()  # refused before anything ran


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_folder_that_is_not_writable_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    with pytest.raises(JUnitPathError, match="not writable"):
        check_writable(folder / "r.xml")
