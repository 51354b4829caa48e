"""The user simulator and the assertion judge against a real chat-completions server in its own
process (tests/unit/agent/chat_server.py: an ``[answers] [...]`` list plays a scripted party)."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from droid.agent.errors import ModelError
from sim.eval.assertion_judge import AssertionJudge
from sim.eval.models import server_down
from sim.eval.user_simulator import (OUT_OF_SCOPE, STOP, TRANSFER, ModelUser, ScriptedUser, UserModelError,
                                     ending_of)
from tests.unit.agent.chat_server import received, running


@pytest.fixture(scope="module")
def server():
    with running() as url:
        yield url


def _reply(user, said, transferred=False):
    return asyncio.run(user.reply(said, transferred))


def test_the_user_model_plays_its_scenario_and_ends_with_a_stop_signal(server) -> None:
    before = len(received(server))
    scenario = 'You want to cancel order #W1. [answers] ["Hi, please cancel my order #W1.", "Yes.", "###STOP###"]'

    async def talk():
        user = ModelUser("openai:user-sim", scenario, f"{server}/v1", "test-key")
        said = [await user.reply("Hi! How can I help you today?"), await user.reply("Shall I cancel it?"),
                await user.reply("It is cancelled.")]
        await user.aclose()
        return said

    said = asyncio.run(talk())
    assert said == ["Hi, please cancel my order #W1.", "Yes.", STOP]
    assert [ending_of(text) for text in said] == [None, None, "user_stop"]
    bodies = [r["body"] for r in received(server)[before:]]
    assert all(b["model"] == "user-sim" and b["temperature"] == 0.0 and not b.get("stream") for b in bodies)
    system = bodies[0]["messages"][0]
    assert system["role"] == "system" and "<scenario>\nYou want to cancel order #W1." in system["content"]
    assert all(signal in system["content"] for signal in (STOP, TRANSFER, OUT_OF_SCOPE))
    # The agent speaks as the other party, the user's own turns as its own.
    assert [(m["role"], m["content"]) for m in bodies[2]["messages"][1:]] == [
        ("user", "Hi! How can I help you today?"), ("assistant", "Hi, please cancel my order #W1."),
        ("user", "Shall I cancel it?"), ("assistant", "Yes."), ("user", "It is cancelled.")]


def test_a_user_model_that_fails_is_named(server) -> None:
    user = ModelUser("openai:user-sim", "You want a refund.", f"{server}/v1", "test-key")
    with pytest.raises(UserModelError, match=r"^the user model openai:user-sim: .*HTTP 500") as failed:
        _reply(user, "[fail 500]")
    assert not server_down(failed.value)  # one trial's infrastructure error; the run goes on


def test_a_user_model_nobody_serves_stops_the_run_naming_it() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    user = ModelUser("openai:user-sim", "You want a refund.", f"http://127.0.0.1:{port}/v1", "test-key")
    with pytest.raises(UserModelError, match=r"^the user model openai:user-sim: cannot reach") as failed:
        _reply(user, "Hi! How can I help you today?")
    assert server_down(failed.value)


def test_the_scripted_user_says_its_turns_then_stops_and_hears_a_transfer() -> None:
    user = ScriptedUser(["Cancel #W1, please.", "Yes."])
    assert [_reply(user, "..."), _reply(user, "..."), _reply(user, "...")] == ["Cancel #W1, please.", "Yes.", STOP]
    assert _reply(ScriptedUser(["Help."]), "You are being transferred.", transferred=True) == TRANSFER
    assert [ending_of(s) for s in (STOP, TRANSFER, f"ok {OUT_OF_SCOPE}")] == ["user_stop", "transfer", "out_of_scope"]


def test_the_judge_reads_the_conversation_and_says_each_assertion(server) -> None:
    verdict = json.dumps({"results": [{"statement": 1, "met": True, "reason": "it refused"},
                                      {"statement": 2, "met": False, "reason": "no refund was offered"}]})
    assertions = [f"Agent should refuse to cancel. [answers] {json.dumps([verdict])}", "Agent should offer a refund."]
    conversation = [("customer", "Cancel EHGLP3."), ("agent calls", "get_reservation_details {} -> {}"),
                    ("agent", "I cannot cancel it.")]

    async def judge():
        judge = AssertionJudge("openai:judge", f"{server}/v1", "test-key")
        try:
            return await judge.judge(conversation, assertions)
        finally:
            await judge.aclose()

    before = len(received(server))
    results = asyncio.run(judge())
    assert [(r["met"], r["reason"]) for r in results] == [(True, "it refused"), (False, "no refund was offered")]
    [body] = [r["body"] for r in received(server)[before:]]
    prompt = body["messages"][-1]["content"]
    assert "customer: Cancel EHGLP3.\nagent calls: get_reservation_details" in prompt
    assert "1. Agent should refuse to cancel." in prompt and "2. Agent should offer a refund." in prompt


def test_a_judge_that_leaves_an_assertion_out_is_no_verdict(server) -> None:
    partial = json.dumps({"results": [{"statement": 1, "met": True, "reason": "ok"}]})

    async def judge():
        judge = AssertionJudge("openai:judge", f"{server}/v1", "test-key")
        try:
            return await judge.judge([("agent", "Hi")], [f"A. [answers] {json.dumps([partial])}", "B."])
        finally:
            await judge.aclose()

    with pytest.raises(ModelError, match=r"judge openai:judge did not answer .* for statement\(s\) 2"):
        asyncio.run(judge())
