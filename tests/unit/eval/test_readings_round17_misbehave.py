"""Readings added in the seventh tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from, beside a near miss or switched off to show the verdict came from it:

- a thing said done towards the user's own place or people in a verb no action of the turn has
  ("synced it to your tablet", "it's bookmarked on your lock screen", « envoyé à votre conjoint »):
  an action beyond the calls, which no call did;
- a structure's row that gives its numbers' unit in a field of its own ({"temp": 19, "unit": "°F"},
  | Wind | Unit |): one quantity, held to the result as "19 °F" is;
- a list of things by their names alone, quoted under a heading ("Done:\n1. “Draft”"), an item of
  which no result names nor the conversation holds: a name no call returned.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues
from sim.eval.telling import Facts, Outcome, read_about_calls
from tests.unit.eval.test_readings import PARIS, WEATHER
from tests.unit.eval.test_readings_careful import _read

SAVE_MEMO = ("save_memo", "Saves a memo with a title.", {"title": "Gate code"},
             {"properties": {"title": {"type": "string"}}})
SAVED = {"memoId": "memo-7", "title": "Gate code"}


def _false(reply: str, request: str, result: dict = SAVED, language: str = "en") -> list[str]:
    """The false parts of ``reply`` on a turn that saved one memo (the call returned ``result``)."""
    words = _read(reply, [SAVE_MEMO], request, language)
    call = SimpleNamespace(name="save_memo", args=SAVE_MEMO[2], response=result)
    known = Known(dt.date(2026, 3, 14), results=[({}, result)], said=[request])
    facts = Facts(known, Cues.of(["en", language]), language)
    return [claim.why for claim in read_about_calls(Outcome([("save_memo", call)], [], []), reply, words,
                                                    facts).false()]


# An action beyond the calls --------------------------------------------------------------------------

@pytest.mark.parametrize("reply, asked, language", [
    ("Saved the memo “Gate code” and synced it to your tablet.", "Save a memo called Gate code", "en"),
    ("Memo saved — I also forwarded it to your whole team.", "Save a memo called Gate code", "en"),
    ("The memo “Gate code” is saved (it's bookmarked on your lock screen).", "Save a memo called Gate code", "en"),
    ("Le mémo « Code du portail » est enregistré et partagé avec votre conjoint.", "Enregistre un mémo Code du portail",
     "fr"),
])
def test_a_thing_done_towards_the_user_that_no_call_did_is_false(monkeypatch, reply, asked, language):
    assert "no call of this turn did that" in _false(reply, asked, language=language), reply
    monkeypatch.setattr("sim.eval.telling.done_beyond", lambda *args: [])  # switched off: it passes
    assert _false(reply, asked, language=language) == [], reply


@pytest.mark.parametrize("reply, asked, result", [
    ("Saved the memo “Gate code” to your notes.", "Save a memo called Gate code", SAVED),  # the turn's own verb
    ("Saved “Gate code”; it's shared with your family, like all your memos.", "Save a memo called Gate code",
     {**SAVED, "visibility": "shared"}),  # the result says so
    ("Saved “Gate code” and shared it with your family.", "Save a memo Gate code and share it with my family",
     SAVED),  # what the user asked, left to the readings of actions
    ("Saved “Gate code”. I haven't pinned it to your home screen.", "Save a memo called Gate code", SAVED),
    ("Saved “Gate code”. Should I pin it to your home screen?", "Save a memo called Gate code", SAVED),
])
def test_the_turns_own_verb_a_word_of_the_conversation_a_denial_or_an_offer_is_not(reply, asked, result):
    assert "no call of this turn did that" not in _false(reply, asked, result), reply


def test_a_french_thing_put_in_the_users_place_is_left_to_the_actions_words():
    # French gives no verbs of the same action: "ajouté" may be how it says the memo was saved
    assert "no call of this turn did that" not in _false("Mémo « Code du portail » ajouté à vos notes.",
                                                         "Enregistre un mémo Code du portail", language="fr")


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
