"""Errors on the command line: one line a script can match whole, coloured only on a terminal."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionException
from droid.os import IllegalArgumentException
from sim.cli.output import fail_with

# Longer than any console width, with spaces where a wrapping console would break it.
LONG = "the first half of a long message " * 4 + "and its end"


@pytest.fixture(autouse=True)
def no_colour_overrides(monkeypatch):
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)


def failure(capsys, error: BaseException) -> str:
    with pytest.raises(SystemExit) as exited:
        fail_with(error)
    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_a_long_error_is_one_plain_line_when_not_a_terminal(capsys):
    assert failure(capsys, IllegalArgumentException(LONG)) == f"Error: IllegalArgumentException: {LONG}\n"


def test_an_app_function_error_names_its_code(capsys):
    error = AppFunctionException(AppFunctionException.ERROR_DENIED, LONG)
    assert failure(capsys, error) == f"Error: ERROR_DENIED (1000): {LONG}\n"


def test_on_a_terminal_the_error_is_coloured_and_still_one_line(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich's switch for "this is a terminal"
    assert failure(capsys, IllegalArgumentException(LONG)) == (
        f"\x1b[1;31mError: \x1b[0mIllegalArgumentException: {LONG}\n"
    )
