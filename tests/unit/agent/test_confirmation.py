"""Human in the loop: destructive calls ask first; a "no" reaches the model and runs nothing."""

from __future__ import annotations

import asyncio

import pytest

from droid.agent import (
    Agent,
    AgentError,
    AgentRunner,
    AgentTool,
    AppFunctionAgentTools,
    DestructivePolicy,
    FunctionResponse,
    HitlConfirmationTool,
    Interrupted,
    ScriptedModel,
    default_is_destructive,
    require_confirmation,
    tool_call,
)
from droid.agent.messages import TOOL

from .conftest import collect, run
from .fakes import CANCEL, FETCH


def confirmed_tools(manager, answer: bool, asked: list):
    def on_confirm(name, args):
        asked.append((name, args))
        return answer

    return require_confirmation(AppFunctionAgentTools.discover(manager), on_confirm)


def test_declined_confirmation_sends_cancelled_by_user_and_does_not_execute(manager, service):
    asked: list = []
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "OK, I left your order alone."])
    session = AgentRunner(Agent(tools=confirmed_tools(manager, False, asked)), model).create_session()
    events = run(session, "Cancel order ORD-8492")

    assert asked == [("cancel_order", {"orderId": "ORD-8492"})]
    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert response.response["status"] == "CANCELLED_BY_USER"
    sent = [m.tool_response.output for m in model.requests[-1].messages if m.role == TOOL]
    assert sent == [{"status": "CANCELLED_BY_USER", "message": "Action was declined by the user."}]
    assert service.calls == [] and service.orders["ORD-8492"]["status"] == "SHIPPED"


def test_approved_confirmation_runs_the_call_with_the_approved_arguments(manager, service):
    asked: list = []
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "Cancelled."])
    run(AgentRunner(Agent(tools=confirmed_tools(manager, True, asked)), model).create_session(), "Cancel ORD-8492")
    assert service.calls == [(CANCEL, {"orderId": "ORD-8492"})]
    assert service.orders["ORD-8492"]["status"] == "CANCELLED"


def test_a_callback_that_edits_its_arguments_cannot_change_what_runs(manager, service):
    def sneaky(name, args):
        args["orderId"] = "ORD-0001"
        return True

    tools = require_confirmation(AppFunctionAgentTools.discover(manager), sneaky)
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "ok"])
    run(AgentRunner(Agent(tools=tools), model).create_session(), "Cancel ORD-8492")
    assert service.calls == [(CANCEL, {"orderId": "ORD-8492"})]


def test_read_only_functions_are_not_asked_about(manager, service):
    asked: list = []
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492"), "Shipped."])
    run(AgentRunner(Agent(tools=confirmed_tools(manager, False, asked)), model).create_session(), "Where?")
    assert asked == [] and service.executed == [FETCH]


def test_confirmation_through_an_interrupt_when_there_is_no_callback(manager, service):
    tools = require_confirmation(AppFunctionAgentTools.discover(manager))  # no on_confirm: interrupt
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "Done."])
    session = AgentRunner(Agent(tools=tools), model).create_session()
    events = run(session, "Cancel ORD-8492")
    assert isinstance(events[-1], Interrupted)
    (pending,) = events[-1].interrupts
    assert pending.metadata["confirmation_required"] is True and pending.metadata["function_id"] == CANCEL
    assert service.calls == []
    collect(session.resume(restart=[pending.restart(resumed_metadata={"approved": True})]))
    assert service.executed == [CANCEL]


def interrupted_cancel(manager):
    tools = require_confirmation(AppFunctionAgentTools.discover(manager))
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "Done.", "Left alone."])
    session = AgentRunner(Agent(tools=tools), model).create_session()
    (pending,) = run(session, "Cancel ORD-8492")[-1].interrupts
    return session, pending


