"""The scorer proves itself on every shipped suite: the oracle scores 100 %, always-wrong 0 %, in both
confirmation modes; and a model that does nothing fails every case that expects a change."""

from __future__ import annotations

import json

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import is_read, load_suite

from .conftest import RUN_DATE, SHIPPED

SUITES = sorted(SHIPPED.parent.glob("*.yaml"))
# Cases whose changes undo each other (book, then cancel): the end state is the start state.
UNDONE_IN_THE_CASE = {"multi-book-then-cancel"}


@pytest.mark.parametrize("suite_file", SUITES, ids=[p.stem for p in SUITES])
@pytest.mark.parametrize("model, expected", [("scripted", 1.0), ("wrong", 0.0)])
@pytest.mark.parametrize("confirmation", ["runtime", "model"])
def test_oracle_and_always_wrong(suite_file, tmp_path, model, expected, confirmation):
    summary = run_eval(load_suite(suite_file), EvalOptions(model=model, out=tmp_path, run_date=RUN_DATE,
                                                           confirmation_mode=confirmation))
    scores = summary["configs"]["base"]["scores"]
    assert scores["overall"]["pass@1"] == expected, scores["failed"]
    assert all(c["pass@1"] == expected for c in scores["categories"].values())
    assert {p.name for p in tmp_path.iterdir()} >= {"results.jsonl", "summary.json", "report.html", "run.json"}


@pytest.mark.parametrize("suite_file", SUITES, ids=[p.stem for p in SUITES])
def test_every_state_change_a_case_expects_is_read_back(suite_file, tmp_path, monkeypatch):
    """A model that does nothing fails a state check of every case that expects a change: so no
    such case passes on its calls alone."""
    from droid.agent import ScriptedModel

    monkeypatch.setattr("sim.eval.runner.case_model", lambda *args, **kwargs: ScriptedModel(["OK."] * 10))
    suite = load_suite(suite_file)
    changing = [c.id for c in suite.cases if c.id not in UNDONE_IN_THE_CASE
                and any(e.approves and e.done and not e.error and not is_read(e.function) for e in c.expected_calls())]
    summary = run_eval(suite, EvalOptions(model="scripted", out=tmp_path, run_date=RUN_DATE, cases=changing))
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(records) == len(changing) > 0
    assert [r["case_id"] for r in records if not r["state_failures"]] == []
    assert summary["configs"]["base"]["scores"]["overall"]["recovered"] == 0
