"""ApkArchive: an APK's zip read only as far as its central directory allows, before anything inflates.

An APK is hostile input. Everything that can be refused from the central directory alone is
refused here, before one byte is inflated: a file that is no zip (or a truncated one), entry
names that would leave a folder (``../``, absolute, backslashes, NUL), the same name twice
(two readers could see two different manifests), more entries or more declared bytes than
the device takes (a zip bomb), an App Bundle, an APK set or a split APK, which the device
cannot install as one package. Reading an entry afterwards is bounded by its declared size
(read a chunk at a time, up to that size, and then its CRC checked), so a lying header inflates
no further.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath

from sim.apk.errors import ApkError

MIB = 1024 * 1024
# The same bound as an app folder's (sim/pm/installer.py MAX_APP_BYTES).
MAX_APK_BYTES = 256 * MIB
# Real APKs hold a few thousand entries; a hundred thousand is past any of them.
MAX_ENTRIES = 100_000
# What all entries may declare together once inflated, and what one entry the decoder reads may.
MAX_INFLATED_BYTES = 1024 * MIB
MAX_ENTRY_BYTES = 32 * MIB

MANIFEST = "AndroidManifest.xml"
UNIVERSAL = "build a universal APK (bundletool build-apks --mode=universal, or ./gradlew assembleDebug)"


class ApkArchive:
    """The zip of one APK, checked; ``name`` is how errors call it (``app.apk``)."""

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        if len(data) > MAX_APK_BYTES:
            raise ApkError("INSTALL_FAILED_INVALID_APK", f"{name} is {len(data)} bytes; the device takes at most {MAX_APK_BYTES}")
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{name} is not an APK: not a readable zip ({error})") from None
        self._check_entries(infos)
        self._infos = {info.filename: info for info in infos}
        self._refuse_other_formats()
        if MANIFEST not in self._infos:
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{name} is not an APK: it has no {MANIFEST}")

    def _check_entries(self, infos: list[zipfile.ZipInfo]) -> None:
        if len(infos) > MAX_ENTRIES:
            raise ApkError("INSTALL_FAILED_INVALID_APK", f"{self.name} has {len(infos)} entries; the device takes at most {MAX_ENTRIES}")
        seen: set[str] = set()
        declared = 0
        for info in infos:
            entry = info.filename
            if _escapes(entry):
                raise ApkError("INSTALL_FAILED_INVALID_APK", f"{self.name} has an entry named {entry!r}, which leads out of the APK")
            if entry in seen:
                raise ApkError("INSTALL_FAILED_INVALID_APK", f"{self.name} has two entries named {entry!r}")
            seen.add(entry)
            declared += info.file_size
            if declared > MAX_INFLATED_BYTES:
                raise ApkError("INSTALL_FAILED_INVALID_APK",
                             f"{self.name} declares more than {MAX_INFLATED_BYTES} bytes once inflated (a zip bomb?)")

    def _refuse_other_formats(self) -> None:
        names = self._infos
        if "BundleConfig.pb" in names or "base/manifest/AndroidManifest.xml" in names:
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{self.name} is an Android App Bundle (.aab), not an APK: {UNIVERSAL}")
        if "toc.pb" in names or (MANIFEST not in names and any(n.endswith(".apk") for n in names)):
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{self.name} is an APK set (.apks), not an APK: {UNIVERSAL}")

    def entries(self) -> list[str]:
        return list(self._infos)

    def has(self, entry: str) -> bool:
        return entry in self._infos

    def read(self, entry: str) -> bytes:
        """One entry, inflated no further than its declared size (at most MAX_ENTRY_BYTES)."""
        info = self._info(entry)
        if info.file_size > MAX_ENTRY_BYTES:
            raise ApkError("INSTALL_FAILED_INVALID_APK",
                         f"{self.name}!/{entry} declares {info.file_size} bytes; the device reads at most {MAX_ENTRY_BYTES}")
        # A size, not ZipFile.read: reading to the end inflates all the compressed bytes at once
        # (1 MB of them can hold 1000 MiB) before it cuts the result to the declared size.
        with self._inflating(entry), self._zip.open(info) as stream:
            return stream.read(info.file_size)

    def digest(self, entry: str, algorithm: str) -> bytes:
        """The hashlib ``algorithm`` digest of one entry, inflated a chunk at a time (no further
        than its declared size, which the archive's total bounds): for a signature's check."""
        digest = hashlib.new(algorithm)
        with self._inflating(entry), self._zip.open(self._info(entry)) as stream:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
        return digest.digest()

    def _info(self, entry: str) -> zipfile.ZipInfo:
        info = self._infos.get(entry)
        if info is None:
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{self.name} has no entry {entry}")
        return info

    @contextmanager
    def _inflating(self, entry: str) -> Iterator[None]:
        try:
            yield
        except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError, ValueError) as error:
            raise ApkError("INSTALL_FAILED_INVALID_APK", f"{self.name}!/{entry} cannot be inflated: {error}") from None


def _escapes(entry: str) -> bool:
    if not entry or "\\" in entry or "\0" in entry or entry.startswith("/"):
        return True
    return ".." in PurePosixPath(entry).parts
