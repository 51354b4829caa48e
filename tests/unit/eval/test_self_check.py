"""The scorer proves itself on every shipped suite: the oracle scores 100 %, always-wrong 0 %."""

from __future__ import annotations

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import load_suite

from .conftest import RUN_DATE, SHIPPED

SUITES = sorted(SHIPPED.parent.glob("*.yaml"))


@pytest.mark.parametrize("suite_file", SUITES, ids=[p.stem for p in SUITES])
@pytest.mark.parametrize("model, expected", [("scripted", 1.0), ("wrong", 0.0)])
def test_oracle_and_always_wrong(suite_file, tmp_path, model, expected):
    summary = run_eval(load_suite(suite_file), EvalOptions(model=model, out=tmp_path, run_date=RUN_DATE))
    scores = summary["configs"]["base"]["scores"]
    assert scores["overall"]["pass@1"] == expected, scores["failed"]
    assert all(c["pass@1"] == expected for c in scores["categories"].values())
    assert {p.name for p in tmp_path.iterdir()} >= {"results.jsonl", "summary.json", "report.html", "run.json"}
