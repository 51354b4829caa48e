"""The app's agent serving its tools to the MCP bridge over a real socket pair
(sim/agent_app/tool_server.py and tool_client.py): what is listed, checked and run, and that
calls overlap."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from droid.agent import Agent, FunctionTool, HitlConfirmationTool, Interrupt
from sim.agent_app.tool_client import AgentProcessGone, ToolClient
from sim.agent_app.tool_server import serve_tools

both_inside = threading.Barrier(2, timeout=10)


def slow(name: str) -> dict:
    """Waits for the other call to come in too."""
    both_inside.wait()
    return {"name": name}


def cancel_order(orderId: str) -> dict:
    return {"cancelled": orderId}


def ask(question: str) -> dict:
    raise Interrupt({"question": question})


@pytest.fixture
def client():
    ours, theirs = socket.socketpair()
    agent = Agent(name="Helper", instructions="Help.", tools=[
        FunctionTool(slow), FunctionTool(ask), HitlConfirmationTool(FunctionTool(cancel_order))])
    server = threading.Thread(target=lambda: asyncio.run(serve_tools(theirs, None, agent)), daemon=True)
    server.start()
    client = ToolClient(ours, "com.example.helper")
    yield client
    client.close()
    server.join(10)


def test_the_agent_and_its_tools_are_listed_with_what_asks_first(client):
    assert client.agent == {"name": "Helper", "instructions": "Help.", "max_turns": 5}
    tools = {t["name"]: t for t in client.request("list")["tools"]}
    assert sorted(tools) == ["ask", "cancel_order", "slow"]
    assert (tools["cancel_order"]["confirm"], tools["cancel_order"]["destructive"]) == (True, True)
    assert (tools["slow"]["confirm"], tools["slow"]["function_id"]) == (False, None)
    assert tools["slow"]["parameters"]["required"] == ["name"]


def test_arguments_are_checked_and_calls_run_as_the_loop_runs_them(client):
    assert client.request("check", name="slow", args={"nmae": "a"}) == {
        "id": 1, "problem": "Unknown parameter 'nmae' (did you mean name?); slow takes: name"}
    confirmed = client.request("call", name="cancel_order", args={"orderId": "ORD-1"}, approved=True)
    assert confirmed["outcome"] == {"cancelled": "ORD-1"}
    asked = client.request("call", name="ask", args={"question": "Size?"})
    assert asked["interrupt"] == {"question": "Size?"}
    unknown = client.request("call", name="nope", args={})
    assert unknown["outcome"]["error"]["code_name"] == "ERROR_FUNCTION_NOT_FOUND"


def test_two_calls_overlap(client):
    first = client.submit("call", name="slow", args={"name": "a"})
    second = client.submit("call", name="slow", args={"name": "b"})
    assert (first.result(30)["outcome"], second.result(30)["outcome"]) == ({"name": "a"}, {"name": "b"})


def test_a_process_that_goes_away_fails_what_waits(client):
    client._connection.shutdown(socket.SHUT_RDWR)
    with pytest.raises(AgentProcessGone, match="com.example.helper"):
        client.request("list")


def _app_that_sends(lines: list[bytes]) -> socket.socket:
    """Our end of a socket whose other end, the app's, says hello and then sends ``lines``
    in answer to the first request."""
    ours, theirs = socket.socketpair()

    def serve():
        theirs.sendall(b'{"agent": null}\n')
        theirs.recv(4096)
        for line in lines:
            theirs.sendall(line)

    threading.Thread(target=serve, daemon=True).start()
    return ours


@pytest.mark.parametrize("line, problem", [
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "JSON nested deeper than 100 levels, the bound of its tool socket"),
    (b'{"id": 1, "outcome": ' + b"[" * 101 + b"]" * 101 + b"}\n", "JSON nested deeper than 100 levels"),
    (b'{"id": 1, "outcome": "' + b"x" * 2048 + b'"}\n', "a line longer than 1024 bytes, the bound of its tool socket"),
    (b"[1, 2]\n", "sent b'[1, 2]\\n', not a JSON object"),
    (b'{"id": 1, "outcome": {"text": "\\ud800"}}\n', "text that is no Unicode ('\\ud800' holds a lone surrogate)"),
    (b'{"id": 1, "outcome": {"\\udfffkey": 1}}\n', "text that is no Unicode ('\\udfffkey' holds a lone surrogate)"),
    (b'{"id": true, "tools": []}\n', "a reply whose id is true, no request's number"),
])
def test_a_line_the_app_should_not_send_fails_what_waits_naming_it(monkeypatch, line, problem):
    if b"x" * 2048 in line:
        monkeypatch.setattr("sim.agent_app.tool_client.MAX_LINE", 1024)
    client = ToolClient(_app_that_sends([line]), "com.example.hostile")
    try:
        with pytest.raises(AgentProcessGone, match="com.example.hostile's agent process sent") as gone:
            client.submit("list").result(30)
        assert problem in str(gone.value)
        with pytest.raises(AgentProcessGone, match="com.example.hostile's agent process sent"):
            client.request("list")  # and every later request, at once
    finally:
        client.close()


def test_a_hello_nested_without_end_is_refused_naming_it():
    ours, theirs = socket.socketpair()
    theirs.sendall(b"[" * 100_000 + b"\n")
    with pytest.raises(AgentProcessGone, match="nested deeper than 100 levels"):
        ToolClient(ours, "com.example.hostile")
    ours.close()
    theirs.close()
