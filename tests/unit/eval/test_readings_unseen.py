"""Readings added after heldout9's first run, each a mechanism shown on phrasings it was not
written from (other words, other languages, other structures than the reply set's): a condition
that opens a clause, ... Each test also switches its reading off, where it can, to show the
verdict came from it.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.claims import Action, Reader
from sim.eval.facts import Known, _Reading, made_up
from sim.eval.phrases import Cues
from sim.eval.structure import parse

from .conftest import call, kinds

POWER = ("set_light_power", "Switches a light on or off.", {"lightId": "heater", "power": "ON"},
         {"properties": {"lightId": {"type": "string"}, "power": {"type": "string", "enum": ["ON", "OFF"]}}})


def _read(reply: str, function=POWER, request: str = "Switch the heater lamp on", language: str = "en"):
    action = Action()
    action.add_function(*function)
    return Reader(Cues.of(["en", language]), ["en", language]).read(reply, action, request)


# A condition scopes over its own clause, wherever the clause starts -----------------------------

@pytest.mark.parametrize("reply, condition, language", [
    ("The heater lamp is on now, and if it doesn't switch on for you, tell me.", "if ", "en"),
    ("It's switched on; but unless the switch didn't work, the room should warm up.", "unless ", "en"),
    ("La lampe est allumée, mais si elle ne s'allume pas, dites-le-moi.", "si ", "fr"),
    ("灯已经打开了，不过如果没有打开，请告诉我。", "如果", "zh"),
])
def test_a_condition_after_a_clauses_connective_denies_nothing(reply, condition, language):
    words = _read(reply, language=language)
    assert words.claims and not words.denials, words
    assert _read(reply.replace(condition, "", 1), language=language).denials, "said without the condition, a denial"


# A capitalised date is a date, not a name ----------------------------------------------------------

RUN = dt.date(2026, 3, 14)  # a Saturday
TRIP = {"properties": {"tripId": {"type": "string"}, "departure": {"type": "string"}}}
LEAVES = {"tripId": "TR-4410", "departure": "2026-04-03"}  # a Friday


def _made_up(reply: str, *results: tuple[dict, dict], language: str = "en") -> list[str]:
    known = Known(RUN)
    for schema, result in results:
        known.add_result(schema, result, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language)


@pytest.mark.parametrize("reply", [
    "TR-4410 | Departs Friday April 3 | window seat",
    "Your trip TR-4410 leaves on Fri April 3rd in the morning.",
    "TR-4410 is booked; departure Friday April 3 2026 from gate B.",
])
def test_a_weekday_and_month_written_without_commas_are_a_date_not_a_name(monkeypatch, reply):
    assert _made_up(reply, (TRIP, LEAVES)) == []
    assert _made_up(reply.replace("Fri", "Mon"), (TRIP, LEAVES)), "the wrong weekday is still caught, as a date"
    monkeypatch.setattr("sim.eval.facts.dates_spans", lambda text, language: [])
    assert any("no call returned" in why for why in _made_up(reply, (TRIP, LEAVES)))


# A verb that reports speech states no value ------------------------------------------------------

STATUS = {"properties": {"reservationId": {"type": "string"}, "status": {"type": "string", "enum": [
    "PENDING", "CONFIRMED", "CANCELLED"]}}}
CALLED_OFF = {"reservationId": "RS-310", "status": "CANCELLED"}


@pytest.mark.parametrize("reply, stated, language", [
    ("RS-310 is cancelled; the hotel confirmed that no fee applies.", "RS-310 is confirmed; no fee applies.", "en"),
    ("I cancelled RS-310 and the front desk confirmed: “Reservation cancelled.”",
     "I cancelled RS-310 and it is confirmed: “Reservation cancelled.”", "en"),
    ("RS-310 est annulée : l'hôtel a confirmé que la chambre est libérée.",
     "RS-310 est confirmée : la chambre est libérée.", "fr"),
])
def test_a_verb_that_reports_speech_is_no_value_of_its_subject(monkeypatch, reply, stated, language):
    assert _made_up(reply, (STATUS, CALLED_OFF), language=language) == []
    assert _made_up(stated, (STATUS, CALLED_OFF), language=language), "after a form of be, a state again"
    monkeypatch.setattr("sim.eval.facts._without_reporting", lambda said: said)
    assert _made_up(reply, (STATUS, CALLED_OFF), language=language)


# A part no call was to change, said unchanged, denies nothing --------------------------------------

CONTACT = ("update_contact", "Updates a contact. Omitted fields keep their values.",
           {"contactId": "c-7", "phoneNumber": "+33 6 12 34 56 78"},
           {"properties": {"contactId": {"type": "string"}, "phoneNumber": {"type": "string"},
                           "email": {"type": "string"}, "nickname": {"type": "string"}}})


@pytest.mark.parametrize("reply", [
    "I've updated Sam's number; the email is unchanged.",
    "Done, the new phone number is saved. Their nickname stays as it was.",
])
def test_a_part_the_call_was_not_given_said_unchanged_denies_nothing(monkeypatch, reply):
    words = _read(reply, CONTACT, "Change Sam's phone number")
    assert words.claims and not words.denials, words
    assert _read("I looked at Sam's contact: everything is unchanged.", CONTACT, "Change Sam's phone number").denials
    assert _read("Sam's contact: the phone is unchanged.", CONTACT, "Change Sam's phone number").denials, \
        "the part the call was given"
    monkeypatch.setattr("sim.eval.claims.Action.untouched", property(lambda self: set()))
    assert _read(reply, CONTACT, "Change Sam's phone number").denials


# A field "in the same unit" as another is given in that one's unit ------------------------------

RUNS = {"properties": {
    "week": {"type": "string"},
    "distance": {"type": "number", "description": "The distance run, in km (METRIC) or miles (IMPERIAL)."},
    "longestRun": {"type": "number", "description": "The longest single run, in the same units as distance."},
    "units": {"type": "string", "enum": ["METRIC", "IMPERIAL"]}}}
WEEK = {"week": "W11", "distance": 42.0, "longestRun": 16.0, "units": "METRIC"}


@pytest.mark.parametrize("right, wrong", [
    ("In W11 your longest run was 16 km.", "In W11 your longest run was 16 miles."),
    ("W11: 42 km in all, the longest about 10 miles.", "W11: 42 km in all, the longest 16 mi."),
])
def test_a_field_in_the_same_unit_as_another_is_converted_from_that_unit(monkeypatch, right, wrong):
    assert _made_up(right, (RUNS, WEEK)) == []
    assert any("16 mi" in why for why in _made_up(wrong, (RUNS, WEEK))), _made_up(wrong, (RUNS, WEEK))
    monkeypatch.setattr("sim.eval.facts._SAME_UNIT", re.compile("(?!)"))
    assert _made_up(right, (RUNS, WEEK)), "without its unit, the longest run is held to the total's alone"


# "Nothing in X" as the subject of its own verb says nothing of X being empty ----------------------

MEMO = {"properties": {"memoId": {"type": "string"}, "title": {"type": "string"},
                       "body": {"type": "string", "description": "The memo's text."}}}
KEPT = {"memoId": "m-12", "title": "Boiler", "body": "Service due in May; call Hugo first."}


@pytest.mark.parametrize("reply", [
    "m-12 reads fine. Nothing in the text looks urgent.",
    "I checked m-12, and nothing in its body needs changing right now.",
    "Nothing inside m-12 is out of date.",
])
def test_nothing_in_a_thing_as_a_subject_says_nothing_of_it_being_empty(monkeypatch, reply):
    assert _made_up(reply, (MEMO, KEPT)) == []
    assert _made_up("There's nothing in m-12 besides its title.", (MEMO, KEPT)), "said empty, it is not"
    assert _made_up("m-12 has nothing in it yet.", (MEMO, KEPT))
    monkeypatch.setattr("sim.eval.facts._NOTHING_AS_SUBJECT", re.compile("(?!)"))
    assert _made_up(reply, (MEMO, KEPT))


# The action's noun called off: the action did not go ahead -----------------------------------------

DELETE = ("delete_photo", "Deletes a photo.", {"photoId": "IMG-204"},
          {"properties": {"photoId": {"type": "string"}}})


UNSUBSCRIBE = ("cancel_subscription", "Cancels a subscription.", {"planId": "PL-9"},
               {"properties": {"planId": {"type": "string"}}})


@pytest.mark.parametrize("reply, function, asked", [
    ("Okay, deletion scrapped: IMG-204 stays in your album.", DELETE, "Delete IMG-204"),
    ("Understood. I've dropped the deletion of IMG-204.", DELETE, "Delete IMG-204"),
    ("Fine, cancellation aborted; PL-9 carries on as before.", UNSUBSCRIBE, "Cancel PL-9"),
    ("As you asked, I withdrew the cancellation request for PL-9.", UNSUBSCRIBE, "Cancel PL-9"),
])
def test_the_actions_noun_called_off_is_no_claim_of_it(monkeypatch, reply, function, asked):
    words = _read(reply, function, asked)
    assert words.denials and not words.claims, words
    assert _read("Done: the deletion went through, IMG-204 is gone.", DELETE, "Delete IMG-204").claims
    monkeypatch.setattr("sim.eval.claims._called_off_pattern", lambda verbs: None)
    assert _read(reply, function, asked) != words


BOOK_ROOM = ("book_room", "Books a hotel room.", {}, {"properties": {"hotelId": {"type": "string"}}})
CANCEL_STAY = ("cancel_stay", "Cancels a hotel reservation.", {"stayId": "HX-31"},
               {"properties": {"stayId": {"type": "string"}}})


@pytest.mark.parametrize("reply", [
    "I've called off your reservation HX-31, as you asked.",
    "Reservation HX-31: scrapped. You won't be charged.",
])
def test_calling_off_the_thing_is_the_calling_off_action_done_not_another_action_called_off(reply):
    # One reading for every write function of a domain, as τ²'s path reads a reply: a booking is
    # reserving, yet calling the reservation off is the cancellation itself.
    action = Action()
    for function in (BOOK_ROOM, CANCEL_STAY):
        action.add_function(*function)
    words = Reader(Cues.of(["en"]), ["en"]).read(reply, action, "Please cancel my reservation HX-31")
    assert words.claims and not words.denials, words


# A list item's value after a dash or an arrow is a field, held to the item it names ---------------

PORCH_ON = """
suite: t
cases:
  - id: porch-on
    category: simple
    user: Is the porch light on?
    calls: [{function: list_lights}]
