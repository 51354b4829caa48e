"""The tool loop: event order, max_turns, error maps, concurrency, registration, manual loop."""

from __future__ import annotations

import asyncio
import logging

import pytest

from droid.agent import (
    Agent,
    AgentError,
    AgentRunner,
    AgentTool,
    AppFunctionAgentTools,
    FunctionCall,
    FunctionResponse,
    FunctionTool,
    MaxTurnsReached,
    ModelResponse,
    ScriptedModel,
    TextMessage,
    ToolRequest,
    ToolRequestsReturned,
    ToolResponse,
    ToolsNotSupportedError,
    tool_call,
)
from droid.agent.messages import TOOL

from .conftest import collect, run
from .fakes import FETCH
from tests.helpers import EVENT_BOUND


def fetch_agent(manager, **kwargs) -> Agent:
    return Agent(name="orders", instructions="Help with orders.",
                 tools=AppFunctionAgentTools.discover(manager, ["fetch_order_details"]), **kwargs)


def last_tool_outputs(model: ScriptedModel) -> list[dict]:
    """What the model was given as tool results on its latest turn."""
    messages = model.requests[-1].messages
    return [m.tool_response.output for m in messages if m.role == TOOL][-1:]


def test_events_stream_in_order_text_call_response_answer(manager):
    model = ScriptedModel([
        ModelResponse("Let me check.", [ToolRequest("fetch_order_details", {"orderId": "ORD-8492"})]),
        "Your order has shipped.",
    ])
    session = AgentRunner(fetch_agent(manager), model).create_session()
    events = run(session, "Where is my order ORD-8492?")

    kinds = [(type(e).__name__, getattr(e, "partial", None)) for e in events]
    assert kinds == [
        ("TextMessage", True), ("TextMessage", True), ("TextMessage", True), ("TextMessage", False),
        ("FunctionCall", None), ("FunctionResponse", None),
        ("TextMessage", True), ("TextMessage", True), ("TextMessage", True), ("TextMessage", True),
        ("TextMessage", False),
    ]
    assert [e.text for e in events[:3]] == ["Let ", "me ", "check."]
    assert events[3].text == "Let me check."
    call, response = events[4], events[5]
    assert (call.name, call.args, call.function_id) == ("fetch_order_details", {"orderId": "ORD-8492"}, FETCH)
    assert response.id == call.id and not response.is_error
    assert response.response == {"orderId": "ORD-8492", "status": "SHIPPED", "estimatedDelivery": "2025-06-03", "itemCount": 2}
    assert events[-1].text == "Your order has shipped."
    # The model saw the result of its call on the next turn.
    assert last_tool_outputs(model) == [response.response]
    assert session.status == "completed"


def test_max_turns_ends_the_run_with_a_clear_event_and_stops_calling(manager, service):
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492")] * 10)
    session = AgentRunner(fetch_agent(manager, max_turns=2), model).create_session()
    events = run(session, "Loop forever")

    assert isinstance(events[-1], MaxTurnsReached) and events[-1].max_turns == 2
    assert len(service.calls) == 2, "two rounds of tools, the third request is not executed"
    assert len(model.requests) == 3
    assert sum(isinstance(e, FunctionCall) for e in events) == 2
    # The unexecuted call is answered, so the history has no dangling call for the next prompt.
    history = session.history
    assert history[-1].role == TOOL and history[-1].tool_response.output["error"]["type"] == "MaxTurnsReached"
    assert session.status == "max_turns"


def test_unknown_order_becomes_an_error_map_for_the_model(manager):
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-0000"), "No such order."])
    session = AgentRunner(fetch_agent(manager), model).create_session()
    events = run(session, "Where is ORD-0000?")

    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert response.is_error
    assert response.response == {"error": {
        "code": 1500,
        "code_name": "ERROR_RESOURCE_NOT_FOUND",
        "type": "AppFunctionElementNotFoundException",
        "category": "ERROR_CATEGORY_REQUEST_ERROR",
        "message": "Order ORD-0000 not found",
    }}
    assert last_tool_outputs(model) == [response.response]
    assert events[-1].text == "No such order."


