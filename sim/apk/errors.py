"""ApkError: an APK refused, with Android's INSTALL_* reason (the installer raises it as an InstallError)."""

from __future__ import annotations


class ApkError(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
