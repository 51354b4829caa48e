"""The τ² replay rows of `make bench` (bench/tau2_replay.py) where the recorded runs are not found."""

from __future__ import annotations

from bench import tau2_replay
from bench.report import Report


def test_without_the_data_the_rows_are_left_out_and_a_note_says_where_it_was_looked_for(monkeypatch, tmp_path):
    monkeypatch.setenv("DROIDSIM_REFERENCE", str(tmp_path))
    report = Report()
    tau2_replay.run(report, rounds=1)
    assert report.rows == []
    assert report.notes == [f"τ² replay rows left out: τ-bench's recorded runs are not at "
                            f"{tmp_path / 'benchmarks' / tau2_replay.RUNS_FILE} (set DROIDSIM_REFERENCE)"]
