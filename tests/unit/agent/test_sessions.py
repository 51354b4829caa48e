"""Sessions keep their history across a process restart, and can be cleared or deleted."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap

import pytest

from droid.agent import Agent, AgentError, AgentRunner, ScriptedModel, tool_call
from droid.agent.messages import ASSISTANT, TOOL, USER

from .conftest import run
from tests.helpers import COMMAND_BOUND


def recall_model() -> ScriptedModel:
    """Answers with the user messages it has seen: proof of what the history holds."""
    return ScriptedModel([lambda r: "I remember: " + " | ".join(m.text for m in r.messages if m.role == USER)] * 5)


def test_a_session_survives_a_restart(tmp_path):
    first = AgentRunner(Agent(name="a"), recall_model(), session_dir=tmp_path)
    session = first.create_session("chat-1")
    run(session, "My name is Ada.")
    first.close()

    # A new runner object (as in a new process) on the same folder.
    second = AgentRunner(Agent(name="a"), recall_model(), session_dir=tmp_path)
    assert second.list_sessions() == ["chat-1"]
    resumed = second.create_session("chat-1")
    assert [m.role for m in resumed.history] == [USER, ASSISTANT]
    events = run(resumed, "What is my name?")
    assert events[-1].text == "I remember: My name is Ada. | What is my name?"


def test_a_session_survives_a_real_process_restart(tmp_path):
    script = textwrap.dedent(f"""
        import asyncio
        from droid.agent import Agent, AgentRunner, ScriptedModel
        runner = AgentRunner(Agent(), ScriptedModel(["noted"]), session_dir={str(tmp_path)!r})
        async def main():
            async for _ in runner.create_session("s").run("remember 42"):
                pass
        asyncio.run(main())
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=COMMAND_BOUND)
    session = AgentRunner(Agent(), recall_model(), session_dir=tmp_path).create_session("s")
    assert [m.text for m in session.history] == ["remember 42", "noted"]


def test_the_session_file_is_private_json(tmp_path):
    model = ScriptedModel([tool_call("fetch", orderId="X"), "ok"])
    from droid.agent import FunctionTool

    runner = AgentRunner(Agent(tools=[FunctionTool(lambda orderId: {"ok": orderId}, name="fetch")]), model, session_dir=tmp_path)
    run(runner.create_session("s"), "hi")
    path = tmp_path / "s.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    import json

    state = json.loads(path.read_text())
    assert [m["role"] for m in state["history"]] == [USER, ASSISTANT, TOOL, ASSISTANT]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_clear_forgets_the_conversation_and_delete_erases_it(tmp_path):
    runner = AgentRunner(Agent(), recall_model(), session_dir=tmp_path)
    session = runner.create_session("s")
    run(session, "secret")
    session.clear()
    assert session.history == []
    assert AgentRunner(Agent(), recall_model(), session_dir=tmp_path).create_session("s").history == []
    assert run(session, "again")[-1].text == "I remember: again"

    session.delete()
    assert runner.list_sessions() == []
    with pytest.raises(AgentError, match="closed"):
        run(session, "more")


def test_clear_sessions_removes_all(tmp_path):
    runner = AgentRunner(Agent(), recall_model(), session_dir=tmp_path)
    for name in ("a", "b"):
        run(runner.create_session(name), "x")
    runner.clear_sessions()
    assert runner.list_sessions() == []


@pytest.mark.parametrize("bad", ["../escape", "", "a/b", ".hidden"])
def test_session_ids_cannot_escape_the_folder(tmp_path, bad):
    with pytest.raises(AgentError, match="invalid session id"):
        AgentRunner(Agent(), recall_model(), session_dir=tmp_path).create_session(bad)


def test_a_corrupt_session_file_is_a_clear_error(tmp_path):
    (tmp_path / "s.json").write_text("{not json")
    with pytest.raises(AgentError, match="corrupt"):
        AgentRunner(Agent(), recall_model(), session_dir=tmp_path).create_session("s")
