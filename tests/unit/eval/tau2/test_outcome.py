"""Outcome scoring (sim/eval/outcome.py, sim/eval/state_diff.py): τ²'s checks, the path and the diff."""

from __future__ import annotations

import copy

import pytest

from sim.eval.outcome import (COMMUNICATE, DB, NL_ASSERTION, NOT_JUDGED, PASSED, FAILED, Criteria, GoldAction,
                              MadeCall, communicated, judge_outcome, path)
from sim.eval.state_diff import diff_states

START = {
    "orders": {
        "#W1": {"status": "pending", "items": [{"id": "i1", "price": 10.5}], "address": {"city": "Austin"}},
        "#W2": {"status": "delivered", "items": [{"id": "i2", "price": 3.0}], "address": {"city": "Boston"}},
    },
    "users": {"u1": {"name": "Ann", "orders": ["#W1", "#W2"]}},
}


def _with(state, table, key, **fields):
    changed = copy.deepcopy(state)
    changed[table][key].update(fields)
    return changed


CANCEL = GoldAction("cancel_pending_order", {"order_id": "#W1", "reason": "no longer needed"})
GOLD = _with(START, "orders", "#W1", status="cancelled")


def _call(name, writes=True, failed=False, **arguments):
    return MadeCall(name, arguments, writes, failed)


def test_the_gold_end_state_passes_and_the_path_names_the_matched_action() -> None:
    calls = [_call("get_order_details", writes=False, order_id="#W1"),
             _call("cancel_pending_order", order_id="#W1", reason="no longer needed")]
    outcome = judge_outcome(Criteria((CANCEL,)), "user_stop", START, GOLD, GOLD, calls, ["Cancelled."], None)
    assert (outcome.reward, outcome.verdict, outcome.checks) == (1.0, PASSED, {DB: True})
    assert outcome.gold == [{**CANCEL.to_dict(), "matched": True}] and outcome.extra_writes == []
    assert outcome.diff.changed == outcome.diff.expected == {"orders": {"changed": ["#W1"]}}


def test_a_wrong_write_fails_with_the_record_it_touched_and_the_one_it_missed() -> None:
    run = _with(START, "orders", "#W2", status="cancelled")
    calls = [_call("cancel_pending_order", order_id="#W2", reason="no longer needed")]
    outcome = judge_outcome(Criteria((CANCEL,)), "user_stop", START, GOLD, run, calls, [], None)
    assert (outcome.reward, outcome.verdict) == (0.0, FAILED)
    assert outcome.extra_writes == [{"name": "cancel_pending_order",
                                     "arguments": {"order_id": "#W2", "reason": "no longer needed"}}]
    kinds = {(f.kind, f.key): f for f in outcome.diff.findings}
    assert set(kinds) == {("unexpected", "#W2"), ("missed", "#W1")}
    assert [c.text() for c in kinds[("unexpected", "#W2")].fields] == ['status: "delivered" -> "cancelled"']
    reasons = outcome.reasons()
    assert any("orders #W2 was changed by the run, and the gold actions leave it alone" in r for r in reasons)
    assert any("orders #W1 is changed by the gold actions, and the run left it as it was" in r for r in reasons)


def test_a_change_other_than_gold_names_the_field_with_both_values() -> None:
    run = _with(START, "orders", "#W1", status="cancelled", items=[{"id": "i1", "price": 11.0}])
    [finding] = diff_states(START, GOLD, run).findings
    assert finding.kind == "different"
    assert [(c.path, c.before, c.after) for c in finding.fields] == [("items[0].price", 10.5, 11.0)]


def test_records_added_and_removed_are_named() -> None:
    run = copy.deepcopy(START)
    run["orders"]["#W9"] = {"status": "pending"}
    del run["users"]["u1"]
    found = {(f.kind, f.table, f.key, f.change) for f in diff_states(START, START, run).findings}
    assert found == {("unexpected", "orders", "#W9", "added"), ("unexpected", "users", "u1", "removed")}


@pytest.mark.parametrize("compare_args, arguments, matched", [
    (None, {"order_id": "#W1", "reason": "no longer needed"}, True),
    (None, {"order_id": "#W1"}, True),  # τ²: only the arguments the call gave are compared
    (None, {"order_id": "#W1", "reason": "ordered by mistake"}, False),
    (("order_id",), {"order_id": "#W1", "reason": "ordered by mistake"}, True),
    ((), {"order_id": "#W2"}, True),
])
def test_gold_actions_match_calls_as_tau2_matches_them(compare_args, arguments, matched) -> None:
    action = GoldAction("cancel_pending_order", {"order_id": "#W1", "reason": "no longer needed"}, compare_args)
    [gold], _ = path([action], [_call("cancel_pending_order", **arguments)])
    assert gold["matched"] is matched


def test_communicate_info_is_found_as_tau2_finds_it() -> None:
    found = communicated(["1,628", "1628", "Polyester"], ["Your refund is $1,628.", "It is made of polyester."])
    assert [c["met"] for c in found] == [False, True, True]  # commas go from the message, not from the info


def test_unjudged_assertions_never_pass() -> None:
    criteria = Criteria((), (), ("Agent should refuse.",), (DB, NL_ASSERTION))
    outcome = judge_outcome(criteria, "user_stop", START, START, START, [], ["No."], None)
    assert (outcome.reward, outcome.verdict, outcome.checks[NL_ASSERTION]) == (None, NOT_JUDGED, None)
    assert outcome.assertions[0]["met"] is None
    judged = judge_outcome(criteria, "user_stop", START, START, START, [], ["No."],
                           [{"assertion": "Agent should refuse.", "met": False, "reason": "it agreed"}])
    assert (judged.reward, judged.verdict) == (0.0, FAILED)
    assert "assertion not met: Agent should refuse. (it agreed)" in judged.reasons()
    # A failed check decides the trial whatever the assertions would say.
    failing = judge_outcome(criteria, "user_stop", START, GOLD, START, [], ["No."], None)
    assert (failing.reward, failing.verdict) == (0.0, FAILED)


def test_a_conversation_cut_off_by_a_limit_earns_nothing() -> None:
    outcome = judge_outcome(Criteria(), "max_steps", START, START, START, [], [], None)
    assert (outcome.reward, outcome.verdict) == (0.0, FAILED)
    assert outcome.reasons()[0] == "the conversation ended on max steps, not by the user or the agent"


def test_a_do_nothing_task_is_marked_and_fails_a_claimed_change() -> None:
    criteria = Criteria((), (), (), (DB, COMMUNICATE))
    quiet = judge_outcome(criteria, "user_stop", START, START, START, [], ["I can't cancel it."], None)
    assert quiet.do_nothing_passes and quiet.verdict == PASSED
    claimed = judge_outcome(criteria, "user_stop", START, START, START, [], ["Your order is cancelled."], None,
                            claims=["Your order is cancelled."])
    assert (claimed.reward, claimed.verdict) == (1.0, FAILED)  # τ²'s reward, and droidsim's verdict
    assert claimed.reasons() == ["a change claimed where none happened: 'Your order is cancelled.'"]
    told = Criteria((), ("1628",), (), (DB, COMMUNICATE))
    assert not judge_outcome(told, "user_stop", START, START, START, [], [], None).do_nothing_passes
