"""Who is calling: the identity a system service sees for the duration of a call.

On Android the kernel stamps every binder transaction with the caller's uid. Here
the binder layer (local or gRPC) sets it from a verified credential before the
service method runs, and services read it with ``Binder.get_calling_uid()``.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from typing import Iterator

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
    @contextlib.contextmanager
    def calling_as(identity: CallingIdentity) -> Iterator[None]:
        """Run the body as a call from ``identity`` (what the binder does per transaction)."""
        token = _calling.set(identity)
        try:
            yield
        finally:
            _calling.reset(token)
