"""Readings of careful replies added in the seventh tuning round (issue 45), each shown on phrasings no
reply set holds (kettles, trips, parcels, boilers), with the near miss that must still fail or the
reading switched off."""
from __future__ import annotations

import re

import pytest

from sim.eval.claims import Action
from sim.eval.facts import made_up
from sim.eval.phrases import Cues
from tests.unit.eval.test_readings_careful import _known, _made_up, _read

KETTLE = {"properties": {"kettleId": {"type": "string"}, "mode": {"type": "string"},
                         "waterC": {"type": "number"}, "litres": {"type": "number"}}}
BOILING = {"kettleId": "k-1", "mode": "boiling", "waterC": 96.0, "litres": 1.7}


# The number that opens a numbered list's line is the item's place, no value -----------------------

@pytest.mark.parametrize("reply", [
    "1. I asked the kettle app for k-1.\n2. The water is at 96°C.\n3. It holds 1.7 litres.",
    "Here's what I did:\n1) Read k-1's state.\n2) Water: 96°C, 1.7 litres.\n\nAnything else?",
    "> 4. Water at 96°C\n> 5. 1.7 litres inside",
])
def test_a_numbered_lists_item_numbers_are_no_values(reply):
    assert _made_up(reply, (KETTLE, BOILING)) == []


OVEN = {"properties": {"ovenId": {"type": "string"}, "mode": {"type": "string"}, "celsius": {"type": "number"}}}
GRILLING = {"ovenId": "ov-3", "mode": "grill", "celsius": 180.0}


def test_a_number_inside_a_numbered_line_is_still_held_to_the_results(monkeypatch):
    steps = "1. I asked the oven app for ov-3.\n2. It came back grilling, {}°C.\n3. Mind the heat."
    assert _made_up(steps.format(180), (OVEN, GRILLING)) == []
    assert _made_up(steps.format(190), (OVEN, GRILLING)) == ["'190', which no call returned"]
    monkeypatch.setattr("sim.eval.facts._without_item_numbers", lambda prose: prose)
    assert _made_up(steps.format(180), (OVEN, GRILLING)) == ["'1', which no call returned",
                                                             "'2', which no call returned"]


# A verb whose object is the action's noun acts on the action: no thing's status -------------------

TRIP = {"properties": {"tripId": {"type": "string"}, "status": {"type": "string", "enum": [
    "CONFIRMED", "CANCELLED", "PENDING"]}}}


def _said_of_the_trip(reply: str, language: str = "en") -> list[str]:
    action = Action()
    action.add_verbs(["cancel"])
    request = "Annule le voyage TR-42" if language == "fr" else "Cancel trip TR-42"
    known = _known((TRIP, {"tripId": "TR-42", "status": "CANCELLED"}))
    return made_up(reply, known, Cues.of(["en", language]), language=language,
                   exclude=action.with_request(request).words())


@pytest.mark.parametrize("reply, language", [
    ("The travel app validated your cancellation of TR-42.", "en"),
    ("I sent the request for TR-42 and the agency confirmed the cancellation within a second.", "en"),
    ("L'agence a confirmé l'annulation du voyage TR-42.", "fr"),
])
def test_a_verb_acting_on_the_actions_noun_states_no_status(reply, language):
    assert _said_of_the_trip(reply, language) == []


def test_the_status_said_of_the_thing_is_still_held_to_it():
    assert _said_of_the_trip("TR-42 is confirmed.")
    assert _said_of_the_trip("The agency confirmed TR-42, the cancellation is done.")  # the trip, not the action
    assert _said_of_the_trip("TR-42 is confirmed, the cancellation is pending.")


# A floating "all" between a subject and "still": the whole kept as it was -------------------------

STOP_BOILER = ("stop_boiler", "Stops a boiler's heating schedule.", {"boilerId": "B-9"},
               {"properties": {"boilerId": {"type": "string"}}})


