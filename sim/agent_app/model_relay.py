"""The model's API key stays in the command (``droidsim agent --as ... --model openai:NAME``).

The agent loop runs in the app's process, model calls included, but the app's code must not
read the user's key. So the app's process gets, instead of the key, one end of a socket pair:
its OpenAI client's HTTP transport (``RelayTransport``) sends the body of each
chat-completions request down it, and the command (``ModelRelay``) posts that body to
``BASE_URL/chat/completions`` with the key and streams the answer back. That is all the relay
does: no other path, method or header of the app's reaches the server, so the app may spend
the key on chat completions while the command runs, but never holds it.

Frames, each ``kind (1 byte) + length (4 bytes, big-endian) + payload``: the app sends ``R``
(a request body, at most 32 MiB); the command answers ``H`` (status and headers, JSON), then
``B`` (a piece of the body) until ``E``, or ``X`` (what failed, JSON) in place of any of them.
The timeouts are the command's (the model's ``connect_timeout`` and ``read_timeout``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import threading
from typing import Any, AsyncIterator

from droid.agent.models.openai_compat import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT

try:  # the HTTP library the openai SDK uses
    import httpx2 as _http
except ImportError:  # pragma: no cover - older SDKs
    import httpx as _http

OPENAI_API = "https://api.openai.com/v1"
# What the app's OpenAI client holds in place of the key.
RELAYED_KEY = "sk-relayed-by-droidsim"
MAX_REQUEST_BYTES = 32 * 1024 * 1024
_HEADER = struct.Struct(">cI")
# Describe the connection, not the body: the command's library framed it, the app's decodes it.
_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length"}


def _frame(kind: bytes, payload: bytes) -> bytes:
    return _HEADER.pack(kind, len(payload)) + payload


class ModelRelay:
    """The command's end: a thread making each request the app's process sends, with the key."""

    def __init__(self, base_url: str | None, api_key: str | None, model_options: dict[str, Any]) -> None:
        self.url = (base_url or OPENAI_API).rstrip("/") + "/chat/completions"
        self._headers = {"Content-Type": "application/json", "User-Agent": "droidsim-model-relay"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._timeout = _http.Timeout(model_options.get("read_timeout") or DEFAULT_READ_TIMEOUT,
                                      connect=model_options.get("connect_timeout") or DEFAULT_CONNECT_TIMEOUT)
        self._ours, self.theirs = socket.socketpair()
        self._thread = threading.Thread(target=self._serve, name="model-relay", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with self._ours, _http.Client(timeout=self._timeout) as client:
            while (body := self._request()) is not None:
                try:
                    self._relay(client, body)
                except OSError:  # the app's process has gone
                    return

    def _request(self) -> bytes | None:
        """The next request's body; None once the app's end is closed or breaks the framing."""
        try:
            kind, length = _HEADER.unpack(_receive(self._ours, _HEADER.size))
            if kind != b"R" or length > MAX_REQUEST_BYTES:
                return None
            return _receive(self._ours, length)
        except (OSError, EOFError, struct.error):
            return None

    def _relay(self, client: Any, body: bytes) -> None:
        try:
            with client.stream("POST", self.url, content=body, headers=self._headers) as response:
                headers = [(k, v) for k, v in response.headers.items() if k.lower() not in _HOP_BY_HOP]
                self._ours.sendall(_frame(b"H", json.dumps({"status": response.status_code, "headers": headers}).encode()))
                for piece in response.iter_raw():
                    self._ours.sendall(_frame(b"B", piece))
            self._ours.sendall(_frame(b"E", b""))
        except _http.HTTPError as error:
            kind = ("connect_timeout" if isinstance(error, _http.ConnectTimeout) else
                    "timeout" if isinstance(error, _http.TimeoutException) else
                    "connect" if isinstance(error, _http.ConnectError) else "error")
            self._ours.sendall(_frame(b"X", json.dumps({"kind": kind, "message": str(error)}).encode()))

    def close(self) -> None:
        self.theirs.close()
        with contextlib.suppress(OSError):  # the thread may have closed it, the app having broken the framing
            self._ours.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=5)


def _receive(connection: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        piece = connection.recv(size - len(data))
        if not piece:
            raise EOFError("the other end closed")
        data += piece
    return bytes(data)


_FAILURES = {"connect_timeout": _http.ConnectTimeout, "timeout": _http.ReadTimeout, "connect": _http.ConnectError}


class RelayTransport(_http.AsyncBaseTransport):
    """The app's end: its OpenAI client's transport. One request at a time over the socket."""

    def __init__(self, fd: int) -> None:
        self._socket = socket.socket(fileno=fd)
        self._socket.setblocking(False)
        self._lock: asyncio.Lock | None = None

    async def handle_async_request(self, request: Any) -> Any:
        if request.method != "POST" or not request.url.path.endswith("/chat/completions"):
            return _http.Response(404, json={"error": {"message": "droidsim relays chat completions only"}},
                                  request=request)
        body = await request.aread()
        self._lock = self._lock or asyncio.Lock()
        await self._lock.acquire()
        try:
            await asyncio.get_running_loop().sock_sendall(self._socket, _frame(b"R", body))
            head = json.loads(await self._expect(b"H", request))
        except BaseException:
            self._lock.release()
            raise
        return _http.Response(head["status"], headers=head["headers"], stream=_RelayedBody(self, request),
                              request=request)

    async def _next(self, request: Any) -> tuple[bytes, bytes]:
        loop = asyncio.get_running_loop()
        try:
            kind, length = _HEADER.unpack(await _receive_async(loop, self._socket, _HEADER.size))
            payload = await _receive_async(loop, self._socket, length)
        except (OSError, EOFError) as error:
            raise _http.ReadError(f"the model relay closed: {error}", request=request) from None
        if kind == b"X":
            failure = json.loads(payload)
            raise _FAILURES.get(failure["kind"], _http.ReadError)(failure["message"], request=request)
        return kind, payload

    async def _expect(self, kind: bytes, request: Any) -> bytes:
        got, payload = await self._next(request)
        if got != kind:
            raise _http.ReadError(f"the model relay sent {got!r} where {kind!r} was due", request=request)
        return payload

    async def aclose(self) -> None:
        """The socket stays open: a client made for another event loop shares this transport."""


class _RelayedBody(_http.AsyncByteStream):
    def __init__(self, transport: RelayTransport, request: Any) -> None:
        self._transport = transport
        self._request = request
        self._done = self._closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while not self._done:
            try:
                kind, payload = await self._transport._next(self._request)
            except _http.HTTPError:  # a failure ends the answer: nothing follows it
                self._done = True
                raise
            if kind == b"E":
                self._done = True
                return
            yield payload

    async def aclose(self) -> None:
        """Read to the end (the next request's answer follows it), then let the next request go."""
        if self._closed:
            return
        self._closed = True
        try:
            async for _ in self:
                pass
        except _http.HTTPError:
            pass
        finally:
            self._done = True
            assert self._transport._lock is not None
            self._transport._lock.release()


async def _receive_async(loop: asyncio.AbstractEventLoop, connection: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        piece = await loop.sock_recv(connection, size - len(data))
        if not piece:
            raise EOFError("the other end closed")
        data += piece
    return bytes(data)
