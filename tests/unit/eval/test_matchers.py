"""Argument matchers, including dates and times in either JSON shape the device uses."""

from __future__ import annotations

import datetime as dt

import pytest

from sim.eval.matchers import MatcherError, compile_matcher
from sim.eval.values import fit_to_schema

DAY = dt.date(2026, 3, 14)


def ok(raw, value, present=True) -> bool:
    return compile_matcher(raw).check(value, present, DAY) is None


def test_plain_values_are_bfcl_lenient_for_text_and_strict_for_types():
    assert ok("Paris", " paris ") and not ok("Paris", "Lyon")
    assert ok(4, 4) and ok(4.0, 4) and not ok(4, "4") and not ok(True, 1) and not ok(1, True)
    assert ok({"exact": "Paris"}, "Paris") and not ok({"exact": "Paris"}, "paris")
    assert ok(None, None) and not ok(None, "x")


def test_keyword_matchers():
    assert ok({"one_of": ["ON", "on"]}, "On") and not ok({"one_of": ["ON"]}, "OFF")
    assert ok({"any": True}, 0) and not ok({"any": True}, None, present=False)
    assert ok({"absent": True}, None, present=False) and not ok({"absent": True}, "x")
    assert ok({"regex": r"ORD-\d+", "example": "ORD-1"}, "ORD-42") and not ok({"regex": r"ORD-\d+", "example": "ORD-1"}, "xORD-42")
    assert ok({"approx": 21.5, "tolerance": 0.5}, 21.9) and not ok({"approx": 21.5, "tolerance": 0.5}, 22.1)
    assert ok({"contains": {"id": "a"}}, [{"id": "b"}, {"id": "a", "x": 1}]) and not ok({"contains": {"id": "a"}}, [])
    assert ok({"id": "a"}, {"id": "a", "other": 1}) and not ok({"id": "a"}, {"id": "b"})
    assert ok([1, 2], [1, 2]) and not ok([1, 2], [1, 2, 3])


def test_relative_dates_and_times_in_both_shapes():
    assert ok({"date": "tomorrow"}, "2026-03-15")
    assert ok({"date": "+7d"}, {"year": 2026, "month": 3, "dayOfMonth": 21})
    assert ok({"date": "yesterday"}, "2026-03-13") and not ok({"date": "today"}, "2026-03-15")
    assert ok("19:00", {"hour": 19, "minute": 0, "second": 0, "nanoOfSecond": 0}) and ok("19:00", "19:00:00")
    assert not ok("19:00", "19:30")
    schema = {"type": ["object", "null"], "properties": {"year": {}, "month": {}, "dayOfMonth": {}}}
    assert fit_to_schema("2026-03-15", schema) == {"year": 2026, "month": 3, "dayOfMonth": 15}
    assert fit_to_schema("2026-03-15", {"type": "string"}) == "2026-03-15"


@pytest.mark.parametrize("raw, message", [
    ({"regex": "(", "example": "x"}, "bad regex"),
    ({"regex": "a+"}, "needs an example"),
    ({"date": "next week"}, "date takes"),
    ({"approx": "x"}, "approx takes"),
    ({"one_of": []}, "non-empty"),
    ({"any": True, "absent": True}, "one keyword"),
])
def test_bad_matchers_say_what_is_wrong(raw, message):
    with pytest.raises(MatcherError, match=message):
        compile_matcher(raw)
