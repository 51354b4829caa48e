"""A Kotlin app's APK on a device booted as `make sim` boots one, through the CLI: installed
with its cassette, its catalog served by `droidsim mcp` to the SDK's client, answered from the
cassette; an update by another key refused, the installed one still answering."""

from __future__ import annotations

import asyncio

import pytest
from mcp import Client

from tests.e2e.mcp_support import stdio_server
from tests.helpers import COMMAND_BOUND, REPO, droidsim

pytest.importorskip("androguard", reason="reading APKs needs androguard (a dependency of droidsim)")
pytestmark = pytest.mark.e2e

APKS = REPO / "tests" / "apks"
CASSETTE = REPO / "docs" / "examples" / "shop.cassette.yaml"
FETCH = "com.example.shop.OrderFunctionService#fetchOrderStatus"


@pytest.fixture(scope="module")
def device(make_sim_device):
    installed = droidsim("install", str(APKS / "shop-signed.apk"), "--responses", str(CASSETTE), data=make_sim_device.data)
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.startswith("Success: com.example.shop (uid ")
    return make_sim_device


def test_the_mcp_bridge_serves_the_apks_functions_answered_from_the_cassette(device):
    async def session():
        async with Client(stdio_server(device.data, "com.example.assistant")) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert tools["fetchOrderStatus"].meta["droidsim/functionId"] == FETCH
            assert "trackParcel" in tools  # the values-v37 override: this device is Android 17
            result = await client.call_tool("fetchOrderStatus", {"orderId": "ORD-1234"})
            missing = await client.call_tool("fetchOrderStatus", {"orderId": "ORD-0000"})
            return result, missing

    result, missing = asyncio.run(asyncio.wait_for(session(), timeout=COMMAND_BOUND))
    assert result.structured_content["result"] == "SHIPPED"
    assert missing.is_error and "No order found with ID ORD-0000" in missing.content[0].text


def test_an_update_signed_by_another_key_is_refused_and_the_installed_app_still_answers(device):
    refused = droidsim("install", str(APKS / "shop-other-key.apk"), data=device.data)
    assert refused.returncode == 1
    assert "INSTALL_FAILED_UPDATE_INCOMPATIBLE: com.example.shop is installed signed by certificate SHA-256" in refused.stderr
    answer = droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", "com.example.shop",
                      "--function", FETCH, "--parameters", '{"orderId": "ORD-1234"}', data=device.data)
    assert (answer.returncode, answer.stdout) == (0, '"SHIPPED"\n')
