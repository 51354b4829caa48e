"""Rows, ratios, targets and the results file: what `make bench` reports as pass or miss."""

from __future__ import annotations

import json

import pytest

from bench.report import INFO, MISS, PASS, Baseline, Report, Row, Target, format_ratio, format_value

ECHO = Baseline("gRPC echo p50", 400_000, "ns")


def test_ratio_target_at_most_passes_on_the_limit_and_misses_above_it():
    target = Target("ratio_at_most", 1.5)
    assert Row("execute p50", 600_000, "ns", ECHO, target).status == PASS  # exactly 1.5x
    assert Row("execute p50", 600_001, "ns", ECHO, target).status == MISS


def test_ratio_target_at_least_is_for_throughput():
    echo = Baseline("gRPC echo, 8 callers", 1000, "calls/s")
    target = Target("ratio_at_least", 0.6)
    assert Row("throughput", 600, "calls/s", echo, target).status == PASS
    assert Row("throughput", 599, "calls/s", echo, target).status == MISS


def test_absolute_budget_ignores_the_baseline_ratio():
    budget = Target("value_at_most", 200e6)
    boot = Baseline("bare gRPC server boot", 50e6, "ns")
    row = Row("boot", 180e6, "ns", boot, budget)
    assert row.ratio == pytest.approx(3.6)  # far above the baseline, still within budget
    assert row.status == PASS
    assert Row("boot", 201e6, "ns", boot, budget).status == MISS


def test_a_row_without_target_is_information_and_without_baseline_has_no_ratio():
    assert Row("p99", 1e6, "ns", ECHO).status == INFO
    row = Row("install", 1e7, "ns")
    assert row.ratio is None and row.status == INFO


def test_rows_refuse_mismatched_units_and_ratio_targets_without_a_baseline():
    with pytest.raises(ValueError, match="cannot be divided"):
        Row("throughput", 100, "calls/s", ECHO)
    with pytest.raises(ValueError, match="needs a baseline"):
        Row("execute", 100, "ns", None, Target("ratio_at_most", 1.5))


@pytest.mark.parametrize("value, unit, text", [
    (512, "ns", "512 ns"),
    (48_200, "ns", "48.2 µs"),
    (1_310_000, "ns", "1.31 ms"),
    (2.4e9, "ns", "2.40 s"),
    (12345.4, "calls/s", "12,345/s"),
    (4.81, "calls/s", "4.8/s"),  # a few cases a second
])
def test_values_are_formatted_in_a_readable_unit(value, unit, text):
    assert format_value(value, unit) == text


def test_targets_and_ratios_describe_themselves():
    assert Target("ratio_at_most", 1.5).describe("ns") == "≤ 1.5×"
    assert Target("ratio_at_least", 0.6).describe("calls/s") == "≥ 0.6×"
    assert Target("value_at_most", 150e6).describe("ns") == "≤ 150.00 ms"
    assert format_ratio(2.214) == "2.21×"
    assert format_ratio(None) == "—"


def test_a_guard_says_so_and_a_row_past_it_is_missed_like_any_other():
    guard = Target("ratio_at_most", 2.3, guard=True)
    assert guard.describe("ns") == "≤ 2.3× (guard)"
    assert Target("ratio_at_least", 0.35, guard=True).describe("calls/s") == "≥ 0.35× (guard)"
    report = Report()
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    within = report.add(Row("execute p50", 920_000, "ns", echo, guard))  # 2.3x: on the guard
    past = report.add(Row("execute p50 / floor", 921_000, "ns", echo, guard))
    assert within.status == PASS and report.missed == [past]
    assert report.table_rows()[1][-2:] == ("≤ 2.3× (guard)", "miss")
    assert past.to_json()["target"] == {"kind": "ratio_at_most", "limit": 2.3, "guard": True}


def test_report_lists_misses_and_refuses_a_baseline_twice():
    report = Report()
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    report.add(Row("execute p50", 900_000, "ns", echo, Target("ratio_at_most", 1.5)))
    report.add(Row("execute p99", 2_000_000, "ns", echo))
    assert [row.figure for row in report.missed] == ["execute p50"]
    with pytest.raises(ValueError, match="recorded twice"):
        report.baseline("gRPC echo p50", 1, "ns")


def test_table_cells_show_figure_baseline_ratio_target_and_result():
    report = Report()
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    report.add(Row("execute p50", 900_000, "ns", echo, Target("ratio_at_most", 1.5)))
    report.add(Row("install p50", 12_000_000, "ns"))
    assert report.table_rows() == [
        ("execute p50", "900.0 µs", "gRPC echo p50", "400.0 µs", "2.25×", "≤ 1.5×", "miss"),
        ("install p50", "12.00 ms", "—", "—", "—", "—", "info"),
    ]


def test_results_json_carries_every_row_with_its_baseline_and_verdict(tmp_path):
    report = Report(notes=["a note"])
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    report.add(Row("execute p50", 500_000, "ns", echo, Target("ratio_at_most", 1.5), detail={"samples": 10}))
    path = tmp_path / "results.json"
    report.write_json(path)

    written = json.loads(path.read_text())
    assert not path.with_name("results.json.tmp").exists()
    assert written["baselines"] == [{"name": "gRPC echo p50", "value": 400_000, "unit": "ns"}]
    assert written["rows"] == [{
        "figure": "execute p50", "value": 500_000, "unit": "ns",
        "baseline": {"name": "gRPC echo p50", "value": 400_000, "unit": "ns"},
        "ratio": 1.25, "target": {"kind": "ratio_at_most", "limit": 1.5, "guard": False}, "status": "pass",
        "detail": {"samples": 10},
    }]
    assert written["notes"] == ["a note"]
    assert {"python", "platform", "cpus"} <= set(written["machine"])


def test_render_prints_both_tables(capsys):
    from rich.console import Console

    report = Report()
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    report.add(Row("execute p50", 900_000, "ns", echo, Target("ratio_at_most", 1.5)))
    report.render(Console(width=200, force_terminal=False))
    out = capsys.readouterr().out
    assert "Baselines" in out and "gRPC echo p50" in out
    assert "execute p50" in out and "2.25×" in out and "miss" in out


def test_markdown_table_has_a_header_and_one_line_per_row():
    report = Report()
    echo = report.baseline("gRPC echo p50", 400_000, "ns")
    report.add(Row("execute p50", 900_000, "ns", echo, Target("ratio_at_most", 1.5)))
    lines = report.markdown().splitlines()
    assert lines[0] == "| figure | value | baseline | baseline value | ratio | target | result |"
    assert lines[1] == "|---|---:|---|---:|---:|---:|---|"
    assert lines[2] == "| execute p50 | 900.0 µs | gRPC echo p50 | 400.0 µs | 2.25× | ≤ 1.5× | miss |"
    assert len(lines) == 3
