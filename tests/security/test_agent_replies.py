"""What an app's agent process answers the MCP bridge is the app's, read as hostile (issue 43
F08, by content). tests/security/apps/forgeagent answers ``droidsim mcp --as`` from inside its
own process with replies it forges; a real MCP client in another process sees each fail its
request (or, where the exchange can no longer be trusted, every request), naming what the app
sent, and never waits for ever. Before the defence, a reply id that was a list killed the
bridge's reader (every later request hung), a tool without a name or an outcome that was a
list failed with a traceback and a bare ``KeyError``, and a lone surrogate in a description
(valid JSON, no Unicode) ended the MCP server's writer: the client waited for ever."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

import sim.device
from tests.e2e.mcp_support import stdio_server
from tests.helpers import EVENT_BOUND, copy_app

FORGE_APP = Path(__file__).parent / "apps" / "forgeagent"
FORGE = "com.example.forgeagent"
SENT = f"{FORGE}'s agent process"


@pytest.fixture(scope="module")
def forger():
    folder = Path(tempfile.mkdtemp(prefix="droidsim-replies-"))
    folder.chmod(0o755)
    device = sim.device.Device(folder / "data")
    try:
        device.install(copy_app(FORGE_APP, folder / "apps"), system=True)
        device.serve()
        yield device
    finally:
        device.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


def forge(device, replies: dict) -> None:
    """What the app's process answers from now on, by op (escaped: a lone surrogate stays one)."""
    (device.data_dir / "data" / FORGE / "forge.json").write_text(json.dumps(replies))


def run(scenario):
    return asyncio.run(asyncio.wait_for(scenario(), timeout=EVENT_BOUND))


def test_a_reply_of_the_wrong_shape_fails_its_request_naming_the_field_and_the_next_is_served(forger):
    async def scenario():
        async with Client(stdio_server(forger.data_dir, FORGE)) as client:
            forge(forger, {"list": {"tools": [{"description": "a tool without a name"}]}})
            with pytest.raises(MCPError) as nameless:
                await client.list_tools()
            forge(forger, {"call": {"outcome": [1, 2]}})
            listed = [tool.name for tool in (await client.list_tools()).tools]
            not_a_map = await client.call_tool("echo", {"text": "hi"})
            forge(forger, {})
            echoed = await client.call_tool("echo", {"text": "hi"})
            return nameless.value, listed, not_a_map, echoed

    nameless, listed, not_a_map, echoed = run(scenario)
    assert str(nameless) == f"{SENT} answered list with no 'name' in ['tools'][0]"
    assert listed == ["echo"]
    assert not_a_map.is_error
    assert json.loads(not_a_map.content[0].text)["error"]["message"] == f"{SENT} answered call with ['outcome'] as an array, not object"
    assert (echoed.is_error, echoed.structured_content) == (False, {"result": "hi"})
    # Defence: each reply is checked against its op's shape before the bridge reads a field of
    # it (sim/agent_app/tool_replies.py); a wrong one fails that request alone.


@pytest.mark.parametrize("replies, problem", [
    ({"list": {"tools": [{"name": "echo", "description": "Say\ud800"}]}},
     "sent text that is no Unicode ('Say\\ud800' holds a lone surrogate), which no client can be sent"),
    ({"list": {"id": [1], "tools": []}}, "sent a reply whose id is [1], no request's number"),
], ids=["lone surrogate", "id a list"])
def test_a_line_no_reply_can_be_fails_every_request_at_once_naming_it(forger, replies, problem):
    async def scenario():
        async with Client(stdio_server(forger.data_dir, FORGE)) as client:
            forge(forger, replies)
            failures = []
            for _ in range(2):  # the first request, and one after: neither waits
                with pytest.raises(MCPError) as failed:
                    await client.list_tools()
                failures.append(str(failed.value))
            return failures

    assert run(scenario) == [f"{SENT} {problem}"] * 2
    # Defence: the reader checks every line for nesting and Unicode, and a reply's id for a
    # request's number, before anything reads it (sim/agent_app/tool_client.py); past such a
    # line the exchange is over, as if the process had ended, and every request says why.
