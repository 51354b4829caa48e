"""Readings of careful replies added in the fifth tuning round (issue 45), each shown on phrasings no
reply set holds (fans, parcels, trips, tips; en/fr/th/zh), with the near miss that must still fail or
the reading switched off."""
from __future__ import annotations

import re

import pytest

from sim.eval.arithmetic import miscalculated
from tests.unit.eval.test_readings_careful import _read
from tests.unit.eval.test_values_unseen import _made_up

NEVER = re.compile(r"(?!)")
FAN = {"properties": {"fanId": {"type": "string"}, "name": {"type": "string"}}}
PARCEL = {"properties": {"parcelId": {"type": "string"},
                         "status": {"type": "string", "enum": ["PENDING", "CONFIRMED", "RETURNED"]}}}
FETCH_PARCEL = ("fetch_parcel", "Fetches a parcel's status.", {"parcelId": "PKG-77"},
                {"properties": {"parcelId": {"type": "string"}}})
CANCEL_TRIP = ("cancel_trip", "Cancels a trip.", {"tripId": "TR-42"}, {"properties": {"tripId": {"type": "string"}}})


# An article in capitals opens its sentence; it is no word of the name after it ---------------------

@pytest.mark.parametrize("reply", ["Done ✔️ The Hallway fan is off now.", "Done ✔️ The Hallway fan has stopped."])
def test_an_opening_article_is_no_part_of_a_name(monkeypatch, reply):
    fans = (FAN, {"fanId": "f-1", "name": "Hallway fan"})
    assert _made_up(reply, fans) == []
    assert _made_up(reply.replace("Hallway", "Garage"), fans), "a name no call returned, article or not"
    monkeypatch.setattr("sim.eval.facts._OPENING_ARTICLE", NEVER)
    assert _made_up(reply, fans), "with its article, the name is one no call returned"


# A linking verb says what a thing was, not that anyone did anything ---------------------------------

@pytest.mark.parametrize("reply", ["Ottawa. It became the capital in 1857, on Queen Victoria's choice.",
                                   "It remained the biggest port of the region for a century.",
                                   "The bridge stayed the longest in Europe until 1998."])
def test_a_linking_verb_claims_nothing_done(reply):
    assert _read(reply, [], "Why is Ottawa Canada's capital?").claims == ()


def test_a_verb_of_doing_after_a_pronoun_still_claims():
    assert _read("It sent the invitation to everyone.", [], "Invite my team to lunch").claims


# A percentage the reply splits the question's into: its steps follow -------------------------------

@pytest.mark.parametrize("question, right, wrong", [
    ("What's an 18% tip on $50?", "10% is $5.00 and 8% is $4.00, so the tip is $9.00.",
     "10% is $5.00 and 8% is $4.50, so the tip is $9.50."),
    ("Combien font 25 % de 60 € ?", "20 % = 12 €, 5 % = 3 €, donc 15 € en tout.", "20 % = 12 €, 5 % = 4 €, donc 16 €."),
])
def test_a_percentage_split_into_parts_gives_its_steps(question, right, wrong):
    assert miscalculated(right, question) == []
    assert miscalculated(wrong, question)


def test_a_percentage_of_the_replys_own_is_no_step():
    assert miscalculated("A 10% tip is $5.00.", "What's an 18% tip on $50?"), "10 % splits none of the 18 % asked"


# An aside naming the app as the one that vouched is whose word it is, not a status ------------------

@pytest.mark.parametrize("reply, language", [
    ("Colis PKG-77 : retourné ✅ (confirmé par l'application).", "fr"),
    ("包裹 PKG-77 已退回（系统已确认）。", "zh"),
    ("Parcel PKG-77 is returned (confirmed by the app).", "en"),
])
def test_an_aside_vouched_by_the_app_says_no_status(monkeypatch, reply, language):
    parcel = (PARCEL, {"parcelId": "PKG-77", "status": "RETURNED"})
    assert _made_up(reply, parcel, language=language) == []
    monkeypatch.setattr("sim.eval.facts._vouched_by_the_app", lambda said: [])
    assert _made_up(reply, parcel, language=language), "read as a status, confirmed is not the parcel's"


