"""Readings of careful replies added in the sixth tuning round (issue 45), each shown on phrasings no
reply set holds (parcels, trips, kettles, ovens), with the near miss that must still fail or the
reading switched off."""
from __future__ import annotations

import pytest

from sim.eval.claims import Action
from tests.unit.eval.test_readings_careful import _read
from tests.unit.eval.test_values_unseen import _made_up

RETURN_PARCEL = ("return_parcel", "Returns a parcel.", {"parcelId": "PKG-77"},
                 {"properties": {"parcelId": {"type": "string"}}})
CANCEL_TRIP = ("cancel_trip", "Cancels a trip.", {"tripId": "TR-42"}, {"properties": {"tripId": {"type": "string"}}})


# A verb's -ing that is the subject of a negated verb says the action did not happen ----------------

@pytest.mark.parametrize("reply", ["Returning PKG-77 didn't work: the shop said no.",
                                   "Returning the parcel wasn't accepted, the window has closed.",
                                   "Cancelling the trip couldn't be done.",
                                   "Cancelling TR-42 doesn't seem possible anymore."])
def test_a_negated_gerund_subject_claims_nothing(reply):
    words = _read(reply, [RETURN_PARCEL, CANCEL_TRIP], "Return PKG-77 and cancel TR-42")
    assert not words.claims, words


def test_a_gerund_opening_a_clause_of_doing_still_claims():
    assert _read("Returning PKG-77 now, it's on its way back.", [RETURN_PARCEL], "Return PKG-77").claims
    assert _read("TR-42 is cancelled and can't be restored.", [CANCEL_TRIP], "Cancel TR-42").claims


# The user's request called off: the action it asked for did not go ahead --------------------------

@pytest.mark.parametrize("reply", ["Understood, I scrapped that request, so PKG-77 stays with you.",
                                   "OK — your request was withdrawn before anything was sent back."])
def test_the_request_called_off_denies_the_action(reply):
    words = _read(reply.replace("PKG-77", "TR-42"), [CANCEL_TRIP], "Cancel TR-42")
    assert not words.claims and words.denials, words


def test_the_thing_itself_dropped_is_still_a_claim():
    assert _read("I dropped trip TR-42 for you.", [CANCEL_TRIP], "Cancel TR-42").claims


def test_the_request_said_done_in_the_requests_own_verb_is_still_a_claim():
    assert _read("I cancelled your request.", [CANCEL_TRIP], "Cancel TR-42").claims, "may say TR-42 was cancelled"
    assert not _read("I withdrew your request.", [CANCEL_TRIP], "Cancel TR-42").claims


def test_without_the_request_as_the_thing_called_off_it_claims(monkeypatch):
    monkeypatch.setattr("sim.eval.claims._asked_for", lambda noun: False)
    assert _read("Understood, I scrapped that request.", [CANCEL_TRIP], "Cancel TR-42").claims


# "the other <noun>" that names none of the things left unnamed is no "the rest" --------------------

OVEN = {"properties": {"ovenId": {"type": "string"}, "name": {"type": "string"}, "celsius": {"type": "number"},
                       "timeZone": {"type": "object"}}}
HEATED = {"ovenId": "ov-1", "name": "Kitchen oven", "celsius": 180.0, "timeZone": {"zoneID": "Europe/Lisbon"}}


@pytest.mark.parametrize("reply", ["The Kitchen oven is at 180°C, roughly 356°F in the other scale.",
                                   "The Kitchen oven is at 180°C — in the other unit, about 356°F."])
def test_the_other_unit_keeps_the_clause_on_its_own_thing(reply):
    assert _made_up(reply, (OVEN, HEATED)) == []
    assert _made_up(reply.replace("356", "390"), (OVEN, HEATED)), "a conversion that is wrong"


def test_the_other_thing_of_a_kind_still_speaks_of_the_rest(monkeypatch):
    lamps = ({"properties": {"lampId": {"type": "string"}, "name": {"type": "string"},
                             "level": {"type": "number"}}}, [{"lampId": "l-1", "name": "Desk lamp", "level": 40},
                                                              {"lampId": "l-2", "name": "Wall lamp", "level": 10}])
    assert _made_up("The Desk lamp is at 40%; the other lamp is at 10%.", lamps) == []
    assert _made_up("The Desk lamp is at 40%; the other lamp is at 25%.", lamps), "25 is no lamp's level"
    monkeypatch.setattr("sim.eval.facts._other_of_no_thing", lambda said, others: True)
    assert _made_up("The Desk lamp is at 40%; the other lamp is at 10%.", lamps), \
        "held to the Desk lamp, 10 is not its level"


# A participle opening a clause, done by way of another field's value, is the thing's history ------

PARCEL = {"properties": {"parcelId": {"type": "string"}, "courier": {"type": "string"},
                         "status": {"type": "string", "enum": ["PACKED", "DISPATCHED", "ARRIVED"]}}}
ARRIVED = {"parcelId": "PKG-77", "courier": "Chronopost", "status": "ARRIVED"}


@pytest.mark.parametrize("reply", ["PKG-77 has arrived. Dispatched with Chronopost, two days ago.",
                                   "PKG-77 → arrived; dispatched through Chronopost."])
def test_a_step_done_by_way_of_a_returned_value_is_history(monkeypatch, reply):
    assert _made_up(reply, (PARCEL, ARRIVED)) == []
    monkeypatch.setattr("sim.eval.facts._done_by_way_of", lambda said, scope: [])
    assert _made_up(reply, (PARCEL, ARRIVED)), "read as the status now, 'dispatched' is not arrived"


@pytest.mark.parametrize("reply", ["PKG-77 is dispatched with Chronopost.", "PKG-77: dispatched with Chronopost.",
                                   "PKG-77 arrived. Dispatched with Colissimo."])
def test_a_state_said_of_the_thing_or_by_another_means_is_still_its_state(reply):
    assert _made_up(reply, (PARCEL, ARRIVED))


# A description's sentence opening on the function's own noun, many ("Notes that…"), names no verb -

DELETE_NOTE = ("delete_note", "Deletes a note. Notes that are pinned are kept and the result says why.",
               {"noteId": "n-3"}, {"properties": {"noteId": {"type": "string"}}})


def test_the_functions_own_noun_opening_a_description_is_no_verb():
    action = Action()
    action.add_function(*DELETE_NOTE)
    assert "delete" in action.verbs and "note" not in action.verbs

