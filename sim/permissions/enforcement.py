"""Checks at the top of privileged binder methods: who is calling decides, nothing else."""

from __future__ import annotations

from droid.os.binder import SYSTEM_UID, Binder
from droid.os.exceptions import SecurityException


def require_shell_or_root(action: str) -> None:
    """The operations adb's shell may do and apps may not (system_server itself may too)."""
    caller = Binder.get_calling_identity()
    if not (caller.is_shell or caller.is_root or caller.uid == SYSTEM_UID):
        raise SecurityException(f"{caller.package_name} (uid {caller.uid}) may not {action}: only the shell or root may")
