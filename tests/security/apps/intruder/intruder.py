"""An app that tries to pass as someone else at the device's doors, from inside its own process;
tests/security says which defence stops each attempt. Its one function ``attack`` takes
``{"attack": NAME, "args": [...]}`` and reports, as text, what it was allowed.

The helpers are plain functions, so a test may run the same steps as the device's own user
(the shell) for the other side of a race.
"""

from __future__ import annotations

import json
import os
import select
import socket
import sys
import tempfile
import threading
from pathlib import Path

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
from droid.content.context import connect
from droid.os import IllegalArgumentException

# What an attack keeps open after its call returns (ports held, connections piled up, locks).
_HELD: list = []


def _endpoint(address: str) -> tuple[int, tuple]:
    """(family, sockaddr) of HOST:PORT or [V6]:PORT."""
    host, _, port = address.rpartition(":")
    bare = host.strip("[]")
    return (socket.AF_INET6 if ":" in bare else socket.AF_INET), (bare, int(port))


def _bound(family: int, host: str, port: int) -> socket.socket:
    """A socket bound to HOST:PORT that shares the port with others (SO_REUSEADDR)."""
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, port))
    return s


def hold_port(host: str, port: int, target: str) -> int:
    """Connect from HOST:PORT (0: a free port) to ``target`` and keep the connection; the port."""
    family, sockaddr = _endpoint(target)
    s = _bound(family, host, port)
    s.connect(sockaddr)
    _HELD.append(s)
    return s.getsockname()[1]


def who_from_port(device: str, host: str, port: int, secret: str) -> str:
    """Reach the device at ``device`` from HOST:PORT, presenting ``secret``; who it says this is.

    gRPC cannot be given a bound socket, so it talks through a Unix socket that this
    process relays onto the TCP connection: the device sees only the TCP connection."""
    family, sockaddr = _endpoint(device)
    upstream = _bound(family, host, port)
    upstream.connect(sockaddr)
    folder = Path(tempfile.mkdtemp())
    path = folder / "relay.sock"
    local = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    local.bind(str(path))
    local.listen(1)
    threading.Thread(target=_relay_one, args=(local, upstream), daemon=True).start()
    try:
        with connect(f"unix:{path}", secret) as context:
            return f"the device says this is {context.package_name}"
    except Exception as error:  # the device's refusal, whatever form it takes
        return f"refused: {type(error).__name__}: {str(error)[:300]}"
    finally:
        upstream.close()
        local.close()


def _relay_one(local: socket.socket, upstream: socket.socket) -> None:
    """Carry one accepted connection onto ``upstream``, both ways, on this one thread."""
    try:
        connection, _ = local.accept()
    except OSError:
        return
    other_end = {connection: upstream, upstream: connection}
    try:
        while True:
            readable, _, _ = select.select(list(other_end), [], [])
            for source in readable:
                data = source.recv(65536)
                if not data:
                    return
                other_end[source].sendall(data)
    except (OSError, ValueError):  # ValueError: the caller closed upstream while select waited
        return
    finally:
        connection.close()


def pile_connections(address: str, count: int) -> str:
    """Open ``count`` connections to the device's app socket (``unix-abstract:NAME``) or a TCP
    address and keep them; JSON: the indexes of those the device closed at once."""
    opened = []
    for _ in range(count):
        if address.startswith("unix-abstract:"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(b"\0" + address.removeprefix("unix-abstract:").encode())
        else:
            family, sockaddr = _endpoint(address)
            s = socket.socket(family, socket.SOCK_STREAM)
            s.connect(sockaddr)
        opened.append(s)
    # A client preface, so a relayed connection has something to carry; a refused one reads EOF.
    closed = []
    for index, s in enumerate(opened):
        s.settimeout(10)
        try:
            s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            if s.recv(1, socket.MSG_PEEK) == b"":
                closed.append(index)
        except socket.timeout:
            pass  # open, and quiet: kept
        except OSError:
            closed.append(index)
    _HELD.extend(s for i, s in enumerate(opened) if i not in closed)
    return json.dumps(closed)


def let_go() -> str:
    """Close every socket an earlier attack kept."""
    count = len(_HELD)
    while _HELD:
        _HELD.pop().close()
    return str(count)


def post_json(url: str, token: str, body: str) -> str:
    """POST ``body`` to an HTTP endpoint (the MCP bridge) with a bearer token; "STATUS BODY"."""
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return f"{response.status} {response.read(300).decode(errors='replace')}"
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read(300).decode(errors='replace')}"


def print_line(text: str) -> str:
    """Write ``text`` to the process's output, which the device logs as this app's."""
    print(text, flush=True)
    return "printed"


def print_without_end(size: int) -> str:
    """Write ``size`` bytes of one line that never ends to the process's output, and leave the
    line open: whatever reads it line by line holds all of it."""
    sys.stdout.write("L" * size)
    sys.stdout.flush()
    return "printed"


def send_undecodable_reply() -> str:
    """Write a frame no AppReply decodes from onto the process's own socket to the device,
    then keep running, as an app that means to leave the call hanging would."""
    import struct
    import sys

    fd = int(sys.argv[sys.argv.index("--fd") + 1])
    garbage = b"\xff\xff\xff\xff"
    os.write(fd, struct.pack(">I", len(garbage)) + garbage)
    return "sent"


def hold_lock(path: str) -> str:
    """Open ``path`` as far as the OS lets this app (read-only is enough) and take its flock."""
    import errno
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as error:
        return f"refused: {errno.errorcode.get(error.errno, error.errno)} {error.strerror}"
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        return f"refused: {errno.errorcode.get(error.errno, error.errno)} {error.strerror}"
    _HELD.append(_Descriptor(fd))
    return "holding the lock"


class _Descriptor:
    """A held file descriptor, closed by let_go as the sockets are."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def close(self) -> None:
        os.close(self._fd)


ATTACKS = {
    "holdPort": hold_port,
    "whoFromPort": who_from_port,
    "pileConnections": pile_connections,
    "letGo": let_go,
    "postJson": post_json,
    "printLine": print_line,
    "printWithoutEnd": print_without_end,
    "sendUndecodableReply": send_undecodable_reply,
    "holdLock": hold_lock,
}


class IntruderFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({"attack"})

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        if request.function_identifier != "attack":
            raise IllegalArgumentException("Function does not exist")
        plan = json.loads(request.parameters.get_string("arg"))
        outcome = ATTACKS[plan["attack"]](*plan.get("args", []))
        callback.on_result(ExecuteAppFunctionResponse.of(str(outcome)))

