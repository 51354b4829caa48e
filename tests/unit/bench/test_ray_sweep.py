"""The Ray sweep row of make bench: left out, saying why, where no loopback-only cluster can be made."""

from __future__ import annotations

from bench import ray_sweep
from bench.__main__ import SECTIONS
from bench.report import Report


def test_without_a_cluster_the_row_says_what_is_missing(monkeypatch) -> None:
    monkeypatch.setattr("tests.ray_cluster.unavailable", lambda: "needs root: the cluster runs in a network namespace")
    report = Report()
    ray_sweep.run(report)
    assert report.rows == [] and report.notes == [
        "eval on a 2-node Ray cluster: not measured, the cluster needs root: the cluster runs in a network namespace"]
    assert "ray" in SECTIONS  # python -m bench --only ray runs it alone
