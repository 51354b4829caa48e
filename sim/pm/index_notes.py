"""IndexNote: something of what an app declares that Android's AppFunction indexer leaves out.

The install indexes what the device's SDK indexes and says what it left out, where, and what to
change: in logcat and in the install's output (``droidsim install``), and lint reports the same
notes for both SDKs (I2, docs/lint-rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass


# What a note is about, so that lint can tell them apart.
ONE_SERVICE = "one-service"  # Android 16 indexes one service per package (lint R1 says more)
LOST = "lost"  # functions, or what agents read of them, are not indexed
SKIPPED = "skipped"  # an element of a file is not read
APP_LEVEL = "app-level"  # Android 16 reads no application-level file


@dataclass(frozen=True)
class IndexNote:
    file: str
    line: int
    message: str
    fix: str = ""
    kind: str = LOST

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" + (f" {self.fix}" if self.fix else "")
