"""Who is calling: the identity a system service sees for the duration of a call.

On Android the kernel stamps every binder transaction with the caller's uid. Here
the binder layer (local or gRPC) sets it from a verified credential before the
service method runs, and services read it with ``Binder.get_calling_uid()``.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass

ROOT_UID = 0
SYSTEM_UID = 1000
SHELL_UID = 2000
FIRST_APPLICATION_UID = 10000

SHELL_PACKAGE = "com.android.shell"
SYSTEM_PACKAGE = "android"


@dataclass(frozen=True)
class CallingIdentity:
    uid: int
    package_name: str

    @property
    def is_shell(self) -> bool:
        return self.uid == SHELL_UID

    @property
    def is_root(self) -> bool:
        return self.uid == ROOT_UID


SYSTEM = CallingIdentity(SYSTEM_UID, SYSTEM_PACKAGE)
SHELL = CallingIdentity(SHELL_UID, SHELL_PACKAGE)

_calling: contextvars.ContextVar[CallingIdentity] = contextvars.ContextVar(
    "droid_calling_identity", default=SYSTEM
)


class Binder:
    """Static access to the current call's identity, as ``android.os.Binder``."""

    @staticmethod
    def get_calling_identity() -> CallingIdentity:
        return _calling.get()

    @staticmethod
    def get_calling_uid() -> int:
        return _calling.get().uid

    @staticmethod
    def get_calling_package() -> str:
        return _calling.get().package_name

    @staticmethod
    def calling_as(identity: CallingIdentity) -> "_CallingAs":
        """Run the body as a call from ``identity`` (what the binder does per transaction)."""
        return _CallingAs(identity)


class _CallingAs:
    """``with Binder.calling_as(identity):`` -- a class, not a generator: every call enters one."""

    __slots__ = ("_identity", "_token")

    def __init__(self, identity: CallingIdentity) -> None:
        self._identity = identity

    def __enter__(self) -> None:
        self._token = _calling.set(self._identity)

    def __exit__(self, *exc: object) -> None:
        _calling.reset(self._token)
