"""An agent developer's own agent app (docs/examples/myagent, as docs/agent.md writes it) runs
through `droidsim agent --as` and `droidsim mcp --as` (a real MCP client in another process)
with its own instructions, tools, limits and confirmation policy (issue 36); an app without
an agent of its own gets the stock one, and discovery and the bridge agree on what it may call;
`droid.agent.connect_as` finds the device and the credential from every address form."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

import mcp_types as types
import pytest
from mcp import Client

from droid.agent import AppFunctionAgentTools, connect_as
from droid.appfunctions import access_fixes
from droid.content.device_address import CredentialNotFoundError, DeviceNotFoundError
from tests.e2e.agent_registration import EXAMPLE, register, renamed_copy
from tests.e2e.conftest import make_sim_options
from tests.e2e.mcp_support import http_bridge, stdio_server
from tests.helpers import DeviceProcess, droidsim, running_processes
from tests.unit.agent.chat_server import received, running

pytestmark = pytest.mark.e2e

PLAIN = "com.example.plainagent"  # the same app without an agent of its own
ORDERS = "com.example.orders"
INSTRUCTIONS = "Help customers with their orders and loyalty points."
OWN_TOOLS = ["fetch_order_details", "cancel_order", "loyalty_points"]


@pytest.fixture(scope="module")
def device(make_sim_device, tmp_path_factory):
    register(make_sim_device.data)
    register(make_sim_device.data, PLAIN, renamed_copy(tmp_path_factory.mktemp("plain"), PLAIN, own_agent=False))
    return make_sim_device


def agent(device, *args, answer: str = ""):
    return droidsim("agent", "--as", EXAMPLE, *args, data=device.data, input=answer, timeout=120)


def json_lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def wait_for(found, what: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {timeout:g} s for {what}")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=120))


def test_droidsim_agent_runs_the_apps_own_tool(device):
    result = agent(device, "--json", "How many loyalty points does customer CUS-7710 have?")
    assert result.returncode == 0, result.stderr
    events = json_lines(result)
    assert [(e["name"], e["response"]) for e in events if e["type"] == "function_response"] == [
        ("loyalty_points", {"customerId": "CUS-7710", "points": 120})]


def test_its_instructions_tools_and_limits_are_what_the_model_gets(device, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "key-from-the-command")
    with running() as server:
        result = agent(device, "--model", "openai:openai", "--base-url", f"{server}/v1", "--json",
                       "[always-call] Where is my order ORD-8492?")
        requests = [r for r in received(server)]
    assert result.returncode == 1, "max_turns reached"
    assert json_lines(result)[-1]["type"] == "max_turns_reached" and json_lines(result)[-1]["max_turns"] == 3
    assert len(requests) == 3 + 1, "the agent's own max_turns (3), not the stock 5"
    first = requests[0]["body"]
    assert first["messages"][0] == {"role": "system", "content": INSTRUCTIONS}
    assert [t["function"]["name"] for t in first["tools"]] == OWN_TOOLS
    assert requests[0]["authorization"] == "Bearer key-from-the-command", "the key reached the app's process"


def test_its_confirmation_asks_and_a_no_runs_nothing(device):
    result = agent(device, "--json", "Cancel order ORD-8492", answer="n\n")
    assert result.returncode == 0, result.stderr
    events = json_lines(result)
    assert {"type": "confirmation", "name": "cancel_order", "args": {"orderId": "ORD-8492"}, "approved": False} in events
    response = next(e for e in events if e["type"] == "function_response")
    assert response["response"]["status"] == "CANCELLED_BY_USER"


def test_droidsim_mcp_serves_the_agents_own_tools_instructions_and_confirmations(device):
    async def user_says_no(context, params):
        return types.ElicitResult(action="decline")

    async def scenario():
        async with Client(stdio_server(device.data, EXAMPLE), elicitation_callback=user_says_no) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            points = await client.call_tool("loyalty_points", {"customerId": "CUS-7710"})
            wrong = await client.call_tool("loyalty_points", {"customerId": 7710})
            declined = await client.call_tool("cancel_order", {"orderId": "ORD-8492"})
            order = await client.call_tool("fetch_order_details", {"orderId": "ORD-8492"})
            return client.instructions, tools, points, wrong, declined, order

    instructions, tools, points, wrong, declined, order = run(scenario())
    assert INSTRUCTIONS in instructions
    assert sorted(tools) == sorted(OWN_TOOLS)
    assert tools["cancel_order"].annotations.destructive_hint is True
    assert tools["fetch_order_details"].meta["droidsim/functionId"].endswith("#fetch_order_details")
    assert tools["loyalty_points"].input_schema["properties"]["customerId"]["description"] == (
        "The customer's id (for example, CUS-1234).")
    assert points.structured_content == {"customerId": "CUS-7710", "points": 120} and not points.is_error
    assert wrong.is_error and json.loads(wrong.content[0].text)["error"]["code_name"] == "ERROR_INVALID_ARGUMENT"
    assert declined.is_error and json.loads(declined.content[0].text)["status"] == "CANCELLED_BY_USER"
    assert order.structured_content["status"] != "CANCELLED", "a no ran nothing"


def test_without_an_agent_of_its_own_discovery_and_the_bridge_agree_on_what_it_may_call(device):
    with connect_as(PLAIN, device.data) as context:
        discovered = {tool.function_id for tool in AppFunctionAgentTools.discover(context)}
        seen = {f.package_name for f in context.app_function_manager.search_app_functions()}
    with http_bridge(device.data, PLAIN) as bridge:
        async def scenario():
            async with Client(bridge.client_transport()) as client:
                return (await client.list_tools()).tools

        listed = {tool.meta["droidsim/functionId"] for tool in run(scenario())}
        warnings = "".join(bridge.errors)
    assert discovered == listed and {f.split(".OrderFunctionService#")[0] for f in listed} == {ORDERS}
    assert len(seen) > 1, "it sees more apps than it may call"
    assert f"warning: {PLAIN} may call the functions of {ORDERS}, not the functions of com.example.booking" in warnings
    assert "--target-package APP" not in warnings, "each app it may not call is named in its command"


def test_an_agent_without_a_grant_is_told_the_command_and_a_single_prompt_exits_1(device, tmp_path):
    ungranted = "com.example.ungranted"
    steps = [["install", str(renamed_copy(tmp_path, ungranted, own_agent=False))],
             ["shell", "pm", "add-privileged-allowlist", ungranted],
             ["access", "agents", "add", ungranted]]
    for step in steps:  # the documented steps but the grant
        assert droidsim(*step, data=device.data).returncode == 0
    result = droidsim("agent", "--as", ungranted, "--json", "Where is my order ORD-8492?", data=device.data)
    assert result.returncode == 1
    lines = json_lines(result)
    assert {"type": "warning", "message": access_fixes.not_granted(ungranted, ORDERS)} in lines
    assert "grant-app-function-access --agent-package com.example.ungranted --target-package com.example.orders" in (
        result.stderr)
    assert not [line for line in lines if line["type"] == "function_call"], "nothing ran"


def test_the_agents_process_ends_with_the_command_that_started_it(device):
    command = subprocess.Popen([sys.executable, "-m", "sim.cli", "--device", str(device.data), "agent", "--as",
                                EXAMPLE], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        agent_process = wait_for(lambda: next((pid for pid, (parent, _) in running_processes().items()
                                               if parent == command.pid), None), "the agent's process to start")
        command.kill()  # no chance to stop what it started
        wait_for(lambda: agent_process not in running_processes(), "the agent's process to end with the command")
    finally:
        command.kill()
        command.wait()


def test_connect_as_takes_every_address_form_and_says_where_it_looked(device, tmp_path):
    for address in (device.data, f"unix:{device.data / 'device.sock'}"):
        with connect_as(EXAMPLE, address) as context:
            assert context.package_name == EXAMPLE
    with pytest.raises(CredentialNotFoundError) as missing:
        connect_as("com.example.nobody", device.data)
    assert str(missing.value).startswith(f"no credential for com.example.nobody: looked at {device.data.resolve()}/"
                                         "data/com.example.nobody/credential (not found: is com.example.nobody "
                                         f"installed on this device?). Looked at: the address unix:")


def test_connect_as_finds_a_tcp_devices_folder_from_the_running_devices(tmp_path_factory):
    data = tmp_path_factory.mktemp("tcp") / "data"
    process = DeviceProcess(data, extra=("--listen", "127.0.0.1:0", *make_sim_options(data)))
    try:
        address = next(line.split()[-1] for line in process.output if "listening on" in line)
        with connect_as("com.example.assistant", address) as context:
            assert context.package_name == "com.example.assistant"
            assert context.data_dir == data.resolve() / "data" / "com.example.assistant"
        with connect_as("com.example.assistant", data) as context:  # its data folder: the registry gives the address
            assert context.package_name == "com.example.assistant"
        monkeypatch = pytest.MonkeyPatch()
        monkeypatch.setenv("DROIDSIM_HOME", str(tmp_path_factory.mktemp("other-home")))  # a registry that lists none
        try:
            with pytest.raises(CredentialNotFoundError) as unnamed:
                connect_as("com.example.assistant", address)
            assert str(unnamed.value).startswith(
                f"no credential for com.example.assistant: looked at the device's data folder, which {address} does "
                "not name and no running device lists (pass data=DIR: the folder the device was started with")
            assert f"the devices running on this machine ({os.environ['DROIDSIM_HOME']}/running): none" in str(unnamed.value)
            with pytest.raises(DeviceNotFoundError, match=rf"the device running on {data.resolve()} \(pid \d+\) listens "
                                                          r"elsewhere \(--listen HOST:PORT\): pass that address, with data=DIR"):
                connect_as("com.example.assistant", data)
            with connect_as("com.example.assistant", address, data=data) as context:
                assert context.package_name == "com.example.assistant"
        finally:
            monkeypatch.undo()
    finally:
        process.stop()
    with pytest.raises(DeviceNotFoundError, match=rf"nothing answers at {address} \(Connection refused\)\. Looked at: "
                                                  rf"the address {address} \(given\)"):
        connect_as("com.example.assistant", address)


def test_a_call_refused_for_want_of_an_answer_fails_a_json_run(device):
    """Issue 34's CI step: the orders app replaced by its Kotlin build, whose code droidsim never
    runs and which was installed with no cassette or double, so every call is refused."""
    from tests.helpers import REPO

    installed = droidsim("install", str(REPO / "docs" / "examples" / "kotlin-orders"), data=device.data)
    assert installed.returncode == 0, installed.stderr
    prompt = "Where is my order ORD-8492?"
    failed = droidsim("agent", "--as", "com.example.assistant", "--json", prompt, data=device.data)
    assert failed.returncode == 1
    assert json_lines(failed)[-1]["type"] == "error"
    assert json_lines(failed)[-1]["message"].startswith(
        "1 call(s) were refused for want of an answer (ERROR_NOT_SUPPORTED: fetch_order_details)")
    warned = droidsim("agent", "--as", "com.example.assistant", prompt, data=device.data)
    assert warned.returncode == 0 and "warning: 1 call(s) were refused for want of an answer" in warned.stderr
