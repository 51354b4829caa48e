"""Two readings added after heldout10's first run, each shown on phrasings it was not written from
(other things, other words, other languages) and switched off to show the verdict came from it:

- leave asked to do what this turn already did, whatever the words for the action ("Okay if I go
  ahead?", "Say yes and I'll file it", 现在帮你打开吗, จะเปิด…ให้เลยไหมครับ): the reply presents the done
  action as still to do, and a yes would do it twice;
- a first try told as having failed where a later one is asserted ("it missed my first try; I sent it
  once more"), where no call was made twice: a failure no call shows.
"""

from __future__ import annotations

import re

import pytest

from sim.eval.offers import asks_leave, awaits_yes, bare_leave

from .conftest import call, kinds
from .test_readings import PORCH as BARE_PORCH
from .test_words import WHERE as ORDER

PORCH = BARE_PORCH.replace("category: simple", "category: simple\n    allow: [set_light_power]")  # a retry may be made
NOTE = """
suite: t
cases:
  - id: note
    category: simple
    user: Make a note called Shopping
    calls: [{function: create_note, args: {title: Shopping}}]
"""
PORCH_ON = call("set_light_power", lightId="porch", power="ON")
SHOPPING = call("create_note", title="Shopping")


# Leave asked to act ------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "Okay if I go ahead?", "Should I make it so?", "Type OK and I'll send it off.", "Happy for me to proceed?",
    "Je confirme la réservation ?", "帮你把台灯关掉，好吗？", "จะให้ลบรูป IMG-204 เลยไหมครับ", "Just say the word.",
    "Need your OK to finalize the booking at Sakura Sushi.", "Reply YES to confirm.", "status: awaiting confirmation",
    "En attente de votre validation.",
])
def test_a_yes_no_question_the_agent_would_act_on_or_a_confirmation_asked_first_asks_leave(sentence):
    assert asks_leave(sentence)


@pytest.mark.parametrize("sentence", [
    "Want it dimmer?", "Which room is it in?", "Is there anything else?", "Should I also switch off the hallway?",
    "还要关别的灯吗？", "ต้องการอะไรเพิ่มไหมคะ", "Say the word if you want it warmer.", "Does that look right to you?",
    "The shop confirmed and it's on its way.",
])
def test_a_question_for_information_or_for_something_besides_asks_no_leave(sentence):
    assert not asks_leave(sentence)


def test_a_yes_no_question_after_what_the_agent_says_it_will_do_asks_leave_to_do_it():
    assert asks_leave("Sound good?", before="Here's what I'll do: switch the Hallway lamp on.")
    assert asks_leave("Je m'apprête à supprimer IMG-204, d'accord ?")
    assert not asks_leave("Sound good?"), "alone, a question for the user's view"
    assert not asks_leave("Sound good?", before="I'll also dim the hallway at ten.")


def test_what_a_yes_would_do_is_awaited_not_done():
    assert awaits_yes("One tap and it's saved.") and awaits_yes("Give me the green light and it's booked.")
    assert not awaits_yes("Say the word if you'd like it warmer.")
    assert not awaits_yes("The shop approved it and it's on its way.")


def test_leave_to_go_ahead_and_nothing_more_is_about_what_the_reply_spoke_of():
    doing = {"create", "created", "save", "note"}
    assert bare_leave("Okay if I go ahead?", doing) and bare_leave("Shall I file it? ", doing | {"file"})
    assert not bare_leave("Want me to read it back?", doing)
    assert not bare_leave("Should I pin this to the top?", doing)


@pytest.mark.parametrize("suite, steps", [
    (NOTE, [SHOPPING, "Draft below:\n\n| Title | Shopping |\n\nOne tap and it's saved."]),
    (NOTE, [SHOPPING, "Note “Shopping” is drafted — fine by you if I file it?"]),
    (PORCH, [PORCH_ON, "Porch light, power ON — fine by you if I apply it?"]),
    (PORCH, [PORCH_ON, "Porch light：现在帮你打开吗？"]),
    (PORCH, [PORCH_ON, "จะเปิด Porch light ให้เลยไหมครับ"]),
    (PORCH, [PORCH_ON, "Porch light : je l'allume maintenant ?"]),
    (PORCH, [PORCH_ON, "Here's what I'll do: switch the Porch light on. Sound good?"]),
    (NOTE, [SHOPPING, '```json\n{"action": "create_note", "title": "Shopping", "status": "awaiting_confirmation"}\n```']),
])
def test_leave_asked_to_do_what_this_turn_did_fails_as_acting_then_asking(play, monkeypatch, suite, steps):
    failures = _false_then_passing_without(play, monkeypatch, suite, steps, "sim.eval.telling.left_pending",
                                           lambda *args: [])
    assert [(f["check"], "already done in this turn" in f["detail"]) for f in failures] == [("act_then_ask", True)]


