"""ML Kit and Genkit parity: Agent.builder(), max_turns counted exactly, per-run tools,
define_interrupt, and stream chunks that carry tool requests."""

from __future__ import annotations

import asyncio

import pytest

from droid.agent import (
    Agent,
    AgentChunk,
    AgentError,
    AgentRunner,
    AppFunctionAgentTools,
    FunctionCall,
    FunctionResponse,
    FunctionTool,
    Interrupted,
    MaxTurnsReached,
    ScriptedModel,
    ToolResponse,
    define_interrupt,
    tool_call,
)

from .conftest import collect, run
from .fakes import FETCH


def test_builder_builds_the_same_agent_as_the_constructor(manager):
    tools = AppFunctionAgentTools.discover(manager)
    built = (Agent.builder().set_name("OrderAssistant").set_instructions("Assist users with orders.")
             .add_tools(*tools).add_app_function_ids("fetch_order_details").set_max_turns(3).build())
    assert built == Agent(name="OrderAssistant", instructions="Assist users with orders.", tools=tools,
                          max_turns=3, app_functions_enabled=True, app_function_ids=["fetch_order_details"])
    assert Agent.builder().enable_app_functions().build().app_functions_enabled
    with pytest.raises(ValueError, match="max_turns must be at least 1"):
        Agent.builder().set_max_turns(0).build()
    with pytest.raises(TypeError, match="AgentTool instances"):
        Agent.builder().add_tools(lambda: None).build()


@pytest.mark.parametrize("max_turns", [1, 2, 5])
def test_max_turns_allows_that_many_tool_rounds_and_one_more_model_call(manager, service, max_turns):
    call = tool_call("fetch_order_details", orderId="ORD-8492")
    model = ScriptedModel([call] * (max_turns + 1))
    agent = Agent(tools=AppFunctionAgentTools.discover(manager), max_turns=max_turns)
    events = run(AgentRunner(agent, model).create_session(), "loop")
    assert len(model.requests) == max_turns + 1, "the docstring's count: max_turns + 1 model calls"
    assert service.executed == [FETCH] * max_turns, "max_turns rounds of calls ran"
    assert isinstance(events[-1], MaxTurnsReached) and events[-1].max_turns == max_turns
    assert "``max_turns + 1`` times" in Agent.__doc__


def test_tools_per_run_are_declared_for_that_run_only(manager):
    def get_time(city: str) -> dict:
        """Gets the local time in a city."""
        return {"city": city, "time": "10:00"}

    extra = FunctionTool(get_time)
    model = ScriptedModel([tool_call("get_time", city="Paris"), "It is 10:00.", "hello"])
    session = AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)), model).create_session()
    events = run(session, "time in Paris?", tools=[extra])
    assert next(e for e in events if isinstance(e, FunctionResponse)).response == {"city": "Paris", "time": "10:00"}
    assert "get_time" in [t.name for t in model.requests[0].tools]
    run(session, "hi")
    assert "get_time" not in [t.name for t in model.requests[2].tools]
    with pytest.raises(AgentError, match="two tools are named 'fetch_order_details'"):
        run(session, "x", tools=AppFunctionAgentTools.discover(manager))


def test_define_interrupt_pauses_and_the_answer_reaches_the_model():
    ask = define_interrupt("ask_user", "Ask the user a question.",
                           {"type": "object", "properties": {"question": {"type": "string"}}},
                           request_metadata={"kind": "question"})
    model = ScriptedModel([tool_call("ask_user", question="Which size?"), lambda r: f"got {r.messages[-1].tool_response.output}"])
    session = AgentRunner(Agent(tools=[ask]), model).create_session()
    events = run(session, "order a shirt")
    (interrupt,) = events[-1].interrupts
    assert isinstance(events[-1], Interrupted)
    assert interrupt.metadata == {"question": "Which size?", "kind": "question"}
    events = collect(session.resume(respond=[interrupt.respond({"answer": "M"})]))
    assert events[-1].text == "got {'answer': 'M'}"
    # Restarted instead, the resumed metadata is the answer.
    model.add(tool_call("ask_user", question="Colour?"), lambda r: f"got {r.messages[-1].tool_response.output}")
    (interrupt,) = run(session, "and the colour")[-1].interrupts
    events = collect(session.resume(restart=[interrupt.restart(resumed_metadata={"answer": "blue"})]))
    assert events[-1].text == "got {'answer': 'blue'}"


