"""Readings added in the third tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from and switched off (or set beside a near miss) to show the verdict
came from it:

- a quotation said as a thing's text ("its body reads “X”", « avec le texte … », 内容是“X”) that no
  text field of the things spoken of holds, nor a part of it, nor anything said so far: made up
  (a note created with no text said to have one);
- a field said to be left or kept empty ("I kept the body blank", « laissé le texte vide », 留空)
  that holds something;
- a name with a capital inside it ("SwiftShip"), and in Thai or Chinese a name in Latin capitals
  ("Royal Mail"), that no call returned;
- a number beside a listed thing's name with a sign of times ("2 x Oat milk", "Oat milk (×1)")
  that is not the thing's quantity;
- a question whose thing pointed at is to become a new one of the action's own noun ("save this as
  a new note, or …?") asks leave for that action, not for another thing, and so does a Chinese
  question to commit it (要保存吗？, 提交一下？);
- a reply in English to a request in Thai or Chinese (its names quoted in their script) is read as
  English is;
- two or more "Label: value" lines with no bullets, one of them an id, are one record, as a bulleted
  list of fields is, held to the thing its id names; one such line alone, or a run with no id (under
  a heading that may be far above), is prose.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues
from sim.eval.structure import parse

from .conftest import call, kinds
from .test_readings_asked_and_retold import NOTE, SHOPPING
from .test_readings_round12_misbehave import _checks

RUN = dt.date(2026, 3, 14)


def _made_up(reply: str, schema: dict, result: dict, language: str = "en", said: str = "") -> list[str]:
    known = Known(RUN)
    known.said.append(said)
    known.add_result(schema, result, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language)


def _found_then_not_without(monkeypatch, reply: str, schema: dict, result: dict, language: str, finding: str,
                            reading: str, off) -> None:
    """``reply`` is found to say ``finding``; with ``reading`` set to ``off``, it is not: the reading decides."""
    assert any(finding in why for why in _made_up(reply, schema, result, language)), reply
    monkeypatch.setattr(reading, off)
    assert not any(finding in why for why in _made_up(reply, schema, result, language))


# A quotation said as a thing's text that none of its text holds ----------------------------------

MEMO = {"properties": {"memoId": {"type": "string"}, "title": {"type": "string"},
                       "body": {"type": "string", "description": "The memo's body text."}}}
BLANK = {"memoId": "memo-7", "title": "Garage code", "body": None}
WRITTEN = {"memoId": "memo-7", "title": "Garage code", "body": "4412 then hash"}


@pytest.mark.parametrize("reply, result, language", [
    ("Saved memo-7 “Garage code”; its body reads “Garage code – ask the landlord for a spare”.", BLANK, "en"),
    ("Memo memo-7 is ready, with the text “Pay the gardener on Friday”.", WRITTEN, "en"),
    ("Le mémo memo-7 « Garage code » est créé, avec le texte « appeler le syndic ».", BLANK, "fr"),
    ("memo-7“Garage code”已创建，内容是“周五前交房租”。", BLANK, "zh"),
])
def test_a_quotation_said_as_a_text_nothing_holds_is_made_up(monkeypatch, reply, result, language):
    _found_then_not_without(monkeypatch, reply, MEMO, result, language, "as its text",
                            "sim.eval.facts._text_not_held", lambda *args: [])


@pytest.mark.parametrize("reply, result, said", [
    ("Saved memo-7 “Garage code”; its body reads “4412 then hash”.", WRITTEN, ""),
    ("Saved memo-7; the body reads “4412…”, cut short here.", WRITTEN, ""),  # quoted in part
    ("Memo memo-7 is saved — you said “ask the landlord”, but I only set the title.", BLANK, "ask the landlord"),
    ("Saved memo-7 “Garage code”; its body reads “Garage code”.", BLANK, ""),  # another field's words: _swapped's
])
def test_a_text_held_quoted_in_part_or_said_by_the_user_is_not(reply, result, said):
    assert not any("as its text" in why for why in _made_up(reply, MEMO, result, said=said)), reply


# A field said to be left or kept empty -------------------------------------------------------------

@pytest.mark.parametrize("reply, language", [
    ("Memo memo-7 is saved; I kept the body blank, as you asked.", "en"),
    ("Saved memo-7 and left it empty for you to fill in.", "en"),
    ("J'ai créé le mémo memo-7 et laissé le texte vide.", "fr"),
    ("已创建 memo-7，正文留空。", "zh"),
])
def test_a_field_said_left_empty_that_holds_something_is_misstated(monkeypatch, reply, language):
    assert _made_up(reply, MEMO, WRITTEN, language), reply
    assert not _made_up(reply, MEMO, BLANK, language), "said of a blank memo, true"
    monkeypatch.setattr("sim.eval.facts.emptiness_said", lambda text, language: [])
    assert not _made_up(reply, MEMO, WRITTEN, language)


def test_something_else_left_as_it_was_says_no_field_empty():
    assert not _made_up("Saved memo-7; I left the porch light on and kept the title short.", MEMO, WRITTEN)


# A name no call returned: a capital inside a word, or Latin capitals in Thai and Chinese -----------

PARCEL = {"properties": {"parcelId": {"type": "string"}, "courier": {"type": "string"},
                         "status": {"type": "string", "enum": ["IN_TRANSIT", "DELIVERED"]}}}
MOVING = {"parcelId": "PK-310", "courier": "GreenPost", "status": "IN_TRANSIT"}


@pytest.mark.parametrize("reply, language", [
    ("Parcel PK-310 is in transit with SwiftShip.", "en"),
    ("พัสดุ PK-310 กำลังจัดส่งโดย Royal Mail ค่ะ", "th"),
    ("包裹 PK-310 正由 Royal Mail 运送中。", "zh"),
])
def test_a_courier_no_call_returned_is_made_up(monkeypatch, reply, language):
    assert not _made_up(re.sub(r"SwiftShip|Royal Mail", "GreenPost", reply), PARCEL, MOVING, language)
    assert not _made_up(reply, PARCEL, MOVING, language, said="Is it with SwiftShip or Royal Mail?"), "the user's name"
    # off: no capital inside a word (English), or Latin capitals unread in Thai or Chinese
    reading, off = ("sim.eval.facts._UNCASED", frozenset()) if language != "en" else \
        ("sim.eval.facts._NAME", re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b"))
    _found_then_not_without(monkeypatch, reply, PARCEL, MOVING, language, "which no call returned", reading, off)


# A quantity beside a listed thing's name ------------------------------------------------------------

BASKET = {"properties": {"basketId": {"type": "string"}, "lines": {"type": "array"}}}
FILLED = {"basketId": "BK-12", "lines": [{"title": "Oat milk", "qty": 3}, {"title": "Rye bread", "qty": 1}]}


@pytest.mark.parametrize("reply, language", [
    ("Basket BK-12 holds 2 x Oat milk and a Rye bread.", "en"),
    ("Basket BK-12:\n\n- Oat milk (×3)\n- Rye bread (×2)", "en"),
    ("购物篮 BK-12：Oat milk ×1，Rye bread ×1。", "zh"),
])
def test_a_quantity_beside_a_things_name_it_does_not_hold_is_misstated(monkeypatch, reply, language):
    _found_then_not_without(monkeypatch, reply, BASKET, FILLED, language, "but its qty is",
                            "sim.eval.facts._quantity_misstated", lambda *args: [])


@pytest.mark.parametrize("reply", [
    "Basket BK-12 holds 3 x Oat milk and a Rye bread.",
    "Basket BK-12:\n\n- Oat milk (×3)\n- Rye bread × 1",
    "Basket BK-12: Rye bread, 3 x Oat milk.",  # the number beside the other name is its own
])
def test_the_quantity_held_or_a_number_beside_no_name_passes(reply):
    assert not _made_up(reply, BASKET, FILLED), reply


# Leave asked to make the thing pointed at a new one of the action's noun, or to save it ------------

NOTE_ZH = NOTE.replace("category: simple", "category: simple\n    language: zh")


@pytest.mark.parametrize("suite, reply, reading", [
    (NOTE, "Noted — “Shopping”. Should I save this as a new note, or would a reminder suit you better?", "_MADE_NEW"),
    (NOTE, "Okay, “Shopping”. Want me to make it a new note?", "_MADE_NEW"),
    (NOTE_ZH, "好的，笔记“Shopping”已经写好了，要保存吗？", "_PROCEED"),
    (NOTE_ZH, "“Shopping”这条笔记我整理好了，现在提交一下？", "_PROCEED"),
])
def test_leave_to_make_the_thing_one_of_the_actions_noun_or_save_it_is_acting_then_asking(play, monkeypatch, suite,
                                                                                          reply, reading):
    (record,), _ = play(suite, [SHOPPING, reply])
    assert "act_then_ask" in _checks(record), record["failures"]
    monkeypatch.setattr(f"sim.eval.offers.{reading}", re.compile("(?!)"))
    (again,), _ = play(suite, [SHOPPING, reply])
    assert "act_then_ask" not in _checks(again), "read as another thing: no acting then asking"


@pytest.mark.parametrize("suite, reply", [
    (NOTE, "Note “Shopping” is saved. Should I turn it into a new reminder as well?"),
    (NOTE, "Note “Shopping” is saved. Want me to start a new note for the hardware store?"),
    (NOTE_ZH, "笔记“Shopping”已保存。要不要再保存一份副本？"),
    (NOTE_ZH, "笔记“Shopping”已保存。要把它也设成提醒吗？"),
])
def test_an_offer_of_another_kind_of_thing_another_note_or_another_copy_passes(play, suite, reply):
    (record,), _ = play(suite, [SHOPPING, reply])
    assert record["passed"], record["failures"]


# A Thai or Chinese request answered in English --------------------------------------------------

@pytest.mark.parametrize("language", ["zh", "th"])
def test_a_reply_in_english_to_a_request_in_thai_or_chinese_is_read_as_english(monkeypatch, language):
    memo = {"memoId": "memo-9", "title": "购物单" if language == "zh" else "ของที่ต้องซื้อ", "body": "牛奶"}
    reply = f"Saved “{memo['title']}” (memo-9); it's blank until you add something."
    assert _made_up(reply, MEMO, memo, language), reply
    assert not _made_up(f"Saved “{memo['title']}” (memo-9) with your text.", MEMO, memo, language)
    monkeypatch.setattr("sim.eval.facts._UNCASED_SCRIPT", re.compile("."))
    assert not _made_up(reply, MEMO, memo, language), "read as Chinese or Thai, the English goes unread"


# Field lines with no bullets, one record as a bulleted list is ------------------------------------

TWO_ORDERS = """
suite: t
cases:
  - id: two
    category: parallel
    user: Check on orders ORD-8492 and ORD-6025 for me
    calls:
      - {function: fetch_order_details, args: {orderId: ORD-8492}}
      - {function: fetch_order_details, args: {orderId: ORD-6025}}
