"""The MCP bridge's end of the app's tool server (sim/agent_app/tool_server.py).

Requests may come from any thread and overlap; a reader thread hands each reply to the
future of its request id. When the app's process ends, every waiting request fails, naming it.
What the app sends is the app's: a line longer than ``MAX_LINE``, nested deeper than
``MAX_DEPTH``, holding text that is no Unicode (a lone surrogate: valid JSON that no client can
be sent), anything but a JSON object, or a reply whose id is no request's number ends the
exchange as the app's process ending does, naming what was wrong, so no request waits on a
reader that failed. A reply of the wrong shape for its request (tool_replies.py) fails that
request alone, naming the field.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
from concurrent.futures import Future
from typing import Any

from sim.agent_app.tool_replies import reply_problem
from sim.agent_app.tool_server import MAX_LINE

# A reply holds a tool's outcome: an AppFunction result (at most 30 document levels, two JSON
# levels each where repeated) or a local tool's JSON; far below Python's recursion limit.
MAX_DEPTH = 100


class AgentProcessGone(RuntimeError):
    """The app's agent process ended, or broke the protocol."""


class ToolClient:
    def __init__(self, connection: socket.socket, package: str) -> None:
        self._connection = connection
        self._package = package
        self._file = connection.makefile("rb")
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[str, Future]] = {}
        self._gone: str | None = None
        hello = self._read()
        if problem := reply_problem("hello", hello):
            raise AgentProcessGone(f"{package}'s agent process said hello {problem}")
        if hello.get("error"):
            raise AgentProcessGone(hello["error"])
        self.agent: dict[str, Any] | None = hello.get("agent")
        self._reader = threading.Thread(target=self._read_replies, name=f"agent-tools-{package}", daemon=True)
        self._reader.start()

    def submit(self, op: str, **fields: Any) -> Future:
        future: Future = Future()
        with self._lock:
            if self._gone is not None:
                future.set_exception(AgentProcessGone(self._gone))
                return future
            request_id = next(self._ids)
            data = json.dumps({"id": request_id, "op": op, **fields}, ensure_ascii=False).encode() + b"\n"
            try:
                self._connection.sendall(data)
            except OSError as error:
                future.set_exception(AgentProcessGone(f"{self._package}'s agent process: {error}"))
                return future
            self._waiting[request_id] = (op, future)
        return future

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.submit(op, **fields).result()

    def close(self) -> None:
        try:
            self._connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._connection.close()

    def _read(self) -> dict[str, Any]:
        line = self._file.readline(MAX_LINE + 1)
        if not line:
            raise AgentProcessGone(f"{self._package}'s agent process ended")
        sent = f"{self._package}'s agent process sent"
        if len(line) > MAX_LINE:
            raise AgentProcessGone(f"{sent} a line longer than {MAX_LINE} bytes, the bound of its tool socket")
        try:
            message = json.loads(line)
        except RecursionError:
            raise AgentProcessGone(f"{sent} JSON nested deeper than {MAX_DEPTH} levels, the bound of its tool socket") from None
        except ValueError:
            raise AgentProcessGone(f"{sent} {line[:200]!r}, not JSON") from None
        if not isinstance(message, dict):
            raise AgentProcessGone(f"{sent} {line[:200]!r}, not a JSON object")
        if problem := _unfit(message, MAX_DEPTH):
            raise AgentProcessGone(f"{sent} {problem}")
        return message

    def _read_replies(self) -> None:
        try:
            while True:
                reply = self._read()
                request_id = reply.get("id")
                if type(request_id) is not int:  # isinstance would take true for request 1
                    raise AgentProcessGone(f"{self._package}'s agent process sent a reply whose id is "
                                           f"{json.dumps(request_id)[:100]}, no request's number")
                with self._lock:
                    op, future = self._waiting.pop(request_id, (None, None))
                if future is None:
                    continue
                if problem := reply_problem(op, reply):
                    future.set_exception(AgentProcessGone(f"{self._package}'s agent process answered {op} {problem}"))
                else:
                    future.set_result(reply)
        except (AgentProcessGone, OSError) as error:
            with self._lock:
                self._gone = str(error) if isinstance(error, AgentProcessGone) else f"{self._package}'s agent process: {error}"
                waiting, self._waiting = [future for _, future in self._waiting.values()], {}
            for future in waiting:
                future.set_exception(AgentProcessGone(self._gone))


def _unfit(value: Any, bound: int) -> str | None:
    """What makes ``value`` unfit to pass on: lists and objects nested more than ``bound``
    levels, or text (a value or a key) that is no Unicode. Walked without recursion: what was
    parsed may sit near the interpreter's limit."""
    level, depth = [value], 0  # the values inside ``depth`` levels
    while True:
        texts = [item for item in level if isinstance(item, str)]
        texts += [key for item in level if isinstance(item, dict) for key in item]
        if bad := next((text for text in texts if not _is_unicode(text)), None):
            return f"text that is no Unicode ({bad[:40]!r} holds a lone surrogate), which no client can be sent"
        containers = [item for item in level if isinstance(item, (dict, list))]
        if not containers:
            return None
        if depth == bound:
            return f"JSON nested deeper than {bound} levels, the bound of its tool socket"
        level = [child for item in containers for child in (item.values() if isinstance(item, dict) else item)]
        depth += 1


def _is_unicode(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True
