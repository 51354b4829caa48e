"""What the apps run on: calculate as τ²'s, and the per-call session that keeps what a call changed
even when it raises (sim/tau2/appkit.py)."""

from __future__ import annotations

import json

import pytest

from droid.appfunctions import AppFunctionAppUnknownException, AppFunctionInvalidArgumentException
from sim.tau2.appkit import DATABASE_FILE, calculate, open_records
from sim.tau2.storage import build_image, read_changes


@pytest.mark.parametrize("expression, result", [
    ("2 + 2", "4.0"), ("10 / 3", "3.33"), ("(99.5 - 12) * 3", "262.5"), ("2**10", "1024.0"), ("7 // 2", "3.0"),
    ("-3 + +1", "-2.0"), ("1.005 * 1000", "1005.0"), ("0.1 + 0.2", "0.3"),
])
def test_calculate_gives_what_taus_eval_gives(expression, result):
    assert calculate(expression) == result == str(round(float(eval(expression)), 2))


@pytest.mark.parametrize("expression, says", [
    ("2 % 3", "Invalid characters"), ("x + 1", "Invalid characters"), ("1 / 0", "division by zero"),
    ("", "Cannot calculate"), ("(1)(2)", "Call is not arithmetic"), ("()", "Tuple is not arithmetic"),
    ("9**9**9", "too large"), ("10.0**400", "Cannot calculate"), ("(-8)**0.5", "Cannot calculate"),
])
def test_calculate_refuses_what_is_not_arithmetic_it_can_finish(expression, says):
    with pytest.raises(AppFunctionInvalidArgumentException, match=says):
        calculate(expression)


def test_a_session_writes_back_what_a_call_changed_before_it_raised(tmp_path):
    loaded = {"users": {"a": '{"n": 1}', "b": '{"n": 2}'}}
    (tmp_path / DATABASE_FILE).write_bytes(build_image(loaded, "tau2"))
    with pytest.raises(AppFunctionInvalidArgumentException):
        with open_records(tmp_path, "retail", writes=True) as db:
            db.get("users", "a")["n"] = 5
            assert db.get("users", "a") is db.scan("users")[0][1]  # one dict per record in a call
            db.get("users", "b")
            raise AppFunctionInvalidArgumentException("refused after changing a")
    assert read_changes((tmp_path / DATABASE_FILE).read_bytes(), loaded) == {("users", "a"): '{"n": 5}'}


def test_a_record_put_under_a_new_key_goes_last_and_under_an_old_one_keeps_its_place(tmp_path):
    (tmp_path / DATABASE_FILE).write_bytes(build_image({"r": {"x": "{}", "y": "{}"}}, "tau2"))
    with open_records(tmp_path, "airline", writes=True) as db:
        db.put("r", "x", {"v": 1})
        db.put("r", "z", {"v": 2})
    with open_records(tmp_path, "airline", writes=False) as db:
        assert [(k, json.dumps(v)) for k, v in db.scan("r")] == [("x", '{"v": 1}'), ("y", "{}"), ("z", '{"v": 2}')]


def test_an_app_without_its_database_says_how_it_gets_one(tmp_path):
    with pytest.raises(AppFunctionAppUnknownException, match="No retail database is loaded.*droidsim eval tau2"):
        with open_records(tmp_path, "retail", writes=False):
            pass


def test_a_reading_session_writes_nothing_back_and_a_replaced_file_is_read_again(tmp_path):
    path = tmp_path / DATABASE_FILE
    loaded = {"users": {"a": '{"n": 1}'}}
    path.write_bytes(build_image(loaded, "tau2"))
    with open_records(tmp_path, "retail", writes=False) as db:
        db.get("users", "a")["n"] = 9
    with open_records(tmp_path, "retail", writes=False) as db:
        assert db.get("users", "a") == {"n": 1}
    assert read_changes(path.read_bytes(), loaded) == {}
    path.write_bytes(build_image({"users": {"a": '{"n": 2}'}}, "tau2"))  # a reset: another file
    with open_records(tmp_path, "retail", writes=False) as db:
        assert db.get("users", "a") == {"n": 2}