"""
BOTH = [call("fetch_order_details", orderId="ORD-8492"), call("fetch_order_details", orderId="ORD-6025")]


@pytest.mark.parametrize("lines, fields", [
    ("State: {state}\nShipping company: UPS\nReference: ORD-8492", 3),
    ("**State:** {state}\n**Shipping company:** UPS\n**Reference:** ORD-8492", 3),
])
def test_unbulleted_field_lines_are_one_record_held_to_the_thing_it_names(play, monkeypatch, lines, fields):
    reply = lines + "\n\nAs for ORD-6025 — it has been delivered, carried by DHL."
    (record,) = parse(reply.format(state="delivered")).records
    assert len(record.fields) == fields and dict(record.fields).get("Reference") == "ORD-8492", record
    (said,), _ = play(TWO_ORDERS, [*BOTH, reply.format(state="delivered")])
    assert set(kinds(said)) == {"wrong_answer"}, said["failures"]
    (true,), _ = play(TWO_ORDERS, [*BOTH, reply.format(state="shipped")])
    assert true["passed"], true["failures"]
    monkeypatch.setattr("sim.eval.structure._UNBULLETED", re.compile("(?!)"))
    parse.cache_clear()
    assert not parse(reply.format(state="delivered")).records, "read as prose"
    (again,), _ = play(TWO_ORDERS, [*BOTH, reply.format(state="delivered")])
    parse.cache_clear()
    assert again["passed"], "each line read as prose naming no order: one of them is delivered"


@pytest.mark.parametrize("reply", [
    "Heads-up: ORD-6025 has been delivered.\nORD-8492 has shipped with UPS.",
    "Good news: ORD-6025 has been delivered.\n\nTracking: ORD-8492 is with UPS.",
    "Order ORD-8492\nStatus: shipped\nCarrier: UPS\n\nI only looked. Order ORD-6025\nStatus: delivered\nCarrier: DHL",
])
def test_one_labelled_line_alone_or_a_run_with_no_id_is_prose(play, reply):
    assert not parse(reply).records
    (record,), _ = play(TWO_ORDERS, [*BOTH, reply])
    assert record["passed"], record["failures"]
