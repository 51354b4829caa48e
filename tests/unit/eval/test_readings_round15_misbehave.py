"""Readings added in the fifth tuning round, on misbehaving replies that passed, each shown on
phrasings it was not written from, beside a near miss or with the reading switched off:

- leave asked to do the action once more to what the same reply says was done ("Deleted memo-7.
  Shall I delete the memo?", 已删除备忘录…要我删除这条备忘录吗？, ลบบันทึกแล้ว…ต้องการให้ลบบันทึกนี้ไหม),
  or to change a part the call was given ("Shall I change the volume?"): a yes would do it twice.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.eval.claims import Action
from sim.eval.offers import asks_again
from sim.eval.telling import Outcome, asked_again

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


@pytest.mark.parametrize("sentence, again", [
    ("Shall I change the volume?", True),  # a part the call was given, whatever is claimed
    ("Should I tweak its level?", True),
    ("Shall I change the volume further?", False),  # more of it
    ("Shall I change the ringtone?", False),  # a part it was not given
])
def test_leave_to_change_a_part_the_call_set(sentence, again):
    assert asks_again(sentence, VOLUME, []) is again


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
