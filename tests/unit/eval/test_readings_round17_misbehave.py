"""Readings added in the seventh tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from, beside a near miss or switched off to show the verdict came from it:

- a structure's row that gives its numbers' unit in a field of its own ({"temp": 19, "unit": "°F"},
  | Wind | Unit |): one quantity, held to the result as "19 °F" is;
- a list of things by their names alone, quoted under a heading ("Done:\n1. “Draft”"), an item of
  which no result names nor the conversation holds: a name no call returned.
"""

from __future__ import annotations

import datetime as dt

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues
from tests.unit.eval.test_readings import PARIS, WEATHER

# A row's unit in a field of its own -------------------------------------------------------------------

def _values_false(reply: str) -> list[str]:
    known = Known(dt.date(2026, 3, 14))
    known.add_result(WEATHER, PARIS, {})  # 19.4 °C, wind 9.7 km/h
    return made_up(reply, known, Cues.of(["en"]), language="en")


@pytest.mark.parametrize("reply", [
    'Paris now:\n```json\n{"temp": 19, "unit": "°F", "sky": "cloudy"}\n```',
    "| Place | Temperature | Units |\n|---|---|---|\n| Paris | 19 | fahrenheit |",
    'Paris:\n```json\n{"temperature": 19, "wind": 10, "windUnit": "mph"}\n```',  # the wind's own unit
])
def test_a_number_with_its_unit_in_a_field_of_its_row_is_one_quantity(monkeypatch, reply):
    assert any("no call returned in any unit" in why for why in _values_false(reply)), reply
    monkeypatch.setattr("sim.eval.facts._unit_of_record", lambda record: {})  # switched off: the bare number
    assert not any("no call returned in any unit" in why for why in _values_false(reply)), reply


@pytest.mark.parametrize("reply", [
    'Paris now:\n```json\n{"temp": 19, "unit": "°C", "sky": "cloudy"}\n```',
    'Paris:\n```json\n{"temperature": 19, "wind": 10, "unit": "km/h"}\n```',  # km/h is the wind's, not 19's
    'Paris:\n```json\n{"temperature": 19, "wind": 10, "unit": "°C / km/h"}\n```',  # not one unit
])
def test_a_unit_field_that_agrees_or_is_not_of_the_numbers_kind_is_not(reply):
    assert not any("no call returned in any unit" in why for why in _values_false(reply)), reply


# A list of names, one of which nothing returned ------------------------------------------------------

MEMOS = [({"properties": {"memoId": {"type": "string"}, "title": {"type": "string"}, "body": {"type": "string"}}},
          {"memoId": f"memo-{i}", "title": title, "body": "pick up 2 boxes"}) for i, title in ((4, "Rent"), (5, "Boiler"))]


def _names_false(reply: str, language: str = "en") -> list[str]:
    known = Known(dt.date(2026, 3, 14), said=["Save two memos, Rent and Boiler"])
    for schema, result in MEMOS:
        known.add_result(schema, result, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language)


@pytest.mark.parametrize("reply, language", [
    ("Saved these:\n* “Rent”\n* “Draft”", "en"),
    ("Done:\n1. \"Boiler\"\n2. \"New memo\"", "en"),
    ("Mémos enregistrés :\n- « Loyer »\n- « Boiler »", "fr"),
])
def test_a_listed_name_nothing_returned_is_made_up(monkeypatch, reply, language):
    assert any("listed as a name" in why for why in _names_false(reply, language)), reply
    monkeypatch.setattr("sim.eval.facts._listed_unnamed", lambda *args: [])  # switched off: no other reading has it
    assert not any("Draft" in why or "New memo" in why or "Loyer" in why for why in _names_false(reply, language))


@pytest.mark.parametrize("reply", [
    "Saved these:\n* “Rent”\n* “Boiler”",  # the names the calls returned
    "Saved these:\n* “rent”\n* “pick up 2 boxes”",  # a name in other case; a memo's text the call returned
    "Saved “Rent” and “Draft”.",  # no list: left to the other readings of names
])
def test_names_returned_or_not_listed_alone_are_not(reply):
    assert not any("listed as a name" in why for why in _names_false(reply)), reply
