"""`droidsim mcp` against the SDK's own client, each in its own process, on a device booted as
`make sim` boots one: what is listed, what a call returns and leaves in the access history,
errors, confirmation by elicitation, list_changed, and the access rules (docs/mcp.md)."""

from __future__ import annotations

import asyncio
import json
import re

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from droid.agent.schema import parameters_schema
from droid.appfunctions import access_fixes
from droid.appfunctions.manager import AppFunctionManager
from droid.content.context import connect
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST
from tests.e2e.mcp_support import http_bridge, stdio_server
from tests.helpers import COMMAND_BOUND, EVENT_BOUND, REPO, droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, LEVELED, SELF_FUNCTION, SYSTEM_FUNCTION, TRUSTED_FUNCTION
from tests.unit.access.apps import make_app, make_manifest_only

pytestmark = pytest.mark.e2e

AGENT = "com.example.assistant"
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
MCP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
EVENT_TIMEOUT = EVENT_BOUND  # a notification normally comes in milliseconds


@pytest.fixture(scope="module")
def device(make_sim_device):
    return make_sim_device


@pytest.fixture(scope="module")
def shell(device):
    with connect(f"unix:{device.data / 'device.sock'}", (device.data / "shell.credential").read_text().strip()) as context:
        yield context


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=COMMAND_BOUND))


def set_state(shell, state: int) -> None:
    shell.app_function_manager.set_app_function_enabled(FETCH, state, ORDERS)


def install(shell, app, system: bool = False) -> None:
    shell.get_system_service("package").install_package(str(app), system)


def text_json(result: types.CallToolResult):
    return json.loads(result.content[0].text)


YES = types.ElicitResult(action="accept", content={"confirm": True})


async def say_yes(context, params):
    return YES


def test_the_tools_are_the_agents_functions_with_the_agent_runtimes_schemas_shared_types_as_defs(device, shell):
    async def scenario():
        async with Client(stdio_server(device.data, AGENT)) as client:
            return client.instructions, (await client.list_tools()).tools

    instructions, tools = run(scenario())
    expected = {}
    for function in shell.app_function_manager.search_app_functions():
        expected[function.id] = parameters_schema(function, function.package_metadata.components, shared_types="defs")
    by_id = {tool.meta["droidsim/functionId"]: tool for tool in tools}
    assert len(by_id) == len(tools) == len({tool.name for tool in tools})
    assert FETCH in by_id and all(MCP_NAME.match(tool.name) for tool in tools)
    for function_id, tool in by_id.items():
        assert tool.input_schema == {"$schema": "https://json-schema.org/draft/2020-12/schema", **expected[function_id]}
    fetch, cancel = by_id[FETCH], by_id["com.example.orders.OrderFunctionService#cancel_order"]
    assert (fetch.name, fetch.title, fetch.meta["droidsim/packageName"]) == ("fetch_order_details", "Fetch order details", ORDERS)
    assert fetch.annotations.destructive_hint is False and cancel.annotations.destructive_hint is True
    assert fetch.output_schema["properties"]["result"]["properties"]["orderId"]["type"] == "string"
    assert "Online store orders" in instructions and AGENT in instructions


def test_a_call_runs_as_the_agent_and_returns_structured_content_and_text(device, shell):
    async def scenario():
        async with Client(stdio_server(device.data, AGENT)) as client:
            return await client.call_tool("fetch_order_details", {"orderId": "ORD-8492"})

    result = run(scenario())
    assert result.is_error is False
    assert result.structured_content["result"]["status"] == "SHIPPED"
    assert text_json(result) == result.structured_content["result"]
    last = shell.app_function_manager.get_access_history()[-1]
    assert (last.agent_package_name, last.function_identifier, last.result_code) == (AGENT, FETCH, 0)