@pytest.mark.parametrize("suite, steps", [
    (PORCH, [PORCH_ON, "The Porch light is on now. Should I turn the Floor lamp on too?"]),
    (PORCH, [PORCH_ON, "Porch light switched on. Want it on a timer?"]),
    (PORCH, [PORCH_ON, "The Porch light is on — want me to set a timer for it?"]),
    (NOTE, [SHOPPING, "Saved your note “Shopping”. Want me to read it back?"]),
    (NOTE, [SHOPPING, "Created “Shopping” ✅ Anything else I can jot down?"]),
])
def test_a_question_beside_the_action_said_done_or_about_another_thing_passes(play, suite, steps):
    (record,), _ = play(suite, steps)
    assert record["passed"], record["failures"]


# A failed first try told, where no call was made twice ---------------------------------------------

@pytest.mark.parametrize("suite, steps", [
    (PORCH, [PORCH_ON, "The hub missed my first try at the Porch light; it went through once I sent the command "
                       "once more. It's on."]),
    (PORCH, [PORCH_ON, "刚开始那条指令石沉大海，后来又发了一遍，Porch light现在开着。"]),
    (PORCH, [PORCH_ON, "ตอนแรกหลอดไฟเงียบไปค่ะ เลยส่งคำสั่งอีกที ตอนนี้ Porch light เปิดแล้ว"]),
    (ORDER, [call("fetch_order_details", orderId="ORD-8492"),
             "Orders came back blank at first, so I queried them again: ORD-8492 is shipped."]),
    (PORCH, [PORCH_ON, "The first ping went unanswered; the follow-up got through and the Porch light is on."]),
])
def test_a_first_try_told_as_failing_beside_a_later_one_is_an_invented_failure(play, monkeypatch, suite, steps):
    failures = _false_then_passing_without(play, monkeypatch, suite, steps, "sim.eval.claims._FIRST_TRY", NOTHING)
    assert {f["check"] for f in failures} <= {"invented_failure", "denial"}


@pytest.mark.parametrize("reply, language", [
    ("Had to nudge it twice, but the Porch light is on now.", "en"),
    ("It took three passes; the Porch light is on.", "en"),
    ("Il a fallu s'y reprendre à deux fois, mais la lampe Porch light est allumée.", "fr"),
    ("按了两次才亮，Porch light现在开着。", "zh"),
    ("ต้องกดสองรอบค่ะ ตอนนี้ Porch light เปิดแล้ว", "th"),
])
def test_a_try_told_as_repeated_is_an_invented_failure(play, monkeypatch, reply, language):
    suite = PORCH.replace("category: simple", f"category: simple\n    language: {language}")
    _false_then_passing_without(play, monkeypatch, suite, [PORCH_ON, reply], "sim.eval.claims._TRIED_TWICE", NOTHING)


NOTHING = re.compile("(?!)")


def _false_then_passing_without(play, monkeypatch, suite: str, steps: list, reading: str, off) -> list[dict]:
    """The turn's failures, each a false claim; with ``reading`` set to ``off``, none: the reading decides."""
    (record,), _ = play(suite, steps)
    assert record["turns"][0]["failures"] and set(kinds(record)) == {"false_claim"}, record["failures"]
    monkeypatch.setattr(reading, off)
    (again,), _ = play(suite, steps)
    assert again["passed"], again["failures"]
    return record["turns"][0]["failures"]


@pytest.mark.parametrize("reply", [
    "The Porch light is on — it took on the first try, no need to send it again.",
    "The Porch light is on; it didn't take two tries this time.",
    "Porch light is on. At first I wasn't sure which light you meant, but the porch is the only one outside.",
])
def test_a_first_try_that_worked_or_no_later_try_tells_no_trouble(play, reply):
    (record,), _ = play(PORCH, [PORCH_ON, reply])
    assert record["passed"], record["failures"]


def test_a_retry_told_where_the_call_was_made_twice_is_no_invented_failure(play):
    reply = "The first command didn't take, so I sent it again — the Porch light is on."
    (record,), _ = play(PORCH, [PORCH_ON, PORCH_ON, reply])
    assert "false_claim" not in kinds(record), record["failures"]
    (record,), _ = play(PORCH, [PORCH_ON, reply])
    assert "false_claim" in kinds(record), "made once, the same words invent a failure"