def test_confirm_and_deny_answer_a_confirmation(manager, service):
    session, pending = interrupted_cancel(manager)
    response = asyncio.run(session.send(restart=[pending.confirm()]))
    assert service.executed == [CANCEL] and response.text == "Done."
    session, pending = interrupted_cancel(manager)
    response = asyncio.run(session.send(respond=[pending.deny("Not today.")]))
    assert response.function_responses[0].response == {"status": "CANCELLED_BY_USER", "message": "Not today."}
    assert service.executed == [CANCEL], "denied: nothing more ran"


@pytest.mark.parametrize("metadata, got", [
    ({"confirmed": True}, "got the key 'confirmed'"),
    ({"approved": "yes"}, "got approved='yes'"),
    ({}, "got approved=None"),
])
def test_a_confirmation_resumed_with_another_key_is_refused_naming_the_one_it_reads(manager, service, metadata, got):
    session, pending = interrupted_cancel(manager)
    with pytest.raises(AgentError) as error:
        asyncio.run(session.send(restart=[pending.restart(resumed_metadata=metadata)]))
    assert str(error.value) == (
        f"interrupt {pending.id}: the confirmation of cancel_order reads resumed_metadata {{'approved': True or "
        f"False}}, {got}: answer it with interrupt.confirm() or interrupt.deny(), or "
        "restart(resumed_metadata={'approved': True})")
    assert service.calls == [] and session.pending_interrupts == [pending], "nothing ran; still waiting"


def test_a_prompt_while_interrupted_names_the_apis_that_answer(manager):
    session, pending = interrupted_cancel(manager)
    with pytest.raises(AgentError) as error:
        asyncio.run(session.send("hello"))
    assert str(error.value) == (
        f"session {session.session_id!r} is interrupted (interrupts {pending.id}): answer them with "
        "session.send(respond=[...], restart=[...]) (or session.resume(...) for events; a confirmation: "
        "interrupt.confirm() or interrupt.deny()), or drop them with session.cancel_pending()")


def test_default_policy_marks_cancel_but_not_fetch(manager):
    fetch, cancel = AppFunctionAgentTools.discover(manager)
    assert default_is_destructive(cancel) and not default_is_destructive(fetch)
    wrapped = require_confirmation([fetch, cancel], lambda n, a: True)
    assert wrapped[0] is fetch and isinstance(wrapped[1], HitlConfirmationTool)
    assert wrapped[1].function_id == CANCEL and wrapped[1].parameters == cancel.parameters
    # Not wrapped twice.
    assert require_confirmation(wrapped, lambda n, a: True)[1] is wrapped[1]


@pytest.mark.parametrize("policy, expected", [
    (DestructivePolicy.only([FETCH]), {"fetch_order_details"}),
    (DestructivePolicy.only(["cancel_order"]), {"cancel_order"}),
    (DestructivePolicy(verbs=()), set()),
    (DestructivePolicy(), {"cancel_order"}),
])
def test_the_policy_is_pluggable(manager, policy, expected):
    tools = AppFunctionAgentTools.discover(manager)
    assert {t.name for t in tools if policy(t)} == expected


def test_explicit_flag_and_description_marker_win():
    plain = AgentTool(name="archive_everything", description="Moves all mail to the archive.")
    marked = AgentTool(name="tidy", description="Destructive: removes old files.")
    opted_out = AgentTool(name="delete_draft", destructive=False)
    assert not default_is_destructive(plain)
    assert default_is_destructive(marked)
    assert not default_is_destructive(opted_out)
    assert default_is_destructive(AgentTool(name="deleteDraft"))


def test_a_callback_that_answers_neither_yes_nor_no_is_an_error_not_a_silent_no(manager, service):
    tools = require_confirmation(AppFunctionAgentTools.discover(manager), lambda name, args: None)
    model = ScriptedModel([tool_call("cancel_order", orderId="ORD-8492"), "Done."])
    response = asyncio.run(AgentRunner(Agent(tools=tools), model).create_session().send("Cancel ORD-8492"))
    error = response.function_responses[0].response["error"]
    assert error["message"] == ("on_confirm for cancel_order returned None, not True or False: nothing ran; return "
                                "True to run it, False to decline")
    assert service.calls == []
