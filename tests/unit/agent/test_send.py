"""One call for one answer (issue 36): ``await session.send(prompt)`` returns an AgentResponse
as Genkit's generate() and chat.send() do; misuse and the two stops a user cannot see coming
(max_turns, a model server that is down) say what to check."""

from __future__ import annotations

import asyncio
import socket

import pytest

from droid.agent import (
    Agent,
    ModelResponse,
    AgentError,
    AgentResponse,
    AgentRunner,
    FunctionTool,
    Interrupt,
    ModelError,
    OpenAICompatibleModel,
    ScriptedModel,
    current_tool_context,
    tool_call,
)


def echo(text: str) -> dict:
    return {"text": text}


def ask(question: str) -> dict:
    context = current_tool_context()
    if context.resumed:
        return context.resumed_metadata
    raise Interrupt({"question": question})


def session_of(*script, tools=(FunctionTool(echo),), max_turns: int = 5):
    return AgentRunner(Agent(tools=list(tools), max_turns=max_turns), ScriptedModel(list(script))).create_session()


def test_send_returns_the_answer_the_calls_and_the_events():
    session = session_of(ModelResponse("Looking.", [tool_call("echo", text="hi")]), "It said hi.")
    response = asyncio.run(session.send("Say hi"))
    assert isinstance(response, AgentResponse)
    assert (response.text, response.finish_reason, response.finish_message) == ("It said hi.", "stop", "")
    assert [c.name for c in response.function_calls] == ["echo"]
    assert [r.response for r in response.function_responses] == [{"text": "hi"}]
    assert response.events[-1].text == "It said hi."
    assert {"type": "text", "text": "Looking.", "partial": False} in response.to_dict()["events"]


def test_an_interrupted_send_is_answered_by_the_next_send():
    session = session_of(tool_call("ask", question="Size?"), "Size M it is.", tools=[FunctionTool(ask)])

    async def scenario():
        first = await session.send("Order a shirt")
        assert first.finish_reason == "interrupted" and first.text == ""
        (pending,) = first.interrupts
        assert pending.metadata == {"question": "Size?"}
        with pytest.raises(AgentError, match="in a call of its own"):
            await session.send("and socks", respond=[pending.respond({"size": "M"})])
        return await session.send(restart=[pending.restart(resumed_metadata={"size": "M"})])

    second = asyncio.run(scenario())
    assert (second.text, second.finish_reason) == ("Size M it is.", "stop")
    assert second.function_responses[0].response == {"size": "M"}


def test_a_manual_loop_send_returns_the_tool_requests():
    session = session_of(tool_call("echo", text="x"), "done")
    response = asyncio.run(session.send("go", return_tool_requests=True))
    assert response.finish_reason == "stop"
    assert [(r.name, r.args) for r in response.tool_requests] == [("echo", {"text": "x"})]


def test_max_turns_says_what_was_still_wanted_and_what_to_check():
    session = session_of(tool_call("echo", text="1"), tool_call("echo", text="2"), max_turns=1)
    response = asyncio.run(session.send("loop"))
    assert response.finish_reason == "max_turns"
    assert response.finish_message.startswith("the agent reached max_turns (1) for this prompt (it still asked for echo)")
    assert "Agent(max_turns=N)" in response.finish_message
    assert response.events[-1].to_dict()["message"] == response.finish_message


@pytest.mark.parametrize("method", ["run", "resume", "stream"])
def test_awaiting_a_stream_says_to_iterate_it_or_to_send(method):
    session = session_of("hi")

    async def misuse():
        await getattr(session, method)()

    with pytest.raises(AgentError, match=rf"session.{method}\(\) streams events and cannot be awaited: iterate it "
                                         rf"\(`async for event in session.{method}\(...\)`\), or `await session.send"):
        asyncio.run(misuse())


def test_a_model_server_that_is_down_is_named_with_what_to_check():
    with socket.socket() as probe:  # a port nobody listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
        model = OpenAICompatibleModel("qwen", base_url=url, api_key="unused", max_retries=0, connect_timeout=5)
        session = AgentRunner(Agent(), model).create_session()
        with pytest.raises(ModelError) as raised:
            asyncio.run(session.send("hi"))
    assert str(raised.value).startswith(f"cannot reach {url} for model qwen: ")
    assert str(raised.value).endswith("Is the model server running, and is that its address? "
                                      "(base_url=, droidsim --base-url, OPENAI_BASE_URL)")
