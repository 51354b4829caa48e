"""The APKs a device decoded lately, by their bytes' SHA-256 and the SDK they were decoded for.

Installing the same build again (a test suite's fresh device per test, a reinstall on a
running device) then skips its decode. That is most of an APK install for a real app:
androguard reads all of its resources.arsc, some 0.2 s for a table of AndroidX's size
(docs/performance.md, "APK install"). Android's parsed-package cache (``PackageCacher``) is the
model, held in memory rather than under /data/system/package_cache.

Only decodes that succeeded are kept: a refusal is cheap to repeat, and a decoder that crashed
or hung may not do so again. What is kept was answered by a spare that decoded exactly those
bytes (sim/pm/spare_decoder.py), so it is what a fresh decode of them answers, and no decode of
other bytes can reach it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the APK reader's modules load at the first APK, not at boot
    from sim.apk.decode import DecodedApk

MAX_APKS = 16
# The decoded text kept at most, all APKs together: a catalog is kilobytes, a decode answer may
# be megabytes (sim/pm/verifier_child.py), and a device should not hold many of those.
MAX_TEXT_CHARS = 16 << 20


class DecodedApks:
    """A bounded, least-recently-used map of (SHA-256, SDK) to the APK's decode."""

    def __init__(self, max_apks: int = MAX_APKS, max_text_chars: int = MAX_TEXT_CHARS) -> None:
        self._max_apks = max_apks
        self._max_text_chars = max_text_chars
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, int], DecodedApk] = OrderedDict()
        self._text_chars = 0

    def get(self, sha256: str, sdk: int) -> DecodedApk | None:
        with self._lock:
            decoded = self._kept.get((sha256, sdk))
            if decoded is not None:
                self._kept.move_to_end((sha256, sdk))
            return decoded

    def keep(self, sha256: str, sdk: int, decoded: DecodedApk) -> None:
        """Keep ``decoded``, dropping the least recently used beyond the bounds; one larger
        than the whole bound is not kept."""
        size = _text_chars(decoded)
        if size > self._max_text_chars:
            return
        with self._lock:
            if (previous := self._kept.pop((sha256, sdk), None)) is not None:
                self._text_chars -= _text_chars(previous)
            self._kept[(sha256, sdk)] = decoded
            self._text_chars += size
            while len(self._kept) > self._max_apks or self._text_chars > self._max_text_chars:
                self._text_chars -= _text_chars(self._kept.popitem(last=False)[1])

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._text_chars = 0


def _text_chars(decoded: DecodedApk) -> int:
    return sum(len(file.text) for file in decoded.files)
