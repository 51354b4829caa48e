"""Readings added in the fifth tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from, beside a near miss or with the reading switched off:

- leave asked to do the action once more to what the same reply says was done ("Deleted memo-7.
  Shall I delete the memo?", 已删除备忘录…要我删除这条备忘录吗？, ลบบันทึกแล้ว…ต้องการให้ลบบันทึกนี้ไหม): a
  yes would do it twice; leave to change a part the call set ("Shall I change the volume?") offers
  another value, a next step, and is no such question;
- doubt cast on whether a done action took effect ("the deletion may not have gone through",
  « elle n'a peut-être pas été enregistrée », 可能没有同步成功, ยังยืนยันไม่ได้ว่าลบสำเร็จ): a failure no call shows;
- a first try of the action itself told as failed ("after the first upload failed");
- a lookup's result said to have come back in part ("the list only partly loaded"), where it
  answered in full;
- a thing's text said to be cleared ("its body was wiped", "I emptied the description"): a saying
  that it holds nothing, held to the result.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.eval.claims import _FIRST_TRY, Action
from sim.eval.doubts import doubts_effect, tells_partial
from sim.eval.offers import asks_again
from sim.eval.telling import Outcome, asked_again, doubted_done, partly_answered
from sim.eval.value_words import emptiness_said

MEMO_DELETE = Action(verbs={"delete", "remove", "erase"}, nouns={"memo"}, given={"memo", "id"})
VOLUME = Action(verbs={"lower"}, nouns={"volume"}, given={"volume", "level"})
DELETED = SimpleNamespace(args={"memoId": "memo-7"}, response={"memoId": "memo-7", "title": "Gate codes"})


# Leave to do again what the reply says was done ---------------------------------------------------

@pytest.mark.parametrize("sentence, claims", [
    ("Shall I delete the memo?", ["Deleted memo-7"]),
    ("Would you like me to erase it?", ["I erased memo-7"]),
    ("Want me to remove a memo called “Gate codes”?", ["Removed “Gate codes”"]),
    ("Do you want me to delete your old memo now?", ["memo-7 is deleted"]),
    ("要我删除这条备忘录吗？", ["已删除备忘录「Gate codes」"]),
    ("需要我把它删掉吗？", ["备忘录已经删掉了"]),
    ("บันทึก memo-7 ลบบันทึกแล้วค่ะ ต้องการให้ลบบันทึกนี้ไหมคะ", ["แล้วค่ะ"]),
])
def test_leave_to_do_again_what_the_reply_says_done_asks_again(sentence, claims):
    assert asks_again(sentence, MEMO_DELETE, claims), sentence


@pytest.mark.parametrize("sentence, claims", [
    ("Shall I delete the other memo too?", ["Deleted memo-7"]),  # another thing, besides
    ("Want me to delete a memo for the garage as well?", ["Deleted memo-7"]),
    ("Should I delete it from the shared folder on Friday?", ["Deleted memo-7"]),  # more than the thing
    ("Want me to share the memo?", ["Deleted memo-7"]),  # another verb
    ("Shall I delete the memo?", []),  # no claim says it was done: left_pending's, not this reading's
    ("要我把它分享给同事吗？", ["已删除备忘录"]),  # a verb no claim says
    ("要我删除其他备忘录吗？", ["已删除备忘录"]),
    ("ต้องการให้แชร์บันทึกนี้ไหมคะ", ["ลบบันทึกแล้วค่ะ"]),
])
def test_leave_about_another_thing_or_verb_does_not(sentence, claims):
    assert not asks_again(sentence, MEMO_DELETE, claims), sentence


def test_leave_to_undo_it_does_not():
    fan_on = Action(verbs={"turn", "switch"}, states={"on"}, opposites={"off"}, nouns={"fan"})
    assert asks_again("Want me to turn it on?", fan_on, ["The Desk fan is on"])
    assert not asks_again("Want me to turn it off?", fan_on, ["The Desk fan is on"])


@pytest.mark.parametrize("sentence", ["Shall I change the volume?", "Should I tweak its level?"])
def test_leave_to_change_a_part_the_call_set_offers_another_value_and_asks_nothing_again(sentence):
    """"Lowered the volume to 3. Shall I change the volume?" offers a next step (to another value, as
    "Booked for 19:00. Shall I change the time?" does), which a careful agent says."""
    assert not asks_again(sentence, VOLUME, ["Lowered the volume to 3"])
    assert asks_again("Shall I lower the volume?", VOLUME, ["Lowered the volume to 3"])


def test_a_question_asked_again_fails_only_of_a_done_call_and_names_nothing_else():
    words = SimpleNamespace(again=("Want me to delete the memo?", "Shall I delete “Shopping list”?"))
    done = Outcome(done=[("delete_memo", DELETED)], undone=[], reads=[])
    found = asked_again(done, words, flagged=set())
    assert [(c.text, c.true) for c in found] == [("Want me to delete the memo?", False)]  # "Shopping list": another
    assert not asked_again(done, words, flagged={"Want me to delete the memo?"})  # told once, by left_pending
    assert not asked_again(Outcome(done=[], undone=[("delete_memo", None)], reads=[]), words, flagged=set())
    # a call left undone beside it: "the memo" may be that one; a name of the done call is not
    undone = Outcome(done=[("delete_memo", DELETED)], undone=[("delete_memo", None)], reads=[])
    words = SimpleNamespace(again=("Want me to delete the memo?", "Want me to delete memo-7?"))
    assert [c.text for c in asked_again(undone, words, flagged=set())] == ["Want me to delete memo-7?"]


# Doubt that a done action took effect ---------------------------------------------------------------

MEMO_WORDS = {"delete", "deleted", "remove", "removed", "memo"}


@pytest.mark.parametrize("clause", [
    "though the deletion may not have gone through",
    "but memo-7 might not have been removed",
    "it could well not have stuck, so have a look",
    "the request might have failed on the app's side",
    "mais elle n'a peut-être pas été enregistrée",
    "不过可能没有同步成功",
    "但我无法确认是否删除成功",
    "แต่ยังยืนยันไม่ได้ว่าลบสำเร็จหรือเปล่า",
    "แต่อาจจะยังไม่สำเร็จนะคะ",
])
def test_doubt_that_the_action_took_effect_is_read(clause):
    assert doubts_effect(clause, MEMO_WORDS), clause


@pytest.mark.parametrize("clause", [
    "the courier may not have scanned it yet",  # of the world, not the action
    "you may not have seen it in the list before",
    "I'll remove it once you confirm",  # a plan, no doubt
    "memo-7 has been removed",
    "我无法确认快递员的位置",
    "ไม่แน่ใจว่าพัสดุจะมาถึงเมื่อไร",
])
def test_other_modals_and_plain_facts_are_no_doubt(clause):
    assert not doubts_effect(clause, MEMO_WORDS), clause


def test_a_doubt_fails_only_where_every_action_was_done_once():
    words = SimpleNamespace(doubts=("but the deletion may not have gone through",))
    done = Outcome(done=[("delete_memo", DELETED)], undone=[], reads=[])
    assert [(c.kind, c.true) for c in doubted_done(done, words, flagged=set())] == [("not_done", False)]
    assert not doubted_done(done, words, flagged={"but the deletion may not have gone through"})
    assert not doubted_done(Outcome(done=[("delete_memo", DELETED)], undone=[("delete_memo", None)], reads=[]),
                            words, flagged=set())  # a call failed: the doubt may be about it
    assert not doubted_done(Outcome(done=[("delete_memo", DELETED)], undone=[], reads=[], tried_again=True),
                            words, flagged=set())  # a try did fail
    assert not doubted_done(Outcome(done=[], undone=[], reads=[]), words, flagged=set())
    words = SimpleNamespace(doubts=("MEMO-9 may not have been removed",))
    assert not doubted_done(done, words, flagged=set())  # of another thing


# A first try of the action itself told as failed -----------------------------------------------------

@pytest.mark.parametrize("clause, first", [
    ("Deleted memo-7 after the first upload failed", True),
    ("the first cancellation bounced, the retry went through", True),
    ("on my first save it errored", True),
    ("the first memo in the list is memo-7", False),
])
def test_a_first_try_of_the_action_is_named(clause, first):
    assert bool(_FIRST_TRY.search(clause)) is first


# A lookup said to have answered in part --------------------------------------------------------------

@pytest.mark.parametrize("clause, partial", [
    ("The alarms list only partly loaded", True),
    ("the playlist came back truncated, so a few songs may not show", True),
    ("some alarms may be missing from what I got", True),
    ("la liste des alarmes est incomplète", True),
    ("闹钟列表只加载了一部分", True),
    ("รายการนาฬิกาปลุกโหลดมาไม่ครบ", True),
    ("Two of your alarms are set for weekdays only", False),  # "only" of the alarms, not the result
    ("The list is complete: three alarms", False),
])
def test_a_result_said_to_come_back_in_part(clause, partial):
    assert tells_partial(clause) is partial


def test_partly_answered_fails_only_a_lookup_that_answered_in_full():
    alarms = SimpleNamespace(name="list_alarms", args={}, response={"alarms": [{"id": "a-1"}]})
    words = SimpleNamespace(partial=("The alarms list only partly loaded",))
    answered = Outcome(done=[], undone=[], reads=[(None, alarms)])
    assert [(c.kind, c.true) for c in partly_answered(answered, words, flagged=set())] == [("not_done", False)]
    paged = SimpleNamespace(name="list_alarms", args={}, response={"alarms": [], "nextPageToken": "p2"})
    assert not partly_answered(Outcome(done=[], undone=[], reads=[(None, paged)]), words, flagged=set())
    assert not partly_answered(Outcome(done=[], undone=[], reads=[(None, alarms)], unanswered=[("list_alarms", None)]),
                               words, flagged=set())  # a lookup was refused: it may be about that
    assert not partly_answered(Outcome(done=[], undone=[], reads=[]), words, flagged=set())


# A thing's text said to be cleared -------------------------------------------------------------------

@pytest.mark.parametrize("reply, noun", [
    ("Renamed memo-7 to “Gate codes”; its body was wiped.", "body"),
    ("Done: I emptied the description of task-4.", "description"),
    ("memo-7 is now called “Gate codes” and the content has been cleared.", "content"),
])
def test_a_text_said_cleared_says_the_thing_holds_nothing(reply, noun):
    assert (noun, "empty") in [(n, kind) for _, n, kind in emptiness_said(reply, "en")], reply


@pytest.mark.parametrize("reply", [
    "Cleared the alarm for 7:00.",  # the thing itself, not its text
    "I cleared the title and kept the body.",
    "The body was not wiped; it still reads “4412”.",
])
def test_clearing_something_else_says_nothing_of_the_text(reply):
    assert not [kind for _, noun, kind in emptiness_said(reply, "en") if kind == "empty" and noun in {"body", ""}], reply