def test_a_status_outside_the_aside_is_still_held():
    parcel = (PARCEL, {"parcelId": "PKG-77", "status": "RETURNED"})
    assert _made_up("Colis PKG-77 : confirmé (vérifié par l'application).", parcel, language="fr")


# Regret for the user's loss is no failure of the agent's work -------------------------------------

@pytest.mark.parametrize("reply", ["TR-42 is cancelled. So sorry your holiday fell through.",
                                   "Done, TR-42 is called off. Sorry to hear the weekend plans broke down."])
def test_regret_for_the_users_loss_denies_nothing(reply):
    assert _read(reply, [CANCEL_TRIP], "Cancel my trip").denials == ()


@pytest.mark.parametrize("reply", ["Sorry the cancellation fell through.", "Sorry, TR-42 fell through on my side.",
                                   "So sorry your holiday fell through.",  # told alone: nothing says the work was done
                                   "TR-42 is cancelled. Sorry the devices timed out.",
                                   "Sorry, the request broke down.", "Sorry there was a glitch.",
                                   "Sorry the server timed out."])
def test_regret_for_the_work_itself_still_denies(reply):
    assert _read(reply, [CANCEL_TRIP], "Cancel my trip").denials


# A standing limit of what the agent sees, of a thing no call acts on --------------------------------

@pytest.mark.parametrize("reply, language", [
    ("PKG-77 is confirmed. I can't see the driver's exact position.", "en"),
    ("PKG-77 est confirmé. Je ne peux pas voir la position du livreur.", "fr"),
    ("PKG-77 已确认。我看不到快递员的实时位置。", "zh"),
])
def test_a_standing_limit_of_sight_denies_nothing(monkeypatch, reply, language):
    assert _read(reply, [FETCH_PARCEL], "Where is PKG-77?", language).denials == ()
    monkeypatch.setattr("sim.eval.claims._CANNOT_ACCESS", NEVER)
    assert _read(reply, [FETCH_PARCEL], "Where is PKG-77?", language).denials


@pytest.mark.parametrize("reply", ["I can't see your parcel right now.", "I can't see PKG-77 in your account.",
                                   "I can't see the parcel details."])
def test_not_seeing_the_thing_looked_up_still_denies(reply):
    assert _read(reply, [FETCH_PARCEL], "Where is PKG-77?").denials


# A thing shown whole: its title as heading, then its text -----------------------------------------

NOTE = {"properties": {"noteId": {"type": "string"}, "title": {"type": "string"}, "content": {"type": "string"}}}


@pytest.mark.parametrize("reply", ['note-9 now reads: "Groceries" / Milk and eggs', 'note-9 now reads: "Groceries" | Milk and eggs.'])
def test_a_title_heading_the_text_is_no_text_swapped(reply):
    note = (NOTE, {"noteId": "note-9", "title": "Groceries", "content": "Milk and eggs"})
    assert _made_up(reply, note) == []


@pytest.mark.parametrize("reply", ['note-9 now reads: "Groceries"', 'note-9 now reads: "Groceries" / Bread'])
def test_a_title_said_as_the_text_is_still_swapped(reply):
    assert _made_up(reply, (NOTE, {"noteId": "note-9", "title": "Groceries", "content": "Milk and eggs"}))


# A table of one thing's fields speaks of what holds them, whatever the sentence above names ----------

WEATHER = {"properties": {"location": {"type": "string"}}}
ORDER = {"properties": {"orderId": {"type": "string"}}}


def test_a_field_table_speaks_of_the_result_holding_its_fields(monkeypatch):
    results = [(WEATHER, {"location": "Rome", "observedOn": "2026-03-14"}),
               (ORDER, {"orderId": "ORD-31", "estimatedDelivery": {"year": 2026, "month": 4, "dayOfMonth": 2}})]
    table = "Sunny in Rome today.\n\n| Field | Value |\n|---|---|\n| Order | ORD-31 |\n| Estimated delivery | {} |\n"
    assert _made_up(table.format("2026-04-02"), *results) == []
    assert _made_up(table.format("2026-04-09"), *results), "a date the order does not hold"
    monkeypatch.setattr("sim.eval.facts._holding_the_field", lambda record, parts: [])
    assert _made_up(table.format("2026-04-02"), *results), "held to the weather above it, the date is none of its"
