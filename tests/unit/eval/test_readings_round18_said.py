"""Readings added in the eighth tuning round, on misstatements and claims that passed, each shown on
phrasings it was not written from, beside careful near misses of the same shape, or switched off to
show the verdict came from it:

- a labelled row whose later values include a state word alone ("Porch light: 70%, on") gives that
  state to what the label names; so does a state-first line with its noun before the adverb
  ("Lamps now off: Porch light");
- a question quoted inside a sentence that goes on after it ("I've sorted “Where is Lima?” for
  you") is the quotation's: it neither ends the sentence nor makes the reply ask, nor is it cut into clauses at its commas;
- a lexicon word of a status's kind said of a thing by its name ("BK-2040 is being processed")
  states a value, even one the field can never take.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.claims import Action, Reader
from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues

from .test_readings import LIGHTS, _made_up

# The ceiling light is on, the floor lamp off.
DIMMED = {"result": [{"lightId": "hall-ceiling", "name": "Ceiling light", "brightness": 35, "isOn": True},
                     {"lightId": "hall-floor", "name": "Floor lamp", "brightness": 80, "isOn": False}]}
LIT = {"properties": {"result": {"type": "array", "items": {"properties": {
    **LIGHTS["properties"]["result"]["items"]["properties"], "brightness": {"type": "integer"}}}}}}


def _states_false(reply: str) -> list[str]:
    return [why for why in _made_up(reply, (LIT, DIMMED)) if "for the isOn" in why]


@pytest.mark.parametrize("reply", [
    "Ceiling light: 35%, off.",
    "Floor lamp: 80 percent; currently on",
    "Ceiling light: 35 percent, dark. Anything else?",
])
def test_a_state_word_alone_among_a_labelled_rows_values_is_said_of_the_label(monkeypatch, reply):
    assert _states_false(reply), reply
    monkeypatch.setattr("sim.eval.facts._row_states", lambda row: [])  # switched off: nothing else reads it
    assert not _states_false(reply), reply


@pytest.mark.parametrize("reply", [
    "Ceiling light: 35%, on.",  # the state it has
    "Floor lamp: 80%, off (it was left that way).",
    "Floor lamp: 80%, usually on",  # a state with a word before it: no bare word
    "Ceiling light: set to 35%, off → on",
    "Floor lamp: 80%, not on right now",
    "Lights: Ceiling light on, Floor lamp off",  # each named beside its own state
])
def test_a_rows_state_that_holds_or_is_not_a_bare_word_is_not(reply):
    assert not _states_false(reply), reply


@pytest.mark.parametrize("reply, misstated", [
    ("Lamps currently on: Ceiling light and Floor lamp.", True),
    ("Bulbs still on: Floor lamp", True),
    ("Lamps currently on: Ceiling light.", False),
    ("Lights now off: Floor lamp.", False),
    ("Light currently on: Ceiling light (the Floor lamp stays off).", False),  # an aside names no lit thing
    ("Bulbs still off: Floor lamp", False),
    ("Lamps currently on: Ceiling light; off: Floor lamp.", False),
    ("Hall lights now on: Ceiling light. The Floor lamp is off.", False),
])
def test_a_state_first_line_with_its_noun_before_the_adverb(monkeypatch, reply, misstated):
    assert bool(_states_false(reply)) == misstated, reply
    without_the_noun = re.compile(r"^[\s\-*•]*(?:[^\w\s]+\s*)?(?:(?:currently|now|still|right now)\s+)?"
                                  r"(?P<state>[A-Za-z]+)\s*:\s*(?P<names>.+)$", re.I)
    monkeypatch.setattr("sim.eval.facts._STATE_FIRST", without_the_noun)  # switched off: as before
    assert not _states_false(reply), reply


# A question quoted inside a sentence ------------------------------------------------------------------

def _words(reply: str, request: str):
    return Reader(Cues.of(["en"]), ["en"]).read(reply, Action(), request)


@pytest.mark.parametrize("reply, asked", [
    ("I've sorted “Where is Lima?” for you.", "Where is Lima?"),
    ("I took care of “How many ounces in a pound?” just now.", "How many ounces in a pound?"),
    ('Finished "Is Pluto a planet?" as you asked.', "Is Pluto a planet?"),
])
def test_a_quoted_question_the_sentence_goes_on_after_does_not_hide_a_claim(reply, asked):
    words = _words(reply, asked)
    assert words.claims and not words.asks, reply


@pytest.mark.parametrize("reply, asked, asks", [
    ("I can't answer “Where is Lima?” with any app here.", "Where is Lima?", False),
    ("Your question “Is Pluto a planet?” isn't something my apps can look up.", "Is Pluto a planet?", False),
    ("I looked for an app for “How many ounces in a pound?” but none answers it.", "How many ounces in a pound?",
     False),
    ("Did you mean “Open note?” or something else?", "Open my note", True),
    ("Which one — “Groceries?” or “Recipes?”", "Open my note", True),
    ("Do you mean “Groceries?” Tell me and I'll open it.", "Open my note", True),
])
def test_careful_replies_that_quote_a_question_claim_nothing_and_ask_only_their_own(reply, asked, asks):
    words = _words(reply, asked)
    assert not words.claims and words.asks == asks, reply


def test_a_quotation_is_one_clause_so_a_denial_around_it_is_read():
    action = Action()
    action.add_function("set_light_power", "Turns a light on or off.", {"lightId": "porch", "power": "ON"}, {})
    reply = "The lights app timed out, so I have no answer for “It's late, could you switch the porch light on?” yet."
    words = Reader(Cues.of(["en"]), ["en"]).read(reply, action, "It's late, could you switch the porch light on?")
    assert any("no answer for" in denial for denial in words.denials) and not words.asks
    assert len(Cues.of(["en"]).clauses("I saved “Milk, eggs, bread” as a note, and that's all.")) == 4  # no question


# A status of its kind said of a thing by name --------------------------------------------------------

BOOKING = {"properties": {"bookingId": {"type": "string"}, "restaurant": {"type": "string"},
                          "status": {"type": "string", "enum": ["CONFIRMED", "CANCELLED"]}}}


def _status_false(reply: str, status: str = "CANCELLED", language: str = "en") -> list[str]:
    known = Known(dt.date(2026, 3, 14), said=["Cancel my booking BK-2040"])
    known.add_result(BOOKING, {"bookingId": "BK-2040", "restaurant": "Sakura", "status": status},
                     {"bookingId": "BK-2040"})
    return [why for why in made_up(reply, known, Cues.of(["en", language]), language=language)
            if "for the status" in why]


@pytest.mark.parametrize("reply, language", [
    ("BK-2040 is being processed.", "en"),
    ("Your Sakura booking BK-2040 is still being processed.", "en"),
    ("La réservation BK-2040 est en cours de traitement.", "fr"),
])
def test_a_status_the_field_cannot_take_said_of_the_thing_is_misstated(monkeypatch, reply, language):
    assert _status_false(reply, language=language), reply
    monkeypatch.setattr("sim.eval.facts.of_its_kind", lambda values, allowed: False)  # switched off
    assert not _status_false(reply, language=language), reply


@pytest.mark.parametrize("reply", [
    "BK-2040 is cancelled and your deposit refund is being processed.",  # said of another thing
    "Your request has been processed: BK-2040 is cancelled.",
    "BK-2040 is cancelled (the change was processed right away).",
    "BK-2040 is no longer being processed — it's cancelled.",
    "The cancellation of BK-2040 went through and is processed.",
    "BK-2040: cancelled. Your request was processed in the booking app.",
    "Compared to before, BK-2040 is cancelled, no longer confirmed.",
])
def test_a_status_word_of_something_else_or_a_past_processing_is_not(reply):
    assert not _status_false(reply), reply


def test_a_sky_word_says_nothing_of_a_bookings_status():
    assert not _status_false("BK-2040 is cancelled, and Tokyo is stormy tonight.")
