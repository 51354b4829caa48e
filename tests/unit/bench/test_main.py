"""The command line of `python -m bench`."""

from __future__ import annotations

import logging

import pytest

from bench.__main__ import RESULTS, SECTIONS, parse_args


def test_defaults_write_the_results_file_and_print_a_table():
    args = parse_args([])
    assert args.out == RESULTS and RESULTS.name == "results.json" and RESULTS.parent.name == "bench"
    assert not (args.json or args.markdown or args.strict)


def test_json_and_markdown_are_exclusive(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--json", "--markdown"])
    assert "not allowed with" in capsys.readouterr().err


def test_only_picks_groups_of_rows_and_defaults_to_all():
    assert parse_args([]).only == frozenset(SECTIONS)
    assert parse_args(["--only", "latency", "--only", "search"]).only == {"latency", "search"}


def test_only_refuses_an_unknown_group(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--only", "latencies"])
    assert "invalid choice: 'latencies'" in capsys.readouterr().err


@pytest.mark.parametrize("ratio, code", [(2.2, 0), (2.4, 1)])
def test_strict_fails_on_a_row_past_its_guard(monkeypatch, tmp_path, ratio, code):
    from bench import __main__ as bench_main
    from bench.cross_process import EXECUTE_P50_GUARD
    from bench.report import Report, Row

    def run_all(log, only):
        report = Report()
        echo = report.baseline("gRPC echo p50", 100_000, "ns")
        report.add(Row("execute, cross-process p50", 100_000 * ratio, "ns", echo, EXECUTE_P50_GUARD))
        return report

    monkeypatch.setattr(bench_main, "run_all", run_all)
    device_level = logging.getLogger("droidsim").level
    assert bench_main.main(["--strict", "--out", str(tmp_path / "r.json")]) == code
    assert bench_main.main(["--out", str(tmp_path / "r.json")]) == 0  # without --strict a miss is reported only
    assert logging.getLogger("droidsim").level == device_level  # the tests after it still hear the device
