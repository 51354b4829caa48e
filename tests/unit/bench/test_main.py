"""The command line of `python -m bench`."""

from __future__ import annotations

import pytest

from bench.__main__ import RESULTS, parse_args


def test_defaults_write_the_results_file_and_print_a_table():
    args = parse_args([])
    assert args.out == RESULTS and RESULTS.name == "results.json" and RESULTS.parent.name == "bench"
    assert not (args.json or args.markdown or args.strict)


def test_json_and_markdown_are_exclusive(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--json", "--markdown"])
    assert "not allowed with" in capsys.readouterr().err
