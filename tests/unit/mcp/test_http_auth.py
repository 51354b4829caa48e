"""The bridge's HTTP gate, on a real uvicorn server in this process: the kernel is asked about
each connection once, as it opens; a peer named as an app's uid gets 403, a request without the
token 401 (sim/mcp/http_auth.py). The bridge itself is tested in tests/security/test_mcp_bridge.py."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import threading

import pytest
import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from sim.mcp.http_auth import BearerTokenGate, DeviceAppUids, PeerVerdicts, bridge_token
from tests.helpers import EVENT_BOUND

TOKEN = "t" * 43


async def hello(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


@pytest.fixture
def serve():
    running = []

    def start(peer_uids) -> tuple[int, list]:
        asked: list[tuple] = []

        def counting(client, server):
            asked.append((client, server))
            return peer_uids(client, server)

        verdicts = PeerVerdicts(lambda uid: uid == 10005, counting)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        config = uvicorn.Config(BearerTokenGate(hello, TOKEN, verdicts), log_level="warning", lifespan="off",
                                http=verdicts.protocol(AutoHTTPProtocol))
        server = uvicorn.Server(config)
        thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listener])), daemon=True)
        thread.start()
        running.append((server, thread))
        return listener.getsockname()[1], asked

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(EVENT_BOUND)  # uvicorn's loop ends once it sees should_exit


def get(connection: http.client.HTTPConnection, token: str | None) -> tuple[int, str]:
    connection.request("GET", "/", headers={"Authorization": f"Bearer {token}"} if token else {})
    response = connection.getresponse()
    return response.status, response.read().decode()


def test_the_kernel_is_asked_once_per_connection_not_per_request(serve):
    port, asked = serve(lambda client, server: {0})
    first = http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND)
    assert [get(first, TOKEN)[0] for _ in range(3)] == [200, 200, 200]
    assert len(asked) == 1
    client, server = asked[0]
    assert client == first.sock.getsockname()[:2] and server == ("127.0.0.1", port)
    second = http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND)
    assert get(second, TOKEN)[0] == 200
    assert len(asked) == 2
    first.close()
    second.close()


def test_an_app_peer_is_refused_whatever_it_shows_and_a_request_without_the_token_too(serve):
    port, _ = serve(lambda client, server: {10005})
    status, body = get(http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND), TOKEN)
    assert (status, json.loads(body)["error"]) == (403, "the kernel names this connection's peer as uid 10005, "
                                                        "an installed app's: apps may not use the agent's bridge")
    port, _ = serve(lambda client, server: {0, 1000})  # root and a person: no app
    assert get(http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND), None)[0] == 401
    assert get(http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND), TOKEN[:-1])[0] == 401
    assert get(http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_BOUND), TOKEN) == (200, "hello")
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: giving folders to other uids, as a device run as root does")
def test_the_devices_apps_are_told_by_its_data_folders_not_by_a_uid_range(tmp_path):
    """Two apps of a device on OS user 2 (sim/zygote/os_user.py): their uids, and that user's
    isolated range, are apps; nobody (65534), an app uid of a user no app has, the device's own
    user and root are not."""
    data = tmp_path / "data"
    for package, uid in (("com.example.a", 210003), ("com.example.b", 210004)):
        (data / package).mkdir(parents=True)
        os.chown(data / package, uid, uid)
    is_app = DeviceAppUids(tmp_path)
    assert [is_app(uid) for uid in (210003, 210004, 299000, 299999)] == [True] * 4
    assert [is_app(uid) for uid in (65534, 10003, 210005, 99500, 399500, 0, os.geteuid())] == [False] * 7
    assert not DeviceAppUids(tmp_path / "no-device")(210003)


def test_a_fifo_where_the_token_file_should_be_is_refused_at_once(tmp_path):
    fifo = tmp_path / "mcp.token"
    os.mkfifo(fifo, 0o600)
    with pytest.raises(ValueError, match="is not a token file of this user's alone"):
        bridge_token(fifo)  # opened without blocking, then refused: not a regular file
