"""Who may use the MCP bridge over HTTP: whoever holds its bearer token, and never an app.

The bridge acts as an agent app: whoever reaches it calls that agent's functions, answers its
confirmations, and the access history blames the agent. A loopback port is open to every
process of the machine, installed apps included, so each request must show the token the
bridge made at start (``Authorization: Bearer TOKEN``; docs/mcp.md), and a peer the kernel
names as one of the device's apps (sim/server/tcp_peers.py: by the whole connection) is
refused whatever it shows, as the device refuses to take an app for anyone else. Which uids
are the device's apps is read from the device (``DeviceAppUids``), never guessed from a range:
a person's account may have any uid. The kernel is asked once per connection, as it opens
(``PeerVerdicts``), not for every request on it. A web page that reaches the port through a
name of its own (DNS rebinding) is refused by its Host and Origin (``rebinding_guard``).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any, Callable

from sim.server.tcp_peers import peer_sockets
from sim.zygote.os_user import FIRST_ISOLATED_UID, LAST_ISOLATED_UID, PER_USER_RANGE

# What the bridge prints after its URL, then the token itself or "in PATH" (sim/mcp/process.py reads it).
TOKEN_ANNOUNCEMENT = "Bearer token (send as Authorization: Bearer TOKEN): "

PeerUids = Callable[[tuple, tuple], set[int]]


def kernel_peer_uids(client: tuple, server: tuple) -> set[int]:
    """The uids the kernel lists for the client's end of this connection (none: not local)."""
    return {uid for uid, _inode in peer_sockets(client, server)}


class DeviceAppUids:
    """Whether an OS uid is one the device at ``data_dir`` runs its apps under. The device
    gives each installed app's data folder (``DATA/data/PKG``) to the uid its processes run as
    (sim/pm/installer.py), so the folders' owners are its apps' uids, read as each connection
    opens (an app installed since counts); its verifier runs app code under the isolated uids
    (99000-99999) of the same OS user (sim/zygote/os_user.py). A device that gives apps no uids
    of their own (run without root) runs them as its own user: no uid tells them apart there,
    and only the token guards the bridge."""

    def __init__(self, data_dir: Path) -> None:
        self._data_dir = data_dir

    def __call__(self, uid: int) -> bool:
        try:
            device_user = self._data_dir.stat().st_uid
            owners = {entry.stat().st_uid for entry in os.scandir(self._data_dir / "data")} - {device_user}
        except OSError:  # no app installed yet (or the device's folder is gone): none of them
            return False
        if uid in owners:
            return True
        user, app = divmod(uid, PER_USER_RANGE)
        return FIRST_ISOLATED_UID <= app <= LAST_ISOLATED_UID and user in {owner // PER_USER_RANGE for owner in owners}


def rebinding_guard(host: str) -> Any:
    """The MCP SDK's Host/Origin checks (HTTP 421/403) for the address the bridge binds. The SDK
    turns them on for 127.0.0.1, localhost and ::1 only: on 127.0.0.2 a page whose name resolves
    there could drive the bridge from a browser. Here every address that is one host gets them:
    a request must name that address (or localhost, for the addresses localhost stands for),
    on any port (a proxy in front keeps the name). None for a wildcard address (0.0.0.0, ::),
    which names every address of the machine, as the SDK does."""
    from mcp.server.transport_security import TransportSecuritySettings

    bare = host.strip("[]")
    try:
        if ipaddress.ip_address(bare).is_unspecified:
            return None
    except ValueError:  # a host name
        pass
    names = ["127.0.0.1", "localhost", "[::1]"] if bare in ("127.0.0.1", "localhost", "::1") else [
        f"[{bare}]" if ":" in bare else bare]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=[f"{n}:*" for n in names],
                                     allowed_origins=[f"http://{n}:*" for n in names])


class PeerVerdicts:
    """The app uid the kernel names at the other end of each open connection, if any: asked
    when the connection opens and forgotten when it closes, so a later connection that
    reuses the same addresses is asked again. ``is_app`` tells an app's uid (``DeviceAppUids``)."""

    def __init__(self, is_app: Callable[[int], bool], peer_uids: PeerUids = kernel_peer_uids) -> None:
        self._is_app = is_app
        self._peer_uids = peer_uids
        self._app_uids: dict[tuple, int | None] = {}

    def protocol(self, base: type) -> type:
        """``base`` (uvicorn's HTTP protocol) that records each connection's verdict."""
        from uvicorn.protocols.utils import get_local_addr, get_remote_addr

        verdicts = self

        class PeerNamingProtocol(base):  # type: ignore[misc, valid-type]
            def connection_made(self, transport: Any) -> None:
                self._droidsim_ends = (get_remote_addr(transport), get_local_addr(transport))
                verdicts._opened(self._droidsim_ends)
                super().connection_made(transport)

            def connection_lost(self, exc: Exception | None) -> None:
                verdicts._app_uids.pop(self._droidsim_ends, None)
                super().connection_lost(exc)

        return PeerNamingProtocol

    def _opened(self, ends: tuple) -> None:
        self._app_uids[ends] = self._ask(ends)

    def _ask(self, ends: tuple) -> int | None:
        client, server = ends
        apps = sorted(uid for uid in self._peer_uids(client, server) if self._is_app(uid)) if client and server else []
        return apps[0] if apps else None

    def app_uid(self, client: tuple | None, server: tuple | None) -> int | None:
        key = (tuple(client) if client else None, tuple(server) if server else None)
        if key in self._app_uids:
            return self._app_uids[key]
        return self._ask(key)  # a connection this protocol did not open (another server's): ask now


class BearerTokenGate:
    """ASGI middleware: a request from an app's uid gets 403, one without the token 401."""

    def __init__(self, app: Any, token: str, verdicts: PeerVerdicts) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()
        self._verdicts = verdicts

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":  # lifespan events carry no request
            await self._app(scope, receive, send)
            return
        app_uid = self._verdicts.app_uid(scope.get("client"), scope.get("server"))
        if app_uid is not None:
            await _refuse(send, 403, f"the kernel names this connection's peer as uid {app_uid}, an installed "
                                     "app's: apps may not use the agent's bridge")
            return
        presented = dict(scope["headers"]).get(b"authorization", b"")
        if not hmac.compare_digest(presented, self._expected):
            await _refuse(send, 401, "missing or wrong bearer token: send the token droidsim mcp printed or "
                                     "wrote (--token-file) as 'Authorization: Bearer TOKEN'")
            return
        await self._app(scope, receive, send)


async def _refuse(send: Callable, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="droidsim mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def bridge_token(path: Path | None) -> str:
    """A fresh token; or, given ``path``, the one kept there, written first if there is none.

    The file is the bridge user's alone: created exclusively with mode 0600, never through a
    link; an existing one is used only if it is a regular file of this user's, no one else
    may read or write it, and it has one name."""
    if path is None:
        return secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)  # a FIFO there never blocks
    except FileNotFoundError:
        token = secrets.token_urlsafe(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
        return token
    except OSError as error:
        raise ValueError(f"cannot use {path} as the token file: {error.strerror}") from None
    with os.fdopen(fd) as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077 or info.st_nlink != 1:
            raise ValueError(f"{path} is not a token file of this user's alone (a regular file, mode 0600, "
                             "one link): refusing to trust it")
        token = f.read(4096).strip()
    if len(token) < 32:
        raise ValueError(f"{path} holds no token (at least 32 characters); remove it and one is written")
    return token