"""
# As the sample apps answer: the Ceiling light on and the Floor lamp off, both in the Living room.
ROOM_LIST = ("Here they are:\n* Bedside lamp (Bedroom) → on\n* Pendant (Kitchen) → off\n"
             "* Ceiling light (Living room) → on\n* Floor lamp (Living room) → off\n* Porch light (Outside) → off")


@pytest.mark.parametrize("reply", [ROOM_LIST, re.sub(r"\* ", "- ", ROOM_LIST).replace("→", "–")])
def test_a_list_items_value_after_a_dash_or_an_arrow_is_held_to_that_item(play, monkeypatch, reply):
    steps = [call("list_lights"), reply]
    (record,), _ = play(PORCH_ON, steps)
    assert record["passed"], record["failures"]
    (record,), _ = play(PORCH_ON, [call("list_lights"), reply.replace("→ off", "→ on").replace("– off", "– on")])
    assert kinds(record) == ["wrong_answer"]
    colon_only = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(?:\*\*)?[^:\n]{1,40}?:(?:\*\*)?\s+(?=\S)")
    monkeypatch.setattr("sim.eval.phrases.LISTED", colon_only)
    monkeypatch.setattr("sim.eval.structure.LISTED", colon_only)
    monkeypatch.setattr("sim.eval.facts.without_asides", lambda names: names)  # the room in its aside, read too
    parse.cache_clear()
    (record,), _ = play(PORCH_ON, steps)
    assert not record["passed"], "read as prose, each line is held to both lights of its room"


# A temperature someone said, restated in the other scale, is known ---------------------------------

@pytest.mark.parametrize("reply, said", [
    ("There's no oven app here. For what it's worth, 180 °C is about 356 °F.", "Preheat the oven to 180 degrees"),
    ("I can't reach your sauna, sorry; 90°C would be 194°F.", "Heat the sauna to 90°C"),
])
def test_a_temperature_the_user_said_restated_in_the_other_scale_is_no_made_up_number(monkeypatch, reply, said):
    known = Known(RUN, said=[said])
    assert made_up(reply, known, Cues.of(["en"]), language="en", promised=True) == []
    wrong = reply.replace("356", "338").replace("194", "176")
    assert made_up(wrong, Known(RUN, said=[said]), Cues.of(["en"]), language="en", promised=True)
    monkeypatch.setattr("sim.eval.facts._known_number", lambda value, seen, longest, converted=False: value in seen)
    assert made_up(reply, Known(RUN, said=[said]), Cues.of(["en"]), language="en", promised=True)


# A field's name names the field, not a value ------------------------------------------------------

ORDER = {"properties": {"orderId": {"type": "string"}, "status": {"type": "string", "enum": [
    "PROCESSING", "SHIPPED", "DELIVERED", "CANCELLED"]}}}
ON_ITS_WAY = {"orderId": "ORD-3321", "status": "SHIPPED", "estimatedDelivery": "2025-06-20"}


@pytest.mark.parametrize("reply, language", [
    ('{"order": "ORD-3321", "status": "shipped", "delivered by": "June 20"}', "en"),
    ("```yaml\ncommande: ORD-3321\nstatut: expédiée\nlivrée vers: 20 juin\n```", "fr"),
    ('{"คำสั่งซื้อ": "ORD-3321", "สถานะ": "จัดส่งแล้ว", "วันที่ส่งถึง": "2025-06-20"}', "th"),
])
def test_a_fields_name_is_no_value_said(monkeypatch, reply, language):
    assert _made_up(reply, (ORDER, ON_ITS_WAY), language=language) == []
    wrong = reply.replace('"shipped"', '"delivered"').replace("expédiée", "livrée").replace("จัดส่งแล้ว", "ส่งถึงแล้ว")
    assert _made_up(wrong, (ORDER, ON_ITS_WAY), language=language), "the status said wrong is still caught"
    original = _Reading.clause
    monkeypatch.setattr(_Reading, "clause", lambda self, *args, label="", **kw: original(self, *args, **kw))
    assert _made_up(reply, (ORDER, ON_ITS_WAY), language=language)


# A name said of a thing is held to the name it has ------------------------------------------------

PLAYLIST = {"properties": {"playlistId": {"type": "string"}, "title": {"type": "string"},
                           "trackCount": {"type": "integer"}}}
MADE = {"playlistId": "pl-88", "title": "Road trip", "trackCount": 0}


@pytest.mark.parametrize("reply, language", [
    ("All done! The playlist is named “Trip mix”.", "en"),
    ("J'ai créé la playlist « Road songs ».", "fr"),
    ("I made your playlist “Summer mix” (pl-88).", "en"),
    ("歌单已创建，名为“我的歌单”。", "zh"),
])
def test_a_name_said_as_what_a_thing_is_called_is_held_to_its_name(monkeypatch, reply, language):
    assert _made_up(reply, (PLAYLIST, MADE), language=language), "the playlist is called Road trip"
    with monkeypatch.context() as off:
        off.setattr("sim.eval.facts._misnamed", lambda *args: [])
        assert _made_up(reply, (PLAYLIST, MADE), language=language) == []
    for wrong in ("Trip mix", "Road songs", "Summer mix", "我的歌单"):
        reply = reply.replace(wrong, "Road trip")
    assert _made_up(reply, (PLAYLIST, MADE), language=language) == []
    assert _made_up("The app's message was “Playlist created.”", (PLAYLIST, MADE)) == [], "a message, not a name"


def test_a_name_the_conversation_said_elsewhere_is_no_misnaming():
    known = Known(RUN, said=["Rename Road trip to Weekend drive"])
    known.add_result(PLAYLIST, {**MADE, "title": "Weekend drive"}, {})
    assert made_up("Done: the playlist “Road trip” is now called “Weekend drive”.", known, Cues.of(["en"]),
                   language="en") == []


# A thing or its field said to be empty, whatever adverb is between, and however short its text ------

TASK = {"properties": {"taskId": {"type": "string"}, "title": {"type": "string"},
                       "details": {"type": "string", "description": "The task's free text, or null."},
                       "priority": {"type": "string", "enum": ["LOW", "HIGH"]}}}
WRITTEN = {"taskId": "t-5", "title": "Taxes", "details": "Receipts", "priority": "HIGH"}


@pytest.mark.parametrize("reply", [
    "Saved t-5. Its details are currently blank.",
    "t-5 is ready, and it's entirely empty apart from the title.",
    "Task “Taxes” added: the details are still empty.",
])
def test_a_field_said_empty_with_an_adverb_is_held_to_its_text(monkeypatch, reply):
    assert _made_up(reply, (TASK, WRITTEN)), "its details say Receipts"
    assert _made_up(reply, (TASK, {**WRITTEN, "details": None})) == []


def test_a_thing_said_empty_is_held_to_its_text_of_one_word_too(monkeypatch):
    reply = "t-5 is ready, and it's entirely empty apart from the title."
    assert _made_up(reply, (TASK, WRITTEN))
    monkeypatch.setattr("sim.eval.facts._text", lambda value: len(value.split()) > 1)
    assert _made_up(reply, (TASK, WRITTEN)) == []


# A field named by the thing's state says its value, though the action's word ----------------------

@pytest.mark.parametrize("reply, language", [
    ('{"lamp": "Desk lamp", "on": false}', "en"),
    ("```yaml\nlampe: Desk lamp\nallumée: non\n```", "fr"),
    ('{"โคมไฟ": "Desk lamp", "เปิด": false}', "th"),
])
def test_a_state_field_is_held_to_the_things_state_after_the_action_that_set_it(monkeypatch, reply, language):
    known = Known(RUN)
    known.add_result(LIGHTS, ROOM_AFTER, {})
    read = lambda text: made_up(text, known, Cues.of(["en", language]), language=language,  # noqa: E731
                                exclude={"on", "switch", "switched", "allumée"})
    assert read(reply), "the Desk lamp is on"
    assert read(reply.replace("false", "true").replace("non", "oui")) == []
    monkeypatch.setattr("sim.eval.facts._state_of", lambda key, value, language: None)
    assert read(reply) == []


LIGHTS = {"properties": {"result": {"type": "array", "items": {"properties": {
    "lightId": {"type": "string"}, "name": {"type": "string"}, "isOn": {"type": "boolean"}}}}}}
ROOM_AFTER = {"result": [{"lightId": "den-desk", "name": "Desk lamp", "isOn": True}]}


# A field whose name alone would claim the action claims or denies it by its yes or no ---------------

@pytest.mark.parametrize("reply, asked, language", [
    ('{"照片": "IMG-204", "已删除": false}', "删除照片 IMG-204", "zh"),
    ('{"照片": "IMG-204", "已删除": "否"}', "删除照片 IMG-204", "zh"),
])
def test_a_field_that_alone_would_claim_the_action_says_how_it_went(monkeypatch, reply, asked, language):
    words = _read(reply, DELETE, asked, language)
    assert words.denials and not words.claims, words
    assert _read(reply.replace("false", "true").replace("否", "是"), DELETE, asked, language).claims
    monkeypatch.setattr(Reader, "_hear", lambda self, clause, said: None)
    parse.cache_clear()
    assert not _read(reply, DELETE, asked, language).denials


# Asking for a go-ahead, or saying nothing was touched yet, offers the action -----------------------

@pytest.mark.parametrize("reply", [
    "All lined up. Should I go ahead and flip it?",
    "Whenever you're ready, reply “go” and I'll switch the heater lamp on.",
    "As soon as you confirm, I will turn it on.",
    "Quick check before I change anything: heater lamp to ON, correct?",
    "Dès que vous confirmez, je l'allume.",
])
def test_a_go_ahead_asked_for_or_nothing_touched_yet_is_an_offer_of_the_action(monkeypatch, reply):
    language = "fr" if "vous" in reply else "en"
    assert _read(reply, language=language).offers, "it says the action is still to do"
    assert not _read("The heater lamp is on. Before I go, anything else?").offers, "leaving is no acting"
    monkeypatch.setattr("sim.eval.offers._AWAITS_CONSENT", re.compile("(?!)"))
    monkeypatch.setattr("sim.eval.offers._BEFORE_ACTING", re.compile("(?!)"))
    if "go ahead" not in reply:
        assert not _read(reply, language=language).offers


@pytest.mark.parametrize("reply, asked, language", [
    ("你确定要删除照片 IMG-204 吗？删了就找不回来了。", "删除照片 IMG-204", "zh"),
    ("แน่ใจไหมคะว่าจะลบรูป IMG-204?", "ลบรูป IMG-204 ให้หน่อย", "th"),
])
def test_asking_whether_the_user_is_sure_to_do_it_offers_it(monkeypatch, reply, asked, language):
    assert _read(reply, DELETE, asked, language).offers
    assert not _read("照片 IMG-204 已删除。你确定不需要别的吗？", DELETE, asked, "zh").offers, "another thing"


def test_a_french_offer_to_just_do_it_is_an_offer_of_the_action():
    assert _read("Je peux allumer la lampe du salon — je le fais ?", request="Allume la lampe", language="fr").offers
    assert not _read("La lampe est allumée — je fais autre chose ?", request="Allume la lampe", language="fr").offers


# A structure's null, list of names under a state, and a number under an abbreviated column ----------

BASKET = {"properties": {"basketId": {"type": "string"}, "lines": {"type": "array", "items": {"properties": {
    "product": {"type": "string"}, "quantity": {"type": "integer"}, "amount": {"type": "number"}}}}}}
FILLED = {"basketId": "BS-77", "lines": [{"product": "Tent pegs (10-pack)", "quantity": 4, "amount": 12.0},
                                         {"product": "Mallet", "quantity": 1, "amount": 9.5}]}


@pytest.mark.parametrize("reply", [
    "BS-77:\n\n| Product | Qty | Amt |\n|---|---|---|\n| Tent pegs (10-pack) | 10 | 12.0 |\n| Mallet | 1 | 9.5 |",
    "```yaml\nbasket: BS-77\nlines:\n  - product: Mallet\n    qty: 2\n```",
])
def test_a_cell_under_an_abbreviated_column_is_held_to_that_field(monkeypatch, reply):
    assert any("qty" in why.lower() for why in _made_up(reply, (BASKET, FILLED))), _made_up(reply, (BASKET, FILLED))
    right = reply.replace("| 10 | 12.0", "| 4 | 12.0").replace("qty: 2", "qty: 1")
    assert _made_up(right, (BASKET, FILLED)) == []
    monkeypatch.setattr("sim.eval.facts._abbreviates", lambda key, name: False)
    assert not any("qty" in why.lower() for why in _made_up(reply, (BASKET, FILLED)))


def test_a_null_said_of_a_field_that_holds_something_is_said_empty():
    assert _made_up('{"task": "t-5", "details": null}', (TASK, WRITTEN)) == [
        'details: null, but its details is "Receipts"']
    assert _made_up('{"task": "t-5", "details": null}', (TASK, {**WRITTEN, "details": None})) == []


def test_a_state_over_a_list_of_names_is_held_to_each_named_thing():
    den = {"result": [{"lightId": "d1", "name": "Desk lamp", "isOn": True},
                      {"lightId": "d2", "name": "Shelf strip", "isOn": False}]}
    assert _made_up('{"lit": ["Shelf strip"], "dark": ["Desk lamp"]}', (LIGHTS, den))
    assert _made_up('{"lit": ["Desk lamp"], "dark": ["Shelf strip"]}', (LIGHTS, den)) == []
    assert _made_up("```yaml\non:\n  - Desk lamp\noff:\n  - Shelf strip\n```", (LIGHTS, den)) == []


# A value said not to hold, that holds ----------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Good news, ORD-3321 hasn't been shipped so far.",
    "ORD-3321 is not shipped, you can still change it.",
])
def test_a_value_said_not_to_hold_that_holds_is_misstated(monkeypatch, reply):
    assert _made_up(reply, (ORDER, ON_ITS_WAY)) == ["not 'shipped' for the status, which is shipped"]
    assert _made_up(reply.replace("shipped", "delivered"), (ORDER, ON_ITS_WAY)) == [], "not delivered: true"
    monkeypatch.setattr("sim.eval.facts._denied_values", lambda *args: [])
    assert _made_up(reply, (ORDER, ON_ITS_WAY)) == []


def test_an_ids_letters_are_no_abbreviation_of_a_field():
    booking = {"properties": {"bookingId": {"type": "string"}, "restaurant": {"type": "string"}}}
    reply = "| Booking | BK-2040 |\n|---|---|\n| Restaurant | Chez Léa |"
    assert _made_up(reply, (booking, {"bookingId": "BK-2040", "restaurant": "Chez Léa"})) == []
