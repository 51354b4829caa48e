"""Genkit-style interrupts: pause, end interrupted, resume each interrupt by its own id."""

from __future__ import annotations

import pytest

from droid.agent import (
    Agent,
    AgentError,
    AgentRunner,
    AgentTool,
    FunctionCall,
    FunctionResponse,
    FunctionTool,
    Interrupt,
    Interrupted,
    InterruptRestart,
    ScriptedModel,
    TextMessage,
    current_tool_context,
    tool_call,
)
from droid.agent.messages import TOOL

from .conftest import collect, run


class AskUser(AgentTool):
    """Pauses the first time; after a restart, returns what the caller put in resumed metadata."""

    def __init__(self) -> None:
        super().__init__(name="ask_user", description="Ask the user a question.",
                         parameters={"type": "object", "properties": {"question": {"type": "string"}}})
        self.runs: list[tuple[str, bool]] = []

    async def execute(self, args):
        context = current_tool_context()
        self.runs.append((args["question"], context.resumed))
        if not context.resumed:
            raise Interrupt({"question": args["question"]})
        return {"answer": context.resumed_metadata["answer"], "question": args["question"]}


def tool_outputs(model: ScriptedModel) -> dict[str, dict]:
    return {m.tool_response.id: m.tool_response.output for m in model.requests[-1].messages if m.role == TOOL}


def two_interrupts_session(tmp_path=None, model=None):
    tool = AskUser()
    model = model or ScriptedModel([
        # Same model-side id on purpose: interrupts must still be addressable one by one.
        [tool_call("ask_user", question="size?", call_id="c"), tool_call("ask_user", question="colour?", call_id="c"),
         tool_call("echo", text="done in parallel")],
        "Thanks, ordering.",
    ])
    from droid.agent import FunctionTool

    agent = Agent(tools=[tool, FunctionTool(lambda text: {"text": text}, name="echo")])
    runner = AgentRunner(agent, model, session_dir=tmp_path)
    return runner, runner.create_session("s1"), tool, model


def test_two_parallel_interrupts_are_resumed_independently():
    runner, session, tool, model = two_interrupts_session()
    events = run(session, "Buy me a shirt")

    assert isinstance(events[-1], Interrupted)
    size, colour = events[-1].interrupts
    assert size.id != colour.id
    assert (size.metadata, colour.metadata) == ({"question": "size?"}, {"question": "colour?"})
    # The non-interrupting call of the same turn completed and was reported.
    echoed = [e for e in events if isinstance(e, FunctionResponse)]
    assert [e.response for e in echoed] == [{"text": "done in parallel"}]
    assert session.status == "interrupted" and len(session.pending_interrupts) == 2
    with pytest.raises(AgentError, match="interrupted"):
        run(session, "another prompt")

    # Answer one directly and restart the other with metadata, in the opposite order.
    events = collect(session.resume(
        respond=[colour.respond({"answer": "blue"})],
        restart=[size.restart(resumed_metadata={"answer": "M"})],
    ))
    responses = {e.id: e.response for e in events if isinstance(e, FunctionResponse)}
    assert responses[colour.id] == {"answer": "blue"}
    assert responses[size.id] == {"answer": "M", "question": "size?"}
    assert [(c.id, c.name) for c in events if isinstance(c, FunctionCall)] == [(size.id, "ask_user")]
    assert tool.runs == [("size?", False), ("colour?", False), ("size?", True)], "colour was not run again"
    assert isinstance(events[-1], TextMessage) and events[-1].text == "Thanks, ordering."

    outputs = tool_outputs(model)
    assert outputs[size.id] == {"answer": "M", "question": "size?"}
    assert outputs[colour.id] == {"answer": "blue"}
    assert {"text": "done in parallel"} in outputs.values()
    assert session.status == "completed" and session.pending_interrupts == []


def test_every_interrupt_needs_exactly_one_answer():
    _, session, _, _ = two_interrupts_session()
    size, colour = run(session, "Buy")[-1].interrupts
    with pytest.raises(AgentError, match="missing"):
        collect(session.resume(respond=[size.respond({"answer": "M"})]))
    with pytest.raises(AgentError) as unknown:
        collect(session.resume(respond=[size.respond(1), colour.respond(2)], restart=[InterruptRestart("nope")]))
    assert str(unknown.value) == (f"no pending call of this session has id 'nope' (pending: {size.id}, {colour.id}): "
                                  "answer each interrupt or tool request on the session whose run returned it")
    with pytest.raises(AgentError, match="answered twice"):
        collect(session.resume(respond=[size.respond(1), colour.respond(2)], restart=[size.restart()]))


def test_a_restarted_tool_can_interrupt_again():
    class Stubborn(AgentTool):
        async def execute(self, args):
            context = current_tool_context()
            if not context.resumed_metadata.get("really"):
                raise Interrupt({"sure": "?"})
            return {"ok": True}

    model = ScriptedModel([tool_call("stubborn"), "done"])
    session = AgentRunner(Agent(tools=[Stubborn(name="stubborn")]), model).create_session()
    (first,) = run(session, "go")[-1].interrupts
    events = collect(session.resume(restart=[first.restart({"really": False})]))
    (again,) = events[-1].interrupts
    assert again.id == first.id
    events = collect(session.resume(restart=[again.restart({"really": True})]))
    assert events[-1].text == "done"


def test_pending_interrupts_survive_a_restart(tmp_path):
    _, session, _, _ = two_interrupts_session(tmp_path)
    size, colour = run(session, "Buy")[-1].interrupts

    # A new runner (as in a new process) on the same folder, with a model that just answers.
    model2 = ScriptedModel(["Got it."])
    _, session2, tool2, _ = two_interrupts_session(tmp_path, model2)
    assert [i.id for i in session2.pending_interrupts] == [size.id, colour.id]
    events = collect(session2.resume(respond=[size.respond({"answer": "S"}), colour.respond({"answer": "red"})]))
    assert [e.response for e in events if isinstance(e, FunctionResponse)] == [{"answer": "S"}, {"answer": "red"}]
    assert events[-1].text == "Got it." and tool2.runs == []
    outputs = tool_outputs(model2)
    assert outputs[size.id] == {"answer": "S"} and {"text": "done in parallel"} in outputs.values()


def test_cancel_pending_answers_interrupts_as_cancelled_by_user():
    _, session, tool, model = two_interrupts_session()
    run(session, "Buy")
    session.cancel_pending()
    outputs = [m.tool_response.output for m in session.history if m.role == TOOL]
    assert [o.get("status") for o in outputs] == ["CANCELLED_BY_USER", "CANCELLED_BY_USER", None]
    assert session.pending_interrupts == []


def test_an_interrupt_raised_with_text_rather_than_a_dict_says_what_it_takes():
    def ask(question: str) -> dict:
        """Asks the user."""
        raise Interrupt("are you sure?")

    model = ScriptedModel([tool_call("ask", question="x"), "ok"])
    events = run(AgentRunner(Agent(tools=[FunctionTool(ask)]), model).create_session(), "go")
    (response,) = [e.response for e in events if e.type == "function_response"]
    assert response["error"]["type"] == "TypeError"
    assert response["error"]["message"] == ("Interrupt(metadata) takes a dict of what the tool asks, not a str "
                                            "('are you sure?'): raise Interrupt({'question': 'are you sure?'}), "
                                            "for example")
