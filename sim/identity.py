"""Credentials: how a process proves which package it is.

On Android the kernel tells a service who is calling; here each package gets a
secret at install, kept in its data folder (mode 0600), and presents it on every
call. The device keeps only hashes and maps a presented secret to (uid, package).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from pathlib import Path

from droid.os.binder import SHELL, CallingIdentity


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def write_secret(path: Path, secret: str) -> None:
    """Atomically, readable by the owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secret)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


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

    def register(self, credential_hash: str, identity: CallingIdentity) -> None:
        with self._lock:
            self._forget_identity(identity)
            self._by_hash[credential_hash] = identity

    def forget(self, identity: CallingIdentity) -> None:
        with self._lock:
            self._forget_identity(identity)

    def _forget_identity(self, identity: CallingIdentity) -> None:
        self._recent = {}
        for key in [k for k, v in self._by_hash.items() if v.package_name == identity.package_name]:
            del self._by_hash[key]

    def identify(self, secret: str | None) -> CallingIdentity | None:
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
    if not path.exists():
        write_secret(path, new_secret())
    authenticator.register(hash_secret(path.read_text().strip()), SHELL)
    return path
