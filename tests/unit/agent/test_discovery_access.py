"""discover takes one id or many and says why an id found nothing (issue 36); given the agent's
Context it offers only what the agent may call, and says what keeps it from the rest."""

from __future__ import annotations

import logging

from droid.agent import AppFunctionAgentTools
from droid.appfunctions import access_fixes
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_DENIED, ACCESS_REQUEST_STATE_UNREQUESTABLE

from .fakes import FETCH, ORDERS

AGENT = "com.example.assistant"


def names(tools) -> list[str]:
    return [t.name for t in tools]


def test_a_bare_string_is_one_id_not_its_characters(context, caplog):
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        tools = AppFunctionAgentTools.discover(context, "fetch_order_details")
    assert names(tools) == ["fetch_order_details"] and tools[0].function_id == FETCH
    assert caplog.records == []
    assert names(AppFunctionAgentTools.discover(context, [FETCH, "cancel_order"])) == ["fetch_order_details", "cancel_order"]


def test_a_typo_names_the_closest_id(context, caplog):
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        assert AppFunctionAgentTools.discover(context, "fetch_order_detail") == []
    assert caplog.messages == ["AppFunction id 'fetch_order_detail' matches no function visible to this app; "
                               "did you mean 'fetch_order_details'?"]


def test_only_what_the_agent_may_call_is_offered_and_the_rest_says_why(context, service, caplog):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_DENIED
    assert AppFunctionAgentTools.discover(context) == []
    listed = AppFunctionAgentTools.discover(context, include_ungranted=True)
    assert names(listed) == ["fetch_order_details", "cancel_order"]
    assert {t.access_problem for t in listed} == {access_fixes.not_granted(AGENT, ORDERS)}
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        AppFunctionAgentTools.discover(context, "fetch_order_details")
    assert caplog.messages == [f"AppFunction id 'fetch_order_details' is {FETCH}, which this app may not call: "
                               f"{access_fixes.not_granted(AGENT, ORDERS)}"]


def test_an_agent_off_the_allowlist_is_told_to_join_it(context, service):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_UNREQUESTABLE
    [tool, _] = AppFunctionAgentTools.discover(context, include_ungranted=True)
    assert tool.access_problem == access_fixes.not_allowlisted(AGENT, ORDERS)
    assert "droidsim access agents add com.example.assistant" in tool.access_problem


def test_a_bare_manager_cannot_say_who_it_is_and_gets_everything_it_sees(manager, service):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_DENIED
    tools = AppFunctionAgentTools.discover(manager)
    assert names(tools) == ["fetch_order_details", "cancel_order"]
    assert {t.access_problem for t in tools} == {None}
