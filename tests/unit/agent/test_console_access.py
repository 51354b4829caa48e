"""What ``droidsim agent`` says when the app may call nothing, or a call went unanswered, and
how it exits (issue 36, and issue 34's CI step); and that it runs an app's own agent."""

from __future__ import annotations

import json

from droid.agent import Agent, FunctionTool, HitlConfirmationTool
from droid.appfunctions import access_fixes
from droid.appfunctions.exceptions import AppFunctionNotSupportedException
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_DENIED

from .conftest import console
from .fakes import FETCH, ORDERS

AGENT = "com.example.assistant"


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_one_prompt_with_no_function_in_reach_warns_with_the_fix_and_exits_1(context, service):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_DENIED
    code, out, err = console(context, "Where is my order ORD-8492?", json_output=True)
    assert code == 1
    assert lines(out) == [
        {"type": "warning", "message": access_fixes.not_granted(AGENT, ORDERS)},
        {"type": "error", "message": f"{AGENT} may call no app function, of its own or of another app: fix its access as said above"},
    ]
    assert f"warning: {access_fixes.not_granted(AGENT, ORDERS)}" in err
    assert service.calls == [], "nothing ran"


def test_a_chat_with_no_function_in_reach_warns_and_carries_on(context, service):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_DENIED
    code, out, err = console(context, None, stdin="hello\n/exit\n")
    assert code == 0
    assert "grant-app-function-access --agent-package com.example.assistant --target-package com.example.orders" in err


def test_what_the_app_lacks_is_said_once_per_session_naming_each_package(context, service, tmp_path):
    service.access_states[ORDERS] = ACCESS_REQUEST_STATE_DENIED
    stored = {"session_dir": tmp_path, "session_id": "kept"}
    _, _, first = console(context, None, stdin="hello\n/exit\n", **stored)
    assert f"warning: {access_fixes.not_granted(AGENT, ORDERS)}" in first and "--target-package APP" not in first
    _, _, again = console(context, None, stdin="hello again\n/exit\n", **stored)
    assert "warning:" not in again, "a conversation continued has heard it"
    _, _, other = console(context, None, stdin="hi\n/exit\n", session_dir=tmp_path, session_id="new")
    assert f"warning: {access_fixes.not_granted(AGENT, ORDERS)}" in other


def test_an_agent_without_the_permission_is_told_how_to_get_it(context, service):
    context.package_service.held = set()
    service.packages = []  # as the device's search: no other app's function without the permission
    code, out, _ = console(context, "Where is my order ORD-8492?", json_output=True)
    assert code == 1
    assert lines(out)[0] == {"type": "warning", "message": access_fixes.missing_permission(AGENT, requested=False)}


def test_a_call_refused_for_want_of_an_answer_fails_a_json_run(context, service):
    def unanswered(parameters):
        raise AppFunctionNotSupportedException(f"{ORDERS} has no answer for {FETCH} with parameters {{}}")

    service.handlers[FETCH] = unanswered
    code, out, _ = console(context, "Where is my order ORD-8492?", json_output=True)
    assert code == 1
    assert lines(out)[-1] == {"type": "error", "message": (
        "1 call(s) were refused for want of an answer (ERROR_NOT_SUPPORTED: fetch_order_details): the app's own "
        "code does not run on droidsim; give it a cassette or a double that answers them (docs/responses.md)")}
    code, out, err = console(context, "Where is my order ORD-8492?")
    assert code == 0 and "warning: 1 call(s) were refused for want of an answer" in err


def test_the_apps_own_agent_runs_as_built_with_its_tools_and_confirmations(context, service):
    asked = []

    def loyalty_points(customerId: str) -> dict:
        """Looks up a customer's loyalty points.

        Args:
            customerId: The customer's id (for example, CUS-1234).
        """
        return {"customerId": customerId, "points": 120}

    agent = Agent(name="ShopHelper", instructions="Help shoppers.", max_turns=2, app_functions_enabled=True,
                  app_function_ids=["fetch_order_details"],
                  tools=[HitlConfirmationTool(FunctionTool(loyalty_points), lambda n, a: asked.append(a) or True)])
    code, out, _ = console(context, "Where is my order ORD-8492?", agent=agent, json_output=True)
    assert code == 0
    calls = [e for e in lines(out) if e["type"] == "function_call"]
    assert [c["name"] for c in calls] == ["fetch_order_details"] and service.executed == [FETCH]
    code, out, err = console(context, "How many loyalty points does customer CUS-7710 have?", agent=agent,
                             json_output=True)
    answered = [e for e in lines(out) if e["type"] == "function_response"]
    assert answered and answered[0]["response"] == {"customerId": "CUS-7710", "points": 120}
    assert asked == [{"customerId": "CUS-7710"}], "the app's own confirmation ran"
    assert "[y/N]" not in err, "the console asked nothing of its own"