def test_errors_are_error_results_with_the_platform_code_and_bad_arguments_never_reach_the_device(device, shell):
    async def scenario():
        async with Client(stdio_server(device.data, AGENT)) as client:
            missing = await client.call_tool("fetch_order_details", {"orderId": "ORD-0000"})
            calls = len(shell.app_function_manager.get_access_history())
            wrong_type = await client.call_tool("fetch_order_details", {"orderId": 5})
            unknown_argument = await client.call_tool("fetch_order_details", {"orderId": "ORD-8492", "x": 1})
            untouched = len(shell.app_function_manager.get_access_history()) == calls
            with pytest.raises(MCPError, match="Unknown tool: no_such_tool$"):
                await client.call_tool("no_such_tool", {})
            with pytest.raises(MCPError, match=r"Unknown tool: fetch_order_detail \(did you mean fetch_order_details\?\)"):
                await client.call_tool("fetch_order_detail", {})
            return missing, wrong_type, unknown_argument, untouched

    missing, wrong_type, unknown_argument, untouched = run(scenario())
    assert missing.is_error and text_json(missing)["error"]["code_name"] == "ERROR_RESOURCE_NOT_FOUND"
    assert text_json(missing)["error"]["message"] == "No order found with ID ORD-0000"
    for result, words in ((wrong_type, "Parameter orderId: expected a string, got the number 5"),
                          (unknown_argument, "Unknown parameter 'x'; ")):
        error = text_json(result)["error"]
        assert result.is_error and error["code_name"] == "ERROR_INVALID_ARGUMENT" and words in error["message"]
    assert untouched


@pytest.mark.parametrize("mode, order", [("auto", "ORD-5117"), ("legacy", "ORD-7310")])
def test_a_destructive_call_runs_only_once_the_user_accepts(device, mode, order):
    """auto negotiates 2026-07-28 (an InputRequiredResult round); legacy 2025-11-25 (an
    elicitation/create request in the middle of the call), as Claude Desktop speaks it."""
    answers: list[types.ElicitResult] = []
    asked: list[str] = []

    async def user(context, params):
        asked.append(params.message)
        return answers.pop(0)

    async def cancel(client, answer):
        answers.append(answer)
        result = await client.call_tool("cancel_order", {"orderId": order})
        status = await client.call_tool("fetch_order_details", {"orderId": order})
        return result, status.structured_content["result"]["status"]

    async def scenario():
        async with Client(stdio_server(device.data, AGENT), mode=mode, elicitation_callback=user) as client:
            return await cancel(client, types.ElicitResult(action="decline")), await cancel(client, YES)

    (declined, status_after_no), (accepted, status_after_yes) = run(scenario())
    assert declined.is_error and text_json(declined)["status"] == "CANCELLED_BY_USER"
    assert status_after_no != "CANCELLED"
    assert accepted.structured_content["result"]["cancelled"] is True and status_after_yes == "CANCELLED"
    assert len(asked) == 2 and order in asked[0] and "cancel_order" in asked[0]


def test_a_client_that_cannot_ask_is_refused_a_destructive_call(device):
    async def scenario():
        async with Client(stdio_server(device.data, AGENT), mode="legacy") as client:
            return await client.call_tool("cancel_booking", {"bookingId": "BK-1000"})

    refused = run(scenario())
    assert refused.is_error and text_json(refused) == {  # nobody declined: nobody could be asked
        "status": "CANCELLED_BY_USER",
        "message": "Not run: this MCP client cannot ask its user (it declares no elicitation capability); use a "
                   "client that supports elicitation, or start the bridge with --confirm always-allow to run "
                   "destructive calls unasked."}


def test_an_install_reaches_a_2026_client_as_tools_list_changed(device, shell, tmp_path):
    app = make_app(tmp_path, "com.test.mcp.late")

    async def scenario():
        async with Client(stdio_server(device.data, AGENT)) as client:
            before = {t.meta["droidsim/packageName"] for t in (await client.list_tools()).tools}
            async with client.listen(tools_list_changed=True) as subscription:
                await asyncio.to_thread(install, shell, app)
                event = await asyncio.wait_for(anext(aiter(subscription)), EVENT_TIMEOUT)
            after = {t.meta["droidsim/packageName"] for t in (await client.list_tools()).tools}
            return before, event, after

    before, event, after = run(scenario())
    assert "com.test.mcp.late" not in before and "com.test.mcp.late" in after
    assert type(event).__name__ == "ToolsListChanged"


