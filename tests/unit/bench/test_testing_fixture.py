"""The fixture row of make bench: it measures a real set-up and first call, against a baseline."""

from __future__ import annotations

from bench import testing_fixture
from bench.report import Report


def test_the_row_has_its_baseline_and_the_issue_budget() -> None:
    report = Report()
    testing_fixture.run(report, rounds=2, per_round=1)
    (row,) = report.rows
    assert row.figure == "droid_device set-up + first call p50"
    assert row.baseline.name == "app folder copy p50" and row.baseline.value > 0
    assert row.target.kind == "value_at_most" and row.target.limit == 50e6
    assert row.detail["samples"] == 2