def test_invalid_arguments_and_unknown_tools_are_error_maps_too(manager, service):
    model = ScriptedModel([
        [tool_call("fetch_order_details", orderId=8492), tool_call("track_parcel", id="x")],
        "Sorry.",
    ])
    events = run(AgentRunner(fetch_agent(manager), model).create_session(), "?")
    bad_type, unknown = [e.response["error"] for e in events if isinstance(e, FunctionResponse)]
    assert bad_type["type"] == "AppFunctionInvalidArgumentException" and "orderId" in bad_type["message"]
    assert unknown["code_name"] == "ERROR_FUNCTION_NOT_FOUND" and "fetch_order_details" in unknown["message"]
    assert service.calls == []


def test_unexpected_tool_exception_is_fed_back_not_raised():
    def explode(city: str) -> dict:
        raise ValueError(f"no weather for {city}")

    model = ScriptedModel([tool_call("explode", city="Oslo"), "The weather tool failed."])
    agent = Agent(tools=[FunctionTool(explode)])
    events = run(AgentRunner(agent, model).create_session(), "Weather in Oslo?")
    error = next(e for e in events if isinstance(e, FunctionResponse)).response["error"]
    assert error["type"] == "ValueError"
    assert error["message"] == "no weather for Oslo"
    assert error["code_name"] == "ERROR_APP_UNKNOWN_ERROR"
    assert events[-1].text == "The weather tool failed."


def test_calls_of_one_turn_run_concurrently():
    started: list[str] = []
    both_started = asyncio.Event()

    async def wait_for_other(name: str) -> dict:
        started.append(name)
        if len(started) == 2:
            both_started.set()
        # Sequential execution would wait here forever (and hit the timeout).
        await asyncio.wait_for(both_started.wait(), timeout=EVENT_BOUND)
        return {"name": name}

    model = ScriptedModel([[tool_call("slow", name="a"), tool_call("slow", name="b")], "done"])
    events = run(AgentRunner(Agent(tools=[FunctionTool(wait_for_other, name="slow")]), model).create_session(), "go")
    responses = [e.response for e in events if isinstance(e, FunctionResponse)]
    assert responses == [{"name": "a"}, {"name": "b"}]


def test_parallel_calls_get_distinct_ids_even_when_the_model_repeats_one():
    model = ScriptedModel([[tool_call("echo", text="a", call_id="call_1"), tool_call("echo", text="b", call_id="call_1")], "ok"])
    agent = Agent(tools=[FunctionTool(lambda text: {"text": text}, name="echo")])
    events = run(AgentRunner(agent, model).create_session(), "go")
    calls = [e for e in events if isinstance(e, FunctionCall)]
    assert len({c.id for c in calls}) == 2
    assert [e.id for e in events if isinstance(e, FunctionResponse)] == [c.id for c in calls]


def test_duplicate_registration_warns_and_declares_each_function_once(manager, caplog):
    explicit = AppFunctionAgentTools.discover(manager)
    agent = Agent(tools=explicit, app_functions_enabled=True)
    model = ScriptedModel(["hello"])
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        run(AgentRunner(agent, model, app_function_manager=manager).create_session(), "hi")
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert FETCH in warnings[0].getMessage() and "registered twice" in warnings[0].getMessage()
    declared = [t.name for t in model.requests[0].tools]
    assert sorted(declared) == ["cancel_order", "fetch_order_details"]


def test_no_warning_without_duplicates(manager, caplog):
    agent = Agent(app_functions_enabled=True, app_function_ids=["fetch_order_details"])
    model = ScriptedModel(["hello"])
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        run(AgentRunner(agent, model, app_function_manager=manager).create_session(), "hi")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [t.name for t in model.requests[0].tools] == ["fetch_order_details"]


def test_tools_given_to_a_model_without_tool_support_is_a_clear_error(manager):
    model = ScriptedModel(["hi"], name="tiny", supports_tools=False)
    with pytest.raises(ToolsNotSupportedError, match="'tiny' does not support tool use"):
        AgentRunner(fetch_agent(manager), model)
    # Without tools the same model is fine.
    assert run(AgentRunner(Agent(), model).create_session(), "hi")[-1].text == "hi"


def test_return_tool_requests_is_a_manual_loop(manager, service):
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492"), "It shipped."])
    session = AgentRunner(fetch_agent(manager), model).create_session()
    events = run(session, "Where is ORD-8492?", return_tool_requests=True)

    assert isinstance(events[-1], ToolRequestsReturned)
    assert service.calls == [], "nothing runs in a manual loop"
    (request,) = events[-1].requests
    with pytest.raises(AgentError, match="tool requests are pending"):
        run(session, "something else")

    response = asyncio.run(session.execute_tool_request(request))
    assert response.output["status"] == "SHIPPED"
    events = run(session, tool_responses=[ToolResponse(request.id, request.name, {"status": "LOST"})])
    assert isinstance(events[0], FunctionResponse) and events[0].response == {"status": "LOST"}
    assert events[-1].text == "It shipped."
    assert last_tool_outputs(model) == [{"status": "LOST"}]