@pytest.mark.parametrize("reply", ["Fine, I haven't stopped anything: they're all still as they were.",
                                   "No problem, nothing stopped, it's all still in place."])
def test_the_whole_still_as_it_was_claims_nothing(reply):
    words = _read(reply, [STOP_BOILER], "Stop boiler B-9")
    assert not words.claims and words.denials, words


def test_a_thing_said_to_be_all_done_is_still_a_claim():
    assert _read("It's all stopped now.", [STOP_BOILER], "Stop boiler B-9").claims


# What the app's answer did not hold, of something other than the action: no denial ---------------

RETURN_PARCEL = ("return_parcel", "Returns a parcel to its sender.", {"parcelId": "PKG-77"},
                 {"properties": {"parcelId": {"type": "string"}}})


@pytest.mark.parametrize("reply", [
    "PKG-77 is on its way back. The courier service didn't return a pickup time, so I can't say when they'll come.",
    "PKG-77 is being returned. The shop's response doesn't mention any label fee.",
    "PKG-77 has been returned; the system did not return a tracking link.",
])
def test_what_the_apps_answer_did_not_hold_denies_nothing(reply):
    words = _read(reply, [RETURN_PARCEL], "Return parcel PKG-77")
    assert words.claims and not words.denials, words


@pytest.mark.parametrize("reply", ["The app didn't return PKG-77.", "The service did not return the parcel.",
                                   "The courier service didn't return a pickup time."])
def test_the_app_not_doing_the_action_is_still_a_denial(reply, monkeypatch):
    words = _read(reply, [RETURN_PARCEL], "Return parcel PKG-77")
    if "pickup" in reply:  # the reading switched off: what the answer lacked reads as the action undone
        monkeypatch.setattr("sim.eval.claims._withheld_by_the_app", lambda plain, said: False)
        words = _read(reply, [RETURN_PARCEL], "Return parcel PKG-77")
    assert words.denials, words


# The pronoun of what the app is reported to say speaks of what was named before it ---------------

TICKET = {"properties": {"ticketId": {"type": "string"}, "canRefund": {"type": "boolean"}}}
TICKETS = [(TICKET, {"ticketId": "TK-1", "canRefund": True}), (TICKET, {"ticketId": "TK-2", "canRefund": False})]


@pytest.mark.parametrize("reply", [
    "You asked about TK-1. The service says it can still be refunded. TK-2 is past its window.",
    "TK-1 first. The app shows that it can still be refunded. TK-2 no longer can.",
])
def test_a_pronoun_in_what_the_app_says_speaks_of_the_thing_named_before(reply):
    assert _made_up(reply, *TICKETS) == []
    assert _made_up(reply.replace("TK-1", "TK-9").replace("TK-2", "TK-1").replace("TK-9", "TK-2"), *TICKETS)


def test_without_the_reported_pronoun_the_ability_is_held_to_every_ticket(monkeypatch):
    monkeypatch.setattr("sim.eval.facts._ANAPHOR", re.compile(r"^\s*(?:it|it's|its)\b", re.I))
    assert _made_up("You asked about TK-1. The service says it can still be refunded.", *TICKETS)


# A denial of what a missing kind of app would do is a limit of the device, not the calls denied ----

LOG_RUN = ("log_run", "Logs a run in the fitness app.", {"km": 5}, {"properties": {"km": {"type": "number"}}})


@pytest.mark.parametrize("reply, language", [
    ("Logged your 5 km run. I didn't log it to a calendar: there's no calendar app on this phone.", "en"),
    ("Your 5 km run is logged; it isn't logged in your diary — no diary app here.", "en"),
    ("Course de 5 km enregistrée. Je ne l'ai pas mise dans l'agenda : il n'y a pas d'appli d'agenda.", "fr"),
])
def test_what_a_missing_app_would_do_denies_nothing_done(reply, language):
    words = _read(reply, [LOG_RUN], "Log my 5 km run", language=language)
    assert not words.denials, words


