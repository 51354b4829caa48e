"""Readings of careful replies added in the seventh tuning round (issue 45), each shown on phrasings no
reply set holds (kettles, trips, parcels, boilers), with the near miss that must still fail or the
reading switched off."""
from __future__ import annotations

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
    "PKG-77 is on its way back. The courier service didn't give a pickup time, so I can't say when they'll come.",
    "PKG-77 is being returned. The shop's response doesn't mention any label fee.",
    "PKG-77 has been returned; the system did not provide a tracking link.",
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
