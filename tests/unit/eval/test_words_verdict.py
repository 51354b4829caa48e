"""The words verdict from a claim list, whoever read it: each false claim under its check, what was
untold, and an ask turn's question."""

from __future__ import annotations

import pytest

from sim.eval.claim_list import Claim, Reading, Untold
from sim.eval.words_verdict import Situation, words_failures

from .conftest import call
from .test_readings import PORCH

CANCELLED = Situation(done=("cancel_order",))


def _checks(reading: Reading, situation: Situation, text: str = "") -> list[tuple[str, str]]:
    return [(f.kind, f.check) for f in words_failures(reading, situation, text)]


def test_a_failure_said_beside_the_same_action_said_done_is_an_invented_failure_else_a_denial():
    failed = Claim("not_done", "the first try timed out", "ORD-5117", False, "cancel_order happened")
    done = Claim("done", "ORD-5117 is cancelled", "ORD-5117", True)
    assert _checks(Reading((failed, done)), CANCELLED) == [("false_claim", "invented_failure")]
    assert _checks(Reading((failed,)), CANCELLED) == [("false_claim", "denial")]
    other = Claim("done", "ORD-6025 is cancelled", "ORD-6025", True)
    assert _checks(Reading((failed, other)), CANCELLED) == [("false_claim", "denial")]


@pytest.mark.parametrize("situation, check", [
    (Situation(undone=("cancel_order",), all_declined=True), "after_decline"),
    (Situation(undone=("cancel_order",)), "claim"),
    (Situation(no_app=True), "claim"),
])
def test_a_claim_of_what_did_not_happen_is_held_to_why_it_did_not(situation, check):
    (failure,) = words_failures(Reading((Claim("done", "Cancelled!", "", False, "cancel_order did not happen"),)),
                                situation, "Cancelled!")
    assert (failure.kind, failure.check, failure.got) == ("false_claim", check, "Cancelled!")
    assert failure.detail == "cancel_order did not happen, but the agent said 'Cancelled!'"


def test_values_fail_each_and_actions_once_per_check_and_what_was_untold_fails_too():
    reading = Reading((Claim("done", "Created it", "", False, "create_note did not happen"),
                       Claim("done", "All set", "", False, "create_note did not happen"),
                       Claim("offered", "Shall I create it?", "", False),
                       Claim("value", "14°F", "Paris", False, "the app said 14 °C"),
                       Claim("value", "BK-1009", "", False, "which no call returned"),
                       Claim("value", "Paris", "Paris", True)),
                      (Untold("answer", "get_current_weather", "the reply does not say the temperature (14)"),))
    failures = words_failures(reading, Situation(done=("create_note",), undone=("book_table",)), "")
    assert [(f.kind, f.check) for f in failures] == [
        ("false_claim", "claim"), ("false_claim", "act_then_ask"), ("wrong_answer", "misstatement"),
        ("wrong_answer", "misstatement"), ("wrong_answer", "answer")]
    assert [f.detail for f in failures[1:]] == [
        "it was already done, but the agent asks 'Shall I create it?'",
        "the agent stated '14°F', the app said 14 °C", "the agent stated 'BK-1009', which no call returned",
        "get_current_weather answered, but the reply does not say the temperature (14)"]
    made_up = words_failures(Reading((Claim("value", "7:05", "", False, "which no call returned"),)),
                             Situation(no_app=True), "")
    assert [(f.check, f.detail) for f in made_up] == [
        ("made_up", "no app can do this, but the agent stated '7:05', which no call returned")]


def test_an_ask_turn_needs_a_question_about_what_is_missing():
    asks = Reading((Claim("asked", "What should I call it?"),))
    assert _checks(Reading(), Situation(ask_about=("title",)), "Sure.") == [("no_question", "question")]
    assert _checks(asks, Situation(ask_about=("title", "name")), "What should I call it?") == [
        ("no_question", "question")]
    assert _checks(asks, Situation(ask_about=("title",)), "What title should it have?") == []
    assert _checks(Reading((Claim("offered", "Shall I make one?"),)), Situation(ask_about=())) == []


@pytest.mark.parametrize("reply, kind, check", [
    ("The porch light is on. Should I turn the porch light on for you?", "offered", "act_then_ask"),
    ("Porch light is on now 💡 Want me to go ahead and switch it on?", "offered", "act_then_ask"),
    ("The first try timed out, but the porch light is on now.", "not_done", "invented_failure"),
    ("I had to try it twice, but the porch light is on now.", "not_done", "invented_failure"),
])
def test_the_rules_list_acting_then_asking_and_a_failure_no_call_shows_as_false_claims_each_under_its_check(
        play, reply, kind, check):
    """What the rules read is a claim in their list, held false with why, and the verdict names the
    check from that list alone (a judge's list with the same claim fails the same way)."""
    (record,), _ = play(PORCH, [call("set_light_power", lightId="porch", power="ON"), reply])
    turn = record["turns"][0]
    (false,) = [c for c in turn["words"]["claims"] if c["true"] is False]
    assert (false["kind"], false["why"]) == (kind, "set_light_power " + (
        "was already done in this turn" if kind == "offered" else "happened"))
    assert [f["check"] for f in turn["failures"]] == [check]
    assert any(c["kind"] == "done" and c["true"] for c in turn["words"]["claims"]) or kind == "offered"
    assert record["verdict"] != "pass"
