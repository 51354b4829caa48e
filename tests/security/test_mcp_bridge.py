"""The MCP bridge over HTTP acts as an agent app: only the holder of its bearer token may use
it, and never an installed app, whatever token it shows (sim/mcp/http_auth.py, docs/mcp.md).
The bridge runs in its own process, as `droidsim mcp --transport http`; the clients are the
SDK's own and plain HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sim.device import Device
from sim.mcp.process import HttpBridgeProcess
from tests.helpers import REPO, copy_app
from tests.security.conftest import needs_root
from tests.security.test_doors import INTRUDER, INTRUDER_APP, intrude

AGENT = "com.example.assistant"
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}})


@pytest.fixture
def bridged(open_folder):
    """A served device with the sample agent, the orders app and the intruder, and its bridge."""
    with Device(open_folder / "data") as device:
        device.install_all(REPO / "apps" / "system", system=True)
        device.install(copy_app(REPO / "apps" / "orders", open_folder / "apps"))
        device.install(copy_app(INTRUDER_APP, open_folder / "apps"))
        device.pregrant_agent(AGENT)
        device.serve()
        with HttpBridgeProcess(device.data_dir, AGENT, cwd=REPO) as bridge:
            yield device, bridge


def post(url: str, token: str | None) -> tuple[int, dict, str]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=INITIALIZE.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_a_client_with_the_token_is_served_and_one_without_it_is_refused(bridged):
    _device, bridge = bridged

    async def with_token():
        async with Client(bridge.client_transport(), mode="legacy") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            fetched = await client.call_tool("fetch_order_details", {"orderId": "ORD-8492"})
            return tools, fetched

    tools, fetched = asyncio.run(with_token())
    assert "fetch_order_details" in tools and fetched.structured_content["result"]["orderId"] == "ORD-8492"

    async def without_token():
        async with Client(bridge.client_transport(token="not-the-token"), mode="legacy") as client:
            await client.list_tools()

    with pytest.raises(ExceptionGroup) as refused:  # the SDK's client gives up on the 401
        asyncio.run(without_token())
    assert refused.group_contains(MCPError, match="Server returned an error response")
    # Defence: every request must carry the token; the refusal says how to send it.
    for token in (None, "", "not-the-token", bridge.token + "x"):
        status, headers, body = post(bridge.url, token)
        assert status == 401
        assert headers["www-authenticate"] == 'Bearer realm="droidsim mcp"'
        assert json.loads(body)["error"].startswith("missing or wrong bearer token")
    assert post(bridge.url, bridge.token)[0] == 200


def test_a_token_file_is_private_kept_across_restarts_and_never_a_link(bridged, tmp_path):
    device, _bridge = bridged
    token_file = tmp_path / "mcp.token"
    with HttpBridgeProcess(device.data_dir, AGENT, "--token-file", str(token_file), cwd=REPO) as first:
        assert token_file.stat().st_mode & 0o777 == 0o600
        assert first.token == token_file.read_text().strip()
        assert post(first.url, first.token)[0] == 200
    with HttpBridgeProcess(device.data_dir, AGENT, "--token-file", str(token_file), cwd=REPO) as second:
        assert second.token == first.token  # a client config that names the file stays valid
    token_file.chmod(0o644)
    with pytest.raises(RuntimeError, match="is not a token file of this user's alone"):
        HttpBridgeProcess(device.data_dir, AGENT, "--token-file", str(token_file), cwd=REPO)
    token_file.unlink()
    (tmp_path / "elsewhere").write_text("x" * 40)
    token_file.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(RuntimeError, match="cannot use .* as the token file"):
        HttpBridgeProcess(device.data_dir, AGENT, "--token-file", str(token_file), cwd=REPO)


@needs_root
def test_an_app_with_the_token_is_refused_by_its_uid(bridged):
    device, bridge = bridged
    app_uid = device.os_user.os_uid(device.registry.get(INTRUDER).uid)
    # The app presents the real token (as if it had stolen it) from inside its own process.
    outcome = intrude(device, "postJson", bridge.url, bridge.token, INITIALIZE)
    # Defence: the kernel names the connection's peer (by both ends) as the app's uid.
    status, _, body = outcome.partition(" ")
    assert status == "403", outcome
    assert json.loads(body)["error"] == (f"the kernel names this connection's peer as uid {app_uid}, an installed "
                                         "app's: apps may not use the agent's bridge")
    assert intrude(device, "postJson", bridge.url, "", INITIALIZE).startswith("403 ")
    assert os.geteuid() == 0 and post(bridge.url, bridge.token)[0] == 200  # the device's user, with the token


def post_as(url: str, token: str, headers: dict[str, str], uid: int | None = None) -> int:
    """The status of an initialize POST with ``headers`` added, sent by a process of ``uid``
    (this process's own if None)."""
    script = ("import json, sys, urllib.request, urllib.error\n"
              "request = urllib.request.Request(sys.argv[1], data=sys.argv[3].encode(), method='POST',\n"
              "    headers={'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',\n"
              "             'Authorization': 'Bearer ' + sys.argv[2], **json.loads(sys.argv[4])})\n"
              "try:\n    print(urllib.request.urlopen(request, timeout=60).status)\n"
              "except urllib.error.HTTPError as error:\n    print(error.code)\n")
    # Another uid may not enter the folder this interpreter lives in: the system's, which needs only the stdlib.
    python = sys.executable if uid is None else shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3 in /usr/bin for a process of another uid")
    command = [python, "-I", "-c", script, url, token, INITIALIZE, json.dumps(headers)]
    if uid is not None:  # dropped by a fresh interpreter: a fork of this one (gRPC's threads and fork handlers) may crash
        command = [sys.executable, "-I", "-c", "import os, sys\nos.setgroups([]); os.setgid(int(sys.argv[1]))\n"
                   "os.setuid(int(sys.argv[1])); os.execv(sys.argv[2], sys.argv[2:])", str(uid), *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd="/")
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


@pytest.mark.parametrize("host", ["127.0.0.2", "::1", "127.0.0.1"])
def test_every_loopback_address_refuses_other_host_names_and_origins(bridged, host):
    """A page whose name resolves to the bound address (DNS rebinding) sends that name as its
    Host and Origin: refused on 127.0.0.2 as on 127.0.0.1 (the SDK guarded only the latter)."""
    if host == "::1" and not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    device, _ = bridged
    with HttpBridgeProcess(device.data_dir, AGENT, "--host", host, cwd=REPO) as bridge:
        port = urlsplit(bridge.url).port
        named = f"[{host}]" if ":" in host else host
        assert post_as(bridge.url, bridge.token, {}) == 200
        assert post_as(bridge.url, bridge.token, {"Host": f"rebound.example:{port}"}) == 421
        assert post_as(bridge.url, bridge.token, {"Origin": f"http://rebound.example:{port}"}) == 403
        assert post_as(bridge.url, bridge.token, {"Origin": f"http://{named}:{port}"}) == 200


@needs_root
def test_a_local_account_in_the_app_uid_range_is_not_taken_for_an_app(bridged):
    """nobody (65534) is a person's account, not one of the device's apps: served with the token,
    as any other local user; the device's apps are told by the device, not by a uid range."""
    _device, bridge = bridged
    assert post_as(bridge.url, bridge.token, {}, uid=65534) == 200
    assert post_as(bridge.url, "not-the-token", {}, uid=65534) == 401
