"""Running `droidsim mcp` in its own process for the SDK's client (tests/e2e/test_mcp*.py)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from mcp import StdioServerParameters

from sim.mcp.process import HttpBridgeProcess, bridge_command
from tests.helpers import EVENT_BOUND, REPO


def stdio_server(data: Path, agent: str, *options: str) -> StdioServerParameters:
    """What an MCP client that starts its server (Claude Desktop, Claude Code) runs."""
    command, *args = bridge_command(data, agent, *options)
    return StdioServerParameters(command=command, args=args, cwd=str(REPO), env=dict(os.environ))


def http_bridge(data: Path, agent: str, *options: str) -> HttpBridgeProcess:
    return HttpBridgeProcess(data, agent, *options, cwd=REPO)


class AuthorizingProxy:
    """A loopback HTTP/1.1 proxy that adds the bridge's bearer token to every request and
    passes everything else through as it came (Host and Origin included), for a client that
    cannot be given a header: the MCP conformance suite."""

    def __init__(self, bridge: HttpBridgeProcess) -> None:
        import asyncio
        from urllib.parse import urlsplit

        target = urlsplit(bridge.url)
        self._upstream = (target.hostname, target.port)
        self._header = f"Authorization: Bearer {bridge.token}\r\n".encode()
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), daemon=True)
        self._thread.start()
        assert ready.wait(EVENT_BOUND), "the proxy's loop to start listening"
        self.url = f"http://127.0.0.1:{self._port}{target.path}"

    def _serve(self, ready: threading.Event) -> None:
        import asyncio

        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._relay, "127.0.0.1", 0))
        self._port = server.sockets[0].getsockname()[1]
        ready.set()
        self._loop.run_forever()

    async def _relay(self, client_reader, client_writer) -> None:
        import asyncio

        upstream_reader, upstream_writer = await asyncio.open_connection(*self._upstream)

        async def responses() -> None:
            while data := await upstream_reader.read(65536):
                client_writer.write(data)
                await client_writer.drain()
            client_writer.close()

        answering = asyncio.ensure_future(responses())
        try:
            while head := await client_reader.readuntil(b"\r\n\r\n"):
                request_line, _, headers = head.partition(b"\r\n")
                lines = headers.lower().split(b"\r\n")
                if any(line.startswith(b"transfer-encoding:") for line in lines):
                    raise ValueError("the proxy passes Content-Length bodies only")
                length = next((int(line.split(b":", 1)[1]) for line in lines if line.startswith(b"content-length:")), 0)
                upstream_writer.write(request_line + b"\r\n" + self._header + headers)
                upstream_writer.write(await client_reader.readexactly(length))
                await upstream_writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            upstream_writer.close()
            await answering

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(EVENT_BOUND)
