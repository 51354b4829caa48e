"""Installing an APK: staged as the text folder the install pipeline reads, decoded outside the device.

The installer hands an APK here before anything else: its bytes are read once (bounded) into
the staging folder as ``base.apk``, as Android keeps ``/data/app/<pkg>/base.apk``; the
verifier's child decodes that copy (sim/apk; a crash or hang there costs the child, never the
device) and the device writes what it answered, each name checked, beside it. From there on
the APK is a code-less app folder, and its errors name the APK's own entries
(``shop.apk!/assets/order_functions.xml:12``).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from sim.apk.archive import MANIFEST, MAX_APK_BYTES
from sim.apk.errors import ApkError
from sim.pm.install_error import InstallError
from sim.pm.registry import ApkFacts, InstalledPackage

if TYPE_CHECKING:
    from sim.apk.decode import DecodedApk
    from sim.pm.code_verifier import CodeVerifier

APK_FILE = "base.apk"
_XML_RESOURCE = re.compile(r"res/xml/[a-z0-9_]+\.xml")


def stage_apk(apk: Path, staging: Path, verifier: CodeVerifier, sdk: int) -> tuple[DecodedApk, ApkFacts]:
    """The APK at ``apk`` decoded for ``sdk`` into the new folder ``staging``."""
    data = _read(apk)
    staging.mkdir(mode=0o755)
    staging.chmod(0o755)  # the verifier's child, under an isolated uid, reads base.apk
    _write(staging / APK_FILE, data)
    try:
        decoded = verifier.decode_apk(staging, APK_FILE, sdk)
    except ApkError as error:
        raise InstallError(error.reason, error.detail.replace(APK_FILE, apk.name)) from None
    for file in decoded.files:
        _write(staging / _checked_path(file.path), file.text.encode())
    signing = decoded.signing
    return decoded, ApkFacts(apk.name, hashlib.sha256(data).hexdigest(), signing.schemes, signing.certificate_digests)


def named_in_apk(error: InstallError, staging: Path, apk_name: str, decoded: DecodedApk) -> InstallError:
    """``error`` with each decoded file's path in its message replaced by the APK entry it came from."""
    pattern = re.compile(re.escape(str(staging)) + r"/([\w./-]+?)(?=[:\s,)]|$)")
    message = pattern.sub(lambda m: f"{apk_name}!/{decoded.entry_of(m[1])}", error.args[0])
    renamed = InstallError(error.reason, message[len(error.reason) + 2:])
    return renamed


def check_signers(package_name: str, previous: InstalledPackage | None, apk: ApkFacts | None) -> None:
    """An update must be signed by the installed package's signers, as on Android; a folder and
    an unsigned APK have none, so either updates the other but not a signed APK."""
    if previous is None:
        return
    before = previous.manifest.apk.certificate_digests if previous.manifest.apk else ()
    now = apk.certificate_digests if apk else ()
    if before != now:
        raise InstallError(
            "INSTALL_FAILED_UPDATE_INCOMPATIBLE",
            f"{package_name} is installed signed by {_signers(before)}; this update is signed by {_signers(now)} "
            f"(uninstall it first to replace it)",
        )


def _signers(digests: tuple[str, ...]) -> str:
    return ", ".join(f"certificate SHA-256 {d}" for d in digests) if digests else "no one (unsigned or a folder)"


def _read(apk: Path) -> bytes:
    try:
        with open(apk, "rb") as file:
            data = file.read(MAX_APK_BYTES + 1)
    except OSError as error:
        raise InstallError("INSTALL_FAILED_INVALID_APK", f"{apk} cannot be read: {error.strerror}") from None
    if len(data) > MAX_APK_BYTES:
        raise InstallError("INSTALL_FAILED_INVALID_APK", f"{apk} is larger than the {MAX_APK_BYTES} bytes the device takes")
    return data


def _checked_path(path: str) -> str:
    """A decoded file's name, only where a decoded folder may have one: the child reads hostile
    input, so what it answers is checked like anything an app wrote."""
    parts = PurePosixPath(path).parts
    if path == MANIFEST or _XML_RESOURCE.fullmatch(path):
        return path
    if len(parts) > 1 and parts[0] == "assets" and ".." not in parts and os.path.normpath(path) == path:
        return path
    raise InstallError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", f"the APK decoder answered a file named {path!r}")


def _write(path: Path, data: bytes) -> None:
    """A new file (never through a link), readable by every uid as an installed app's files are."""
    for folder in reversed(path.parents):
        if not folder.exists():
            folder.mkdir(mode=0o755)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    os.chmod(path, 0o644)
