"""An APK opened by a developer's tool, outside any device: ``apk inspect``, ``apk extract``,
``lint APP.apk``, ``responses skeleton APP.apk``.

The APK is as hostile there as on a device, and the user's own process has more to lose, so it
is decoded as an install decodes it: by a spare of the verifier's zygote (sim/pm/spare_decoder.py),
confined, under the same CPU, memory and time bounds, whose refusal names the bound it hit.
What it answers goes into the tool's own temporary folder under a fixed name (never one the APK
chose: its package could be ``../../x`` or an absolute path), each file name checked
(sim/apk/folder.py), and its manifest is validated as install validates it before the tool
reads it or writes anything where the user asked: an APK install refuses for its manifest is
refused here with the same error.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sim.apk.errors import ApkError
from sim.apk.folder import in_apk_terms, read_apk, write_folder
from sim.pm.app_parser import checked_manifest
from sim.pm.code_verifier import CodeVerifier
from sim.pm.install_error import InstallError

if TYPE_CHECKING:
    from sim.apk.decode import DecodedApk

# The decoded folder's name in the tool's temporary folder.
APP_FOLDER = "app"


class ApkOpener:
    """APKs decoded for one run of a tool, by one verifier's zygote (started at the first)."""

    def __init__(self) -> None:
        self._verifier = CodeVerifier()

    def __enter__(self) -> ApkOpener:
        return self

    def __exit__(self, *exc: object) -> None:
        self._verifier.close()

    def decode(self, apk: Path, sdk: int) -> DecodedApk:
        """The APK at ``apk`` decoded for ``sdk``; ApkError if it is refused."""
        return self._verifier.decode_apk(read_apk(apk), apk.name, sdk)

    @contextmanager
    def extracted(self, apk: Path, sdk: int, *, checked: bool = True) -> Iterator[tuple[Path, DecodedApk]]:
        """The APK decoded into a temporary folder, its manifest checked, for tools that read
        folders; ApkError if either is refused. ``checked`` False: for a caller that runs all
        of install's checks on the folder itself (``apk inspect``, which reports them)."""
        decoded = self.decode(apk, sdk)
        with tempfile.TemporaryDirectory(prefix="droidsim-apk-") as scratch:
            folder = Path(scratch) / APP_FOLDER
            folder.mkdir()
            write_folder(decoded, folder)
            if checked:
                try:
                    checked_manifest(folder)
                except InstallError as error:
                    detail = str(error)[len(error.reason) + 2:]
                    raise ApkError(error.reason, in_apk_terms(detail, folder, apk.name, decoded)) from None
            yield folder, decoded


@contextmanager
def extracted(apk: Path, sdk: int, *, checked: bool = True) -> Iterator[tuple[Path, DecodedApk]]:
    """One APK, for a tool that opens one: :meth:`ApkOpener.extracted`."""
    with ApkOpener() as opener, opener.extracted(apk, sdk, checked=checked) as opened:
        yield opened
