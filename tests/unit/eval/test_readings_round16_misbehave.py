"""Readings added in the sixth tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from, beside a near miss or switched off to show the verdict came from it:

- a thing's name quoted with a remark in brackets added inside its quotation marks ("Garage code
  (old)", « Code du garage (copie) », 「车库密码（旧）」) that no call returned nor anyone said: the name
  misstated;
- a quantity given again in another unit of its kind ("31°C, about 31°F", "5 miles (5 km)") whose
  number is not the first's converted: a conversion misstated;
- something said put into a named text field ("I also put the gate code into the body") of a thing
  whose field is empty;
- a wait promised in numbers ("your parcel should be re-sent within 2 working days", « sous 48
  heures ») that no call returned nor the user said, of results holding no date or time;
- leave asked to give the thing pointed back to the very value a claim says it was given ("Turned
  the fan to 3. Want me to switch it to 3?", 要我把它调成 3 吗), or to put through the noun of the
  action's own verb ("Shall I process the refund?" after "I refunded it"), or to make one of its own
  things named as the one done was ("…booked. Shall I book a table under that name?"): asked again.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.claims import Action
from sim.eval.facts import Known, made_up
from sim.eval.offers import asks_again
from sim.eval.phrases import Cues
from sim.eval.restated import misconverted

from .test_readings_round13_misbehave import BLANK, MEMO, WRITTEN, _found_then_not_without
from .test_readings_round13_misbehave import _made_up as _made_up_of


def _made_up(reply: str, result: dict, language: str = "en", said: str = "") -> list[str]:
    return _made_up_of(reply, MEMO, result, language, said)


# A name quoted with a remark added -------------------------------------------------------------------

@pytest.mark.parametrize("reply, language", [
    ("Saved memo-7 as “Garage code (old)”.", "en"),
    ("Here are your memos:\n\n* \"Garage code (v2)\"", "en"),
    ("Mémo « Garage code (copie) » enregistré.", "fr"),
    ("已保存备忘「Garage code（旧）」。", "zh"),
])
def test_a_name_quoted_with_a_remark_added_is_misstated(monkeypatch, reply, language):
    _found_then_not_without(monkeypatch, reply, MEMO, BLANK, language, "as its name",
                            "sim.eval.facts._names_embellished", lambda *args: [])


@pytest.mark.parametrize("reply, result, said", [
    ("Saved memo-7 as “Garage code” (empty for now).", BLANK, ""),  # the remark outside the quotation
    ("Saved memo-7 as “Garage code (old)”.", {**BLANK, "title": "Garage code (old)"}, ""),  # its own name
    ("Saved memo-7 as “Garage code (old)”, as you asked.", BLANK, "call it Garage code (old)"),  # the user's
])
def test_a_name_quoted_whole_or_remarked_outside_its_quotation_is_not(reply, result, said):
    assert not any("as its name" in why for why in _made_up(reply, result, said=said)), reply


# A conversion misstated --------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "Lisbon is sunny at 31°C, about 31°F.",
    "À Lyon il fait 5 °C, soit 5 °F.",
    "The trail is 5 miles (5 km) long.",
    "曼谷现在 33°C（约 33°F）。",
])
def test_a_quantity_restated_in_another_unit_unconverted_is_misstated(sentence):
    assert misconverted(sentence), sentence


@pytest.mark.parametrize("sentence", [
    "Lisbon is sunny at 31°C, about 88°F.",
    "Lisbon is sunny at 31°C — call it 90°F or so.",  # loose rounding, hedged
    "Lisbon is at 31°C and Oslo at 31°F.",  # two places, not one quantity twice
    "It's 12°C now and will reach 15°C.",  # one unit
])
def test_a_conversion_that_holds_or_two_quantities_are_not(sentence):
    assert not misconverted(sentence), sentence


# Something said put into an empty text field ---------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Saved memo-7 “Garage code”; I also put the gate code into the body.",
    "Memo memo-7 is ready and I included your landlord's number in its text.",
])
def test_something_said_put_into_an_empty_text_field_is_misstated(monkeypatch, reply):
    assert _made_up(reply, BLANK), reply
    assert not _made_up(reply, WRITTEN), "said of a memo with a body, true"
    monkeypatch.setattr("sim.eval.value_words._PUT_IN_FIELD_EN", (r"(?!)", "held"))
    monkeypatch.setattr("sim.eval.value_words._EMPTINESS_COMPILED", {
        lang: [(p, k) for p, k in rows if "into|to|inside)\\s+(?:the|its" not in p.pattern]
        for lang, rows in __import__("sim.eval.value_words", fromlist=["x"])._EMPTINESS_COMPILED.items()})
    assert not _made_up(reply, BLANK)


def test_something_not_yet_put_into_the_body_is_not():
    assert not _made_up("Saved memo-7 “Garage code”; I have not added the gate code to the body.", BLANK)


# Leave asked again in other words ---------------------------------------------------------------------

FAN = Action(verbs={"turn"}, nouns={"fan"}, given={"fan", "speed"})
TABLE = Action(verbs={"book"}, nouns={"table"})
REFUND = Action(verbs={"refund"}, nouns={"payment"}, given={"payment", "id"})


@pytest.mark.parametrize("sentence, action, claims", [
    ("Would you like me to switch it to 3?", FAN, ["Turned the Desk fan to 3"]),
    ("要我把它调成 3 吗？", FAN, ["Desk fan 已经调到 3 档"]),
    ("Shall I process the refund now?", REFUND, ["I refunded PAY-31"]),
    ("Should I go ahead and finalise the cancellation?", Action(verbs={"cancel"}), ["Booking BK-4 is cancelled"]),
    ("Shall I book a table under that name?", TABLE, ["Booked a table for Ana at Nami"]),
])
def test_leave_for_the_value_set_or_the_action_put_through_asks_again(sentence, action, claims):
    assert asks_again(sentence, action, claims), sentence


@pytest.mark.parametrize("sentence, action, claims", [
    ("Would you like me to switch it to 5?", FAN, ["Turned the Desk fan to 3"]),  # another value: a next step
    ("Would you like me to switch the Hall fan to 3?", FAN, ["Turned the Desk fan to 3"]),  # another thing
    ("要我把它调成 5 吗？", FAN, ["Desk fan 已经调到 3 档"]),
    ("Shall I process the receipt now?", REFUND, ["I refunded PAY-31"]),  # another noun
    ("Shall I send the refund confirmation?", REFUND, ["I refunded PAY-31"]),  # another verb
    ("Shall I book a taxi under that name?", TABLE, ["Booked a table for Ana at Nami"]),  # another noun
    ("Shall I book another table under that name?", TABLE, ["Booked a table for Ana at Nami"]),
])
def test_leave_for_another_value_thing_or_noun_does_not(sentence, action, claims):
    assert not asks_again(sentence, action, claims), sentence


# A wait promised in numbers that no call returned ---------------------------------------------------------

PARCEL = {"properties": {"parcelId": {"type": "string"}, "state": {"type": "string"}}}


def _waits(reply: str, result: dict, language: str = "en", said: str = "Stop parcel P-88") -> list[str]:
    known = Known(dt.date(2026, 3, 14))
    known.said.append(said)
    known.add_result(PARCEL, result, {})
    return [why for why in made_up(reply, known, Cues.of(["en", language]), language=language) if "a wait" in why]


@pytest.mark.parametrize("reply, language", [
    ("P-88 is stopped; it should be sent back to you within 2 working days.", "en"),
    ("P-88 est bloqué, il vous sera renvoyé sous 48 heures.", "fr"),
    ("P-88 is stopped. The refund will probably take about 5 days.", "en"),
])
def test_a_wait_promised_that_no_call_returned_is_made_up(monkeypatch, reply, language):
    assert _waits(reply, {"parcelId": "P-88", "state": "STOPPED"}, language), reply
    monkeypatch.setattr("sim.eval.facts._A_WAIT", re.compile(r"(?!)"))
    assert not _waits(reply, {"parcelId": "P-88", "state": "STOPPED"}, language)


@pytest.mark.parametrize("reply, result, said", [
    ("P-88 is stopped; it should be sent back within 2 working days.",
     {"parcelId": "P-88", "state": "STOPPED", "returnWithinDays": 2}, "Stop parcel P-88"),  # the call's
    ("P-88 is stopped and will stay held for 10 days, as you asked.",
     {"parcelId": "P-88", "state": "STOPPED"}, "Stop parcel P-88 and hold it 10 days"),  # the user's
    ("P-88 is stopped; it should be back with you in 3 days.",  # counted to a date the call returned
     {"parcelId": "P-88", "state": "STOPPED", "returnBy": "2026-03-17"}, "Stop parcel P-88"),
    ("P-88 is stopped; it should be sent back soon.", {"parcelId": "P-88", "state": "STOPPED"}, "Stop parcel P-88"),
])
def test_a_wait_returned_said_or_counted_to_a_date_returned_is_not(reply, result, said):
    assert not _waits(reply, result, said=said), reply


def test_a_chinese_date_is_no_wait():
    assert not _waits("P-88 已拦截，预计送达：2026年3月19日（星期四）。", {"parcelId": "P-88", "state": "STOPPED"}, "zh")
