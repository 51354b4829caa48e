"""Readings added after heldout10's first run so that careful replies read true: a count is a
value, held to what it counts; a statement that nothing changed claims nothing; a denial is held
to the action it names; a thing said to have nothing in it states a value; "other" takes a denial
off the thing acted on; the agent halting claims nothing; a pronoun speaks of the nearest thing
named; not being able to tell what a result lacks denies no call. Each is shown on phrasings no
reply set holds (other nouns, other languages, other word orders), and each test shows the
reading decides: a near miss that must still fail, or the reading switched off.
"""

from __future__ import annotations

import datetime as dt

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues

RUN = dt.date(2026, 3, 14)


def _known(*results: tuple[dict, object]) -> Known:
    known = Known(RUN)
    for schema, result in results:
        known.add_result(schema, result, {})
    return known


def _made_up(reply: str, *results: tuple[dict, object], language: str = "en") -> list[str]:
    return made_up(reply, _known(*results), Cues.of(["en", language]), language=language)


# A count is a value: held to the calls of one function, or to the items the reply lists ----------

FAN = {"properties": {"fanId": {"type": "string"}, "speed": {"type": "integer"}}}
TWO_FANS = [(FAN, {"fanId": "attic", "speed": 0}), (FAN, {"fanId": "garage", "speed": 0})]


@pytest.mark.parametrize("reply, language", [
    ("Stopped 2 fans for you.", "en"),
    ("All good: all 2 fans are stopped.", "en"),
    ("J'ai arrêté les 2 ventilateurs.", "fr"),
    ("ปิดพัดลม 2 ตัวแล้วค่ะ", "th"),
    ("已关闭 2 台风扇。", "zh"),
])
def test_a_count_of_the_calls_of_one_function_is_no_made_up_number(reply, language):
    assert _made_up(reply, *TWO_FANS, language=language) == []
    assert _made_up(reply.replace("2", "4"), *TWO_FANS, language=language), "a count no call makes is made up"
    assert _made_up(reply, TWO_FANS[0], language=language), "one call: '2' counts nothing that happened"


@pytest.mark.parametrize("reply", [
    "Here are the 5 fans I found:\n- attic: stopped\n- garage: stopped\n- porch: stopped\n- shed: on\n- loft: on",
    "Your 5 fans:\n* attic\n* garage\n* porch\n* shed\n* loft\n\nAnything else?",
])
def test_a_count_of_the_items_the_reply_lists_is_no_made_up_number(reply):
    found = [(FAN, [{"fanId": name} for name in ("attic", "garage", "porch", "shed")]), (FAN, {"fanId": "loft"})]
    assert not any("'5'" in why for why in _made_up(reply, *found))
    shorter = reply.replace("\n- loft: on", "").replace("\n* loft", "")
    assert any("'5'" in why for why in _made_up(shorter, *found)), "four items listed: '5' counts nothing"


PARCEL = {"properties": {"parcelId": {"type": "string"}, "contents": {"type": "array"}}}


def test_a_count_of_what_a_named_thing_holds_is_held_to_its_list():
    # Two calls of one function do not make "2 contents" true of a parcel that holds one thing.
    first, second = {"parcelId": "PK-4410", "contents": ["kettle"]}, {"parcelId": "PK-4411", "contents": ["mug"]}
    assert _made_up("Parcel PK-4410 has 2 contents: a kettle.", (PARCEL, first), (PARCEL, second))
    assert _made_up("I looked up 2 parcels: PK-4410 and PK-4411.", (PARCEL, first), (PARCEL, second)) == []