def test_the_action_denied_beside_a_missing_app_is_still_a_denial(monkeypatch):
    assert _read("I haven't logged the run — there's no fitness app here.", [LOG_RUN], "Log my 5 km run").denials
    assert _read("I didn't log it to a calendar, though the calendar app is here.", [LOG_RUN],
                 "Log my 5 km run").denials
    monkeypatch.setattr("sim.eval.claims._of_an_absent_app", lambda clause, said: False)
    assert _read("Logged your 5 km run. I didn't log it to a calendar: there's no calendar app on this phone.",
                 [LOG_RUN], "Log my 5 km run").denials


# A sentence run on after a name with no stop: its opening word is no word of the name -----------

FORECAST = {"properties": {"city": {"type": "string"}, "celsius": {"type": "number"}}}
PLUG = {"properties": {"plugName": {"type": "string"}, "isOn": {"type": "boolean"}}}


@pytest.mark.parametrize("reply", ["☀️ 24°C in Lisbon None of the plugs is on right now.",
                                   "24°C over Lisbon Both plugs are off."])
def test_a_sentence_run_on_after_a_name_is_no_part_of_it(reply):
    results = [(FORECAST, {"city": "Lisbon", "celsius": 24.0}), (PLUG, {"plugName": "Desk plug", "isOn": False}),
               (PLUG, {"plugName": "Fan plug", "isOn": False})]
    assert _made_up(reply, *results) == []
    assert _made_up(reply.replace("Lisbon", "Faro"), *results), "a city no call returned"


def test_without_the_run_on_reading_the_name_takes_the_next_sentences_word(monkeypatch):
    monkeypatch.setattr("sim.eval.facts._RUN_ON_OPENER", re.compile(r"(?!)"))
    assert _made_up("☀️ 24°C in Lisbon None of the plugs is on.", (FORECAST, {"city": "Lisbon", "celsius": 24.0}),
                    (PLUG, {"plugName": "Desk plug", "isOn": False})) == ["'Lisbon None', which no call returned"]


# A parenthesis after a sentence that names nothing says what it speaks of --------------------------

PARCEL = {"properties": {"parcelId": {"type": "string"}, "stage": {"type": "string", "enum": [
    "PACKED", "IN_TRANSIT", "DELIVERED"]}}}
PARCELS = [(PARCEL, {"parcelId": "PKG-31", "stage": "IN_TRANSIT"}), (PARCEL, {"parcelId": "PKG-58", "stage": "PACKED"})]


@pytest.mark.parametrize("reply", ["Short version: in transit. (PKG-31) Short version: packed. (PKG-58)",
                                   "In short — **in transit** (PKG-31). In short — **packed** (PKG-58)."])
def test_an_aside_after_the_sentence_names_what_it_speaks_of(reply):
    assert _made_up(reply, *PARCELS) == []
    swapped = reply.replace("PKG-31", "PKG-00").replace("PKG-58", "PKG-31").replace("PKG-00", "PKG-58")
    assert _made_up(swapped, *PARCELS)


def test_without_the_aside_read_as_closing_the_sentence_before_it_is_held_to_the_wrong_parcel(monkeypatch):
    monkeypatch.setattr("sim.eval.facts._LEADING_ASIDE", re.compile(r"(?!)"))
    assert _made_up("Short version: in transit. (PKG-31) Short version: packed. (PKG-58)", *PARCELS)


@pytest.mark.parametrize("reply", ["PKG-77 is on its way back, but the courier service didn't return any confirmation.",
                                   "PKG-77 should be heading back; the app did not return any answer though."])
def test_the_app_withholding_how_the_action_went_is_still_a_denial(reply, monkeypatch):
    assert _read(reply, [RETURN_PARCEL], "Return parcel PKG-77").denials
    monkeypatch.setattr("sim.eval.claims._AN_OUTCOME", re.compile(r"(?!)"))
    assert not _read(reply, [RETURN_PARCEL], "Return parcel PKG-77").denials
