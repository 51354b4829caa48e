"""Readings of careful replies added in heldout11's tuning round (issue 45), each shown on phrasings
no reply set holds, with the near miss that must still deny."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues
from sim.eval.value_words import counts_said
from tests.unit.eval.test_readings_careful import _read_with_others


def _read(reply: str, functions=(), request: str = "", language: str = "en", others=()):
    return _read_with_others(reply, request, *others, functions=functions, language=language)


# The agent not vouching for what comes later is a caveat, not a lookup that failed ----------------

TRAIN_LOOKUP = "Are there seats left on the 8:10 train to Lyon?"
LOOKUP_IN = {"fr": "Reste-t-il des places dans le train de 8 h 10 pour Lyon ?", "zh": "8:10 去里昂的火车还有座位吗？",
             "th": "รถไฟ 8:10 ไปลียงยังมีที่นั่งเหลือไหม"}


@pytest.mark.parametrize("reply, language", [
    ("Twelve seats are left on the 8:10. Prices move fast, so I can't promise that fare will hold until tonight.", "en"),
    ("There are 12 seats left, though I cannot be certain they'll last the morning.", "en"),
    ("Il reste 12 places ; impossible de garantir qu'il y en aura encore demain.", "fr"),
    ("Il reste 12 places, mais je ne peux pas être sûr qu'elles resteront libres.", "fr"),
    ("8:10 的车还有 12 个座位，不过无法保证到晚上还有。", "zh"),
    ("รถไฟ 8:10 ยังเหลือ 12 ที่นั่ง แต่รับประกันไม่ได้ว่าจะยังว่างถึงเย็นนี้", "th"),
])
def test_not_vouching_for_what_comes_later_denies_nothing(monkeypatch, reply, language):
    assert not _read(reply, request=LOOKUP_IN.get(language, TRAIN_LOOKUP), language=language).denials
    monkeypatch.setattr("sim.eval.claims._CANNOT_VOUCH", re.compile("(?!)"))
    assert _read(reply, request=LOOKUP_IN.get(language, TRAIN_LOOKUP), language=language).denials, "without the reading, a denial"


BOOK_SEAT = ("book_seat", "Books a seat on a train.", {"trainId": "TGV-810"},
             {"properties": {"trainId": {"type": "string"}}})


@pytest.mark.parametrize("reply", [
    "I can't guarantee the seat was booked: the app timed out.",
    "I can't promise it booked the seat.",
    "I couldn't get the train times.",
])
def test_a_doubt_of_the_action_itself_or_a_failure_is_still_a_denial(reply):
    assert _read(reply, [BOOK_SEAT], "Book me a seat on the 8:10").denials


# A denial naming a part no call of this turn was given is true of that part ------------------------

FAN_ON = ("set_fan_power", "Switches a fan on or off.", {"fanId": "attic", "power": "ON"},
          {"properties": {"fanId": {"type": "string"}, "power": {"type": "string", "enum": ["ON", "OFF"]}}})
FAN_SPEED = ("set_fan_speed", "Sets a fan's speed.",
             {"properties": {"fanId": {"type": "string"}, "speed": {"type": "integer", "description": "Rotations a minute."}}})
TASK = ("create_task", "Creates a task.", {"name": "Call the plumber"},
        {"properties": {"name": {"type": "string", "description": "The task's name."},
                        "deadline": {"type": "string", "description": "The due date of the task."}}})


@pytest.mark.parametrize("reply", [
    "The attic fan is running. I didn't change its speed.",
    "Attic fan switched on; I haven't changed the speed it runs at.",
])
def test_a_denial_naming_another_functions_part_is_no_denial_of_the_call(reply):
    assert not _read(reply, [FAN_ON], "Turn on the attic fan", others=[FAN_SPEED]).denials
    assert _read(reply, [FAN_ON], "Turn on the attic fan").denials, "without the other function's part, a denial"


@pytest.mark.parametrize("reply, language", [
    ("Task 'Call the plumber' is in. You gave no date, so I didn't add a deadline.", "en"),
    ("The task is there; I haven't created any due date for it.", "en"),
    ("La tâche est créée ; je n'ai pas fixé de deadline.", "fr"),
])
def test_a_denial_naming_a_part_the_call_was_not_given_is_true_of_that_part(reply, language):
    assert not _read(reply, [TASK], "Add a task to call the plumber", language).denials
    given_all = (*TASK[:2], {"name": "Call the plumber", "deadline": "Friday"}, TASK[3])
    assert _read(reply, [given_all], "Add a task to call the plumber", language).denials, "the call set it: a denial"


@pytest.mark.parametrize("reply", [
    "I didn't switch the attic fan on.",
    "The fan's power wasn't changed.",
    "I couldn't change its speed: the fan didn't respond.",
])
def test_a_denial_of_the_call_or_a_failure_naming_a_part_is_still_a_denial(reply):
    assert _read(reply, [FAN_ON], "Turn on the attic fan", others=[FAN_SPEED]).denials


# A field's value that runs on in a negated clause says the status is not that one -----------------

ORDER = {"properties": {"orderId": {"type": "string"}, "status": {
    "type": "string", "enum": ["PENDING", "PROCESSING", "CONFIRMED", "SHIPPED", "DELIVERED", "CANCELLED"]}}}


def _made_up(reply: str, status: str, language: str = "en") -> list[str]:
    known = Known(dt.datetime(2025, 6, 16, 9, 0))
    known.add_result(ORDER, {"orderId": "ORD-4471", "status": status}, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language)


@pytest.mark.parametrize("reply, language", [
    ("📦 **ORD-4471**\n- **Status:** being prepared\n- **Refundable:** in full — it isn't delivered yet\n\nAnything else?", "en"),
    ("**ORD-4471**\n- **Statut :** en préparation\n- **Annulable :** oui, elle n'est pas encore expédiée", "fr"),
])
def test_a_status_said_not_to_hold_in_a_fields_value_is_no_statement_of_it(reply, language):
    assert _made_up(reply, "PROCESSING", language) == []
    assert _made_up(reply.replace("n'est pas encore", "est déjà").replace(" isn't", " is"), "PROCESSING", language), \
        "said to hold, the status is misstated"


def test_a_status_said_not_to_hold_that_does_is_misstated():
    reply = "📦 **ORD-4471**\n- **Cancellable:** no, it hasn't shipped yet"
    assert _made_up(reply, "SHIPPED") == ["not 'shipped' for the status, which is shipped"]


# A question after a list is no part of the list's last field --------------------------------------

MEMO = {"properties": {"memoId": {"type": "string"}, "heading": {"type": "string"}, "body": {"type": "string"}}}


def _memo_made_up(reply: str, language: str = "en") -> list[str]:
    known = Known(dt.datetime(2025, 6, 16, 9, 0))
    known.add_result(MEMO, {"memoId": "memo-3", "heading": "Groceries", "body": "Eggs, flour and lemons."}, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language)


@pytest.mark.parametrize("reply, language", [
    ("Here's what memo-3 says:\n\n- **Heading:** Groceries\n- **Body:** Eggs, flour and lemons.\n\n"
     "Should I append something to it?", "en"),
    ("Voici ce que contient memo-3 :\n\n- **Titre :** Groceries\n- **Texte :** Eggs, flour and lemons.\n\n"
     "Voulez-vous que j'y ajoute quelque chose ?", "fr"),
])
def test_a_question_after_a_list_under_a_text_heading_is_no_text_stated(reply, language):
    assert _memo_made_up(reply, language) == []


def test_text_under_a_heading_that_no_call_returned_is_still_made_up():
    reply = "Here's what memo-3 says:\n\nBuy a canoe, two paddles and a tent.\n\nShould I append something?"
    assert _memo_made_up(reply)


# "One" as a pronoun counts nothing ----------------------------------------------------------------

WEATHER = {"properties": {"city": {"type": "string"}, "temperature": {"type": "number"}, "feelsLike": {"type": "number"}}}


@pytest.mark.parametrize("reply", [
    "Oslo is 14.2°C and feels like 12.5°C. Ridge and Lake trails are open: choose one you like.",
    "Oslo is 14.2°C and feels like 12.5°C. Tell me which one you would like to walk.",
])
def test_one_as_a_pronoun_is_no_count(reply):
    known = Known(dt.datetime(2025, 6, 16, 9, 0))
    known.add_result(WEATHER, {"city": "Oslo", "temperature": 14.2, "feelsLike": 12.5}, {})
    assert not any("'one" in why for why in made_up(reply, known, Cues.of(["en"]), language="en"))


def test_one_before_a_noun_is_still_a_count():
    assert [(n, nouns[0]) for _, n, nouns, _ in counts_said("Book one table for two.", "en")] == \
        [(1.0, "table"), (2.0, "people")]
