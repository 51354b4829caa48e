"""InstallError: the one way an install is refused, raised by the parser and the installer."""

from __future__ import annotations

from droid.os.exceptions import IllegalArgumentException


class InstallError(IllegalArgumentException):
    """A refused install; the message starts with Android's INSTALL_* reason."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