def test_model_arguments_that_are_not_json_become_an_invalid_argument_error(manager, service):
    bad = ToolRequest("fetch_order_details", {}, "", "arguments are not valid JSON: {orderId")
    model = ScriptedModel([bad, "sorry"])
    events = run(AgentRunner(fetch_agent(manager), model).create_session(), "?")
    error = next(e for e in events if isinstance(e, FunctionResponse)).response["error"]
    assert error["code_name"] == "ERROR_INVALID_ARGUMENT"
    assert service.calls == []


def test_a_delegating_tool_wraps_without_redeclaring(manager, service):
    class Audited(AgentTool):
        seen: list = []

        async def execute(self, args):
            Audited.seen.append(args)
            return await self.delegate.execute(args)

    (fetch,) = AppFunctionAgentTools.discover(manager, [FETCH])
    audited = Audited(fetch)
    assert (audited.name, audited.parameters, audited.function_id) == (fetch.name, fetch.parameters, FETCH)
    model = ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492"), "ok"])
    run(AgentRunner(Agent(tools=[audited]), model).create_session(), "?")
    assert Audited.seen == [{"orderId": "ORD-8492"}] and service.executed == [FETCH]


def test_history_carries_over_between_prompts(manager):
    model = ScriptedModel(["first answer", lambda request: f"I have seen {len(request.messages)} messages"])
    session = AgentRunner(Agent(), model).create_session()
    run(session, "one")
    events = run(session, "two")
    assert events[-1].text == "I have seen 3 messages"


def test_a_second_run_while_one_is_active_is_refused():
    async def scenario():
        gate = asyncio.Event()

        async def wait() -> dict:
            await gate.wait()
            return {}

        model = ScriptedModel([tool_call("wait"), "done"])
        session = AgentRunner(Agent(tools=[FunctionTool(wait)]), model).create_session()
        events = session.run("go")
        first = await events.__anext__()
        assert isinstance(first, FunctionCall)
        with pytest.raises(AgentError, match="is running"):
            async for _ in session.run("again"):
                pass
        gate.set()
        rest = [e async for e in events]
        return rest

    rest = asyncio.run(scenario())
    assert isinstance(rest[-1], TextMessage) and rest[-1].text == "done"


def test_collect_helper_and_event_json():
    model = ScriptedModel([tool_call("echo", text="a"), "ok"])
    agent = Agent(tools=[FunctionTool(lambda text: {"text": text}, name="echo")])
    events = collect(AgentRunner(agent, model).create_session().run("go"))
    as_json = [e.to_dict() for e in events]
    assert as_json[0] == {"type": "function_call", "id": events[0].id, "name": "echo", "args": {"text": "a"}}
    assert as_json[1]["type"] == "function_response" and as_json[1]["is_error"] is False
    assert as_json[-1] == {"type": "text", "text": "ok", "partial": False}


def test_delete_cancels_an_active_run_and_its_calls(tmp_path):
    async def scenario():
        cancelled = asyncio.Event()

        async def hang() -> dict:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return {}

        runner = AgentRunner(Agent(tools=[FunctionTool(hang)]), ScriptedModel([tool_call("hang"), "never"]),
                             session_dir=tmp_path)
        session = runner.create_session("s")

        async def consume():
            return [e async for e in session.run("go")]

        task = asyncio.create_task(consume())
        while not session.is_running or not session.history:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        session.delete()
        with pytest.raises(asyncio.CancelledError):
            await task
        return cancelled.is_set(), runner.list_sessions()

    was_cancelled, stored = asyncio.run(scenario())
    assert was_cancelled, "the tool call was cancelled with the run"
    assert stored == [], "a deleted session is not written back"


def test_function_tool_schema_comes_from_the_signature():
    def book(city: str, nights: int = 1, late_checkout: bool = False) -> dict:
        """Books a hotel."""
        return {}

    tool = FunctionTool(book)
    assert tool.description == "Books a hotel."
    assert tool.parameters["required"] == ["city"]
    assert tool.parameters["properties"]["nights"] == {"type": "integer", "default": 1}
