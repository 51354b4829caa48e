"""Credentials: how a process proves which package it is.

On Android the kernel tells a service who is calling. Here a connection the device relayed
from an app process (sim/server/app_socket.py) is named by the kernel too, whatever it
presents; every other caller presents the secret its package got at install (kept in its
data folder, mode 0600, owned by the app's uid). The device keeps only hashes.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from pathlib import Path

from typing import Callable

from droid.content.device_address import MAX_CREDENTIAL_BYTES
from droid.os.binder import FIRST_APPLICATION_UID, SHELL, CallingIdentity
from sim import safe_files


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()



def write_secret(path: Path, secret: str, owner: int | None = None) -> None:
    """Atomically, readable by its owner only (``owner``, else the device's user); never
    through a link or a temporary name someone planted in the folder (sim/safe_files.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    safe_files.write_file(path.parent, path.name, secret.encode(), mode=0o600, owner=owner)


def read_secret(path: Path) -> str:
    """The secret in ``path``: a regular file of its own, never read through a link."""
    return safe_files.read_file(path, MAX_CREDENTIAL_BYTES).decode("utf-8", "replace").strip()


# Secrets recently presented with success, kept so a caller's every call is not hashed again.
RECENT_SECRETS = 1024


class Authenticator:
    """Maps presented secrets to identities; the only source of a caller's identity."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_hash: dict[str, CallingIdentity] = {}
        # Only secrets that matched, so garbage credentials cannot grow it; emptied on every
        # change of who is registered, so a forgotten or replaced secret stops working at once.
        self._recent: dict[str, CallingIdentity] = {}
        # Relayed app connections (sim/server/peer_relay.py), by the peer address gRPC reports for them.
        self._by_peer: dict[str, CallingIdentity] = {}

    def register(self, credential_hash: str, identity: CallingIdentity) -> None:
        with self._lock:
            self._forget_identity(identity)
            self._by_hash[credential_hash] = identity

    def forget(self, identity: CallingIdentity) -> None:
        """Revoke ``identity``'s credential and connections: by uid and package together, so
        no package can take another identity's credential away by sharing its name."""
        with self._lock:
            self._forget_identity(identity)
            for peer in [p for p, v in self._by_peer.items() if v == identity]:
                del self._by_peer[peer]

    def _forget_identity(self, identity: CallingIdentity) -> None:
        self._recent = {}
        for key in [k for k, v in self._by_hash.items() if v == identity]:
            del self._by_hash[key]

    def app_identity_of_uid(self, uid: int) -> CallingIdentity | None:
        """The installed app that runs as ``uid``; None for any other uid."""
        if uid < FIRST_APPLICATION_UID:
            return None
        with self._lock:
            return next((v for v in self._by_hash.values() if v.uid == uid), None)

    def bind_peer(self, peer: str, identity: CallingIdentity) -> None:
        with self._lock:
            self._by_peer[peer] = identity

    def unbind_peer(self, peer: str) -> None:
        with self._lock:
            self._by_peer.pop(peer, None)

    def identify(self, secret: str | None, peer: Callable[[], str] | None = None) -> CallingIdentity | None:
        """A relayed app connection is its app, whatever secret it shows; else the secret's owner."""
        if peer is not None and self._by_peer:
            named = self._by_peer.get(peer())
            if named is not None:
                return named
        if not secret:
            return None
        # Neither lookup leaks a secret through timing: the first hashes with the interpreter's
        # random per-process key before it compares, the second goes by SHA-256 digest.
        identity = self._recent.get(secret)
        if identity is not None:
            return identity
        with self._lock:
            identity = self._by_hash.get(hash_secret(secret))
            if identity is not None:
                if len(self._recent) >= RECENT_SECRETS:
                    self._recent = {}
                self._recent[secret] = identity
        return identity


def ensure_shell_credential(data_dir: Path, authenticator: Authenticator) -> Path:
    """The shell's secret (adb's role): whoever can read the data directory may act as shell."""
    path = data_dir / "shell.credential"
    if not os.path.lexists(path):
        write_secret(path, new_secret())
    authenticator.register(hash_secret(read_secret(path)), SHELL)
    return path