def test_stream_chunks_carry_text_and_tool_requests_by_message(manager):
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492"), "It has shipped."])
    session = AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)), model).create_session()
    chunks: list[AgentChunk] = collect(session.stream("where is ORD-8492?"))
    requests = [c for c in chunks if c.tool_requests]
    assert [(c.index, c.role, c.tool_requests[0].name, c.tool_requests[0].args) for c in requests] == [
        (0, "model", "fetch_order_details", {"orderId": "ORD-8492"})
    ]
    responses = [c for c in chunks if c.tool_responses]
    assert [(c.index, c.role, c.tool_responses[0].output["status"]) for c in responses] == [(1, "tool", "SHIPPED")]
    text = [c for c in chunks if c.text]
    assert {c.index for c in text} == {2} and text[-1].accumulated_text == "It has shipped."
    assert isinstance(requests[0].event, FunctionCall)


def test_a_tool_choice_that_names_nothing_is_refused_before_the_model_is_called(manager):
    model = ScriptedModel(["hi"])
    session = AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)), model).create_session()
    with pytest.raises(AgentError, match="tool_choice 'sometimes' is neither one of auto, none, required nor a tool"):
        run(session, "hi", tool_choice="sometimes")
    assert model.requests == [] and session.history == []
    assert run(session, "hi", tool_choice="fetch_order_details")[-1].text == "hi"


def manual_loop(manager):
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492"), "It is lost."])
    session = AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)), model).create_session()
    (request,) = asyncio.run(session.send("Where is ORD-8492?", return_tool_requests=True)).tool_requests
    return session, request


@pytest.mark.parametrize("shape", ["ToolResponse", "respond", "genkit", "genkit part", "to_dict"])
def test_a_manual_loop_takes_genkits_tool_response_shape_and_its_own(manager, shape):
    session, request = manual_loop(manager)
    assert (request.ref, request.input) == (request.id, {"orderId": "ORD-8492"})  # Genkit's names
    output = {"status": "LOST"}
    answer = {
        "ToolResponse": ToolResponse(request.id, request.name, output),
        "respond": request.respond(output),
        "genkit": {"name": request.name, "ref": request.ref, "output": output},
        "genkit part": {"toolResponse": {"name": request.name, "ref": request.ref, "output": output}},
        "to_dict": ToolResponse(request.id, request.name, output).to_dict(),
    }[shape]
    response = asyncio.run(session.send(tool_responses=[answer]))
    assert response.text == "It is lost."
    assert [m.role for m in response.messages] == ["user", "assistant", "tool", "assistant"]
    assert response.messages[2].tool_response.output == output and response.messages[-1].text == "It is lost."


def test_a_tool_response_of_another_shape_is_refused_showing_the_right_one(manager):
    session, request = manual_loop(manager)
    for wrong in ({"id": request.id, "result": {}}, {"ref": request.id, "output": {}}, "LOST"):
        with pytest.raises(AgentError) as error:
            asyncio.run(session.send(tool_responses=[wrong]))
        assert str(error.value).startswith(
            "a tool response is ToolResponse(id, name, output), or Genkit's {'name': ..., 'ref': ..., 'output': ...} "
            "(also as {'toolResponse': {...}}), with the id (ref) and name of the ToolRequest it answers; got ")
    with pytest.raises(AgentError, match=rf"tool response {request.id} is named 'cancel_order', but request "
                                         rf"{request.id} called 'fetch_order_details'"):
        asyncio.run(session.send(tool_responses=[{"name": "cancel_order", "ref": request.id, "output": {}}]))
    assert session.pending_tool_requests == [request], "still waiting for its answer"


def test_agent_response_messages_is_the_conversation_after_the_run(manager):
    model = ScriptedModel(["Hello.", "Again."])
    session = AgentRunner(Agent(), model).create_session()
    asyncio.run(session.send("hi"))
    second = asyncio.run(session.send("once more"))
    assert [(m.role, m.text) for m in second.messages] == [
        ("user", "hi"), ("assistant", "Hello."), ("user", "once more"), ("assistant", "Again.")]
    assert second.to_dict()["messages"][-1] == {"role": "assistant", "text": "Again."}