def test_disabling_a_function_reaches_a_2025_client_over_http(device, shell):
    bridge = http_bridge(device.data, AGENT)
    changed = asyncio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async def scenario():
        async with Client(bridge.client_transport(), mode="legacy", message_handler=on_message) as client:
            assert client.server_capabilities.tools.list_changed is True
            names = {t.name for t in (await client.list_tools()).tools}
            await asyncio.to_thread(set_state, shell, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
            await asyncio.wait_for(changed.wait(), EVENT_TIMEOUT)
            return names, {t.name for t in (await client.list_tools()).tools}

    try:
        before, after = run(scenario())
    finally:
        set_state(shell, AppFunctionManager.APP_FUNCTION_STATE_DEFAULT)
        bridge.stop()
    assert before - after == {"fetch_order_details"}


def test_over_http_a_2026_client_calls_confirms_and_hears_changes(device, shell, tmp_path):
    """The SDK client's default protocol over streamable HTTP: a call, an error, a confirmed
    destructive call (InputRequiredResult round), and list_changed on subscriptions/listen."""
    app = make_app(tmp_path, "com.test.mcp.http")
    bridge = http_bridge(device.data, AGENT)

    async def scenario():
        async with Client(bridge.client_transport(), elicitation_callback=say_yes) as client:
            assert client.protocol_version == "2026-07-28"
            fetched = await client.call_tool("fetch_order_details", {"orderId": "ORD-8492"})
            missing = await client.call_tool("fetch_order_details", {"orderId": "ORD-0000"})
            cancelled = await client.call_tool("cancel_booking", {"bookingId": "BK-1000"})
            async with client.listen(tools_list_changed=True) as subscription:
                await asyncio.to_thread(install, shell, app)
                await asyncio.wait_for(anext(aiter(subscription)), EVENT_TIMEOUT)
            listed = {t.meta["droidsim/packageName"] for t in (await client.list_tools()).tools}
            return fetched, missing, cancelled, listed

    try:
        fetched, missing, cancelled, listed = run(scenario())
    finally:
        bridge.stop()
    assert fetched.structured_content["result"]["orderId"] == "ORD-8492"
    assert missing.is_error and text_json(missing)["error"]["code_name"] == "ERROR_RESOURCE_NOT_FOUND"
    assert cancelled.is_error is False and cancelled.structured_content["result"]["bookingId"] == "BK-1000"
    assert "com.test.mcp.http" in listed


def test_an_agent_lists_only_granted_targets_and_never_self_or_system_functions(device, shell, tmp_path):
    agent, target = "com.test.mcp.agent", "com.test.mcp.leveled"
    install(shell, make_manifest_only(tmp_path, agent, (EXECUTE_APP_FUNCTIONS,)), system=True)
    install(shell, make_app(tmp_path, target, levels=LEVELED))
    shell.get_system_service("settings").put_setting(*ADDITIONAL_AGENT_ALLOWLIST, agent)

    async def listed():
        async with Client(stdio_server(device.data, agent)) as client:
            return {(t.meta["droidsim/packageName"], t.meta["droidsim/functionId"]) for t in (await client.list_tools()).tools}

    refused = droidsim("mcp", "--as", agent, data=device.data, input="")  # no grant, no function of its own
    assert refused.returncode == 1, refused.stderr
    assert f"warning: {access_fixes.not_granted(agent, target)}" in refused.stderr
    manager = shell.app_function_manager
    manager.update_access_flags(agent, target, manager.ACCESS_FLAG_MASK_OTHER, manager.ACCESS_FLAG_OTHER_GRANTED)
    functions = run(listed())
    assert {package for package, _ in functions} == {target}
    ids = {function_id.rsplit("#", 1)[-1] for _, function_id in functions}
    assert TRUSTED_FUNCTION in ids and not ids & {SELF_FUNCTION, SYSTEM_FUNCTION}


def test_the_readmes_claude_desktop_snippet_starts_a_working_server(device):
    """The JSON a user pastes into claude_desktop_config.json, with their paths for the example's."""
    snippet = re.search(r"```json\n(.*?)```", (REPO / "README.md").read_text(), re.S).group(1)
    text = snippet.replace("/home/you/droidsim/.droidsim/device", str(device.data)).replace("/home/you/droidsim", str(REPO))
    server = json.loads(text)["mcpServers"]["droidsim"]

    async def scenario():
        async with Client(StdioServerParameters(command=server["command"], args=server["args"])) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    assert "fetch_order_details" in run(scenario())


def test_a_package_that_is_not_an_agent_is_served_its_own_functions_and_told_what_it_lacks(device):
    """As droidsim agent --as runs it (issue 47): it may call its own functions, and nothing else."""
    result = droidsim("mcp", "--as", ORDERS, data=device.data, input="")
    assert result.returncode == 0, result.stderr
    assert (f"warning: {ORDERS} may call only its own 2 functions (fetch_order_details, cancel_order "
            "(ACCESS_LEVEL_ANDROID_TRUSTED)), not other apps': com.example.orders does not request "
            "android.permission.EXECUTE_APP_FUNCTIONS") in result.stderr
