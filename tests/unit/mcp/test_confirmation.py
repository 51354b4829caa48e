"""The 2026-07-28 confirmation round: only an answer to the question this server asked, for
exactly the arguments it showed, lets a destructive call run."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import mcp_types as types
import pytest

from sim.mcp.confirmation import ANSWER_KEY, Confirmation
from sim.mcp.modes import ALWAYS_ALLOW, ELICIT, NEVER

SHAPE = SimpleNamespace(name="cancel_order", function_id="Orders#cancel_order")
ARGS = {"orderId": "ORD-5117"}


def context(elicitation: bool = True, version: str = "2026-07-28"):
    capabilities = types.ClientCapabilities(elicitation=types.ElicitationCapability() if elicitation else None)
    return SimpleNamespace(session=SimpleNamespace(client_capabilities=capabilities), protocol_version=version)


def call(args=ARGS, state=None, answer=None):
    responses = None if answer is None else {ANSWER_KEY: answer}
    return types.CallToolRequestParams(name="cancel_order", arguments=args, request_state=state, input_responses=responses)


def decide(confirmation, ctx, params):
    return asyncio.run(confirmation.decide(ctx, SHAPE, dict(params.arguments), params))


YES = types.ElicitResult(action="accept", content={ANSWER_KEY: True})


def test_the_first_round_asks_and_an_approving_retry_runs():
    confirmation = Confirmation(ELICIT)
    asked = decide(confirmation, context(), call())
    assert isinstance(asked, types.InputRequiredResult)
    question = asked.input_requests[ANSWER_KEY].params
    assert "cancel_order" in question.message and "ORD-5117" in question.message
    assert decide(confirmation, context(), call(state=asked.request_state, answer=YES)) is True


@pytest.mark.parametrize("answer", [
    types.ElicitResult(action="decline"),
    types.ElicitResult(action="cancel"),
    types.ElicitResult(action="accept", content={ANSWER_KEY: False}),
    types.ElicitResult(action="accept", content={"username": "x"}),
])
def test_anything_but_an_explicit_yes_refuses(answer):
    confirmation = Confirmation(ELICIT)
    state = decide(confirmation, context(), call()).request_state
    assert decide(confirmation, context(), call(state=state, answer=answer)) is False


def test_an_answer_never_asked_for_or_for_other_arguments_refuses():
    confirmation = Confirmation(ELICIT)
    state = decide(confirmation, context(), call()).request_state
    assert decide(confirmation, context(), call(state="made-up", answer=YES)) is False
    assert decide(confirmation, context(), call(args={"orderId": "ORD-8492"}, state=state, answer=YES)) is False
    assert decide(Confirmation(ELICIT), context(), call(state=state, answer=YES)) is False  # another server's


def test_a_client_that_cannot_ask_is_refused_and_the_modes_override_asking():
    assert decide(Confirmation(ELICIT), context(elicitation=False), call()) is False
    assert decide(Confirmation(NEVER), context(), call()) is False
    assert decide(Confirmation(ALWAYS_ALLOW), context(elicitation=False), call()) is True
    with pytest.raises(ValueError, match="elicit, never, always-allow"):
        Confirmation("sometimes")


def test_a_refusal_says_who_said_no_or_why_nobody_was_asked():
    assert Confirmation(ELICIT).refusal_message(context()) == "Action was declined by the user."
    assert Confirmation(ELICIT).refusal_message(context(elicitation=False)) == (
        "Not run: this MCP client cannot ask its user (it declares no elicitation capability); use a client that "
        "supports elicitation, or start the bridge with --confirm always-allow to run destructive calls unasked.")
    assert Confirmation(NEVER).refusal_message(context()) == (
        "Not run: this bridge refuses every destructive call (droidsim mcp --confirm never).")
