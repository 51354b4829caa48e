"""A decoded APK as a folder on disk, and its paths told back in the APK's own terms.

The installer writes the decoded files into its staging folder; ``droidsim apk extract`` and
``droidsim lint APP.apk`` into a folder of their own (sim/pm/apk_tools.py). Either way each name is checked first:
what the decoder answers was read from hostile input, so it is treated like anything an app
wrote. Messages about the folder's files (install refusals, lint findings) then name the APK's
entries instead: ``shop.apk!/assets/order_functions.xml:12``.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from sim.apk.archive import MANIFEST, MAX_APK_BYTES
from sim.apk.decode import DecodedApk
from sim.apk.errors import ApkError

_XML_RESOURCE = re.compile(r"res/xml/[a-z0-9_]+\.xml")


def write_folder(decoded: DecodedApk, folder: Path) -> None:
    """Every decoded file into the existing ``folder``, each a new file readable by every uid
    (as an installed app's files are), never written through a link."""
    for file in decoded.files:
        path = folder / _checked(file.path)
        _require_fits(folder, file.path)
        for parent in reversed(path.relative_to(folder).parents[:-1]):
            (folder / parent).mkdir(mode=0o755, exist_ok=True)
        write_new(path, file.text.encode())


def write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    os.chmod(path, 0o644)


def in_apk_terms(text: str, folder: Path, apk_name: str, decoded: DecodedApk) -> str:
    """``text`` with each path into ``folder`` replaced by ``apk_name!/entry``."""
    pattern = re.compile(re.escape(str(folder)) + r"/([\w./-]+?)(?=[:\s,)'\"]|$)")
    return pattern.sub(lambda m: f"{apk_name}!/{decoded.entry_of(m[1])}", text)


def read_apk(apk: Path) -> bytes:
    """The APK's bytes, refused past the size the device takes, or if it is no regular file
    (opened without blocking: a pipe named like an APK would block its reader for ever)."""
    try:
        fd = os.open(apk, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ApkError("INSTALL_FAILED_INVALID_APK", f"{apk} is not a regular file")
            data = file.read(MAX_APK_BYTES + 1)
    except OSError as error:
        raise ApkError("INSTALL_FAILED_INVALID_APK", f"{apk} cannot be read: {error.strerror}") from None
    if len(data) > MAX_APK_BYTES:
        raise ApkError("INSTALL_FAILED_INVALID_APK", f"{apk} is larger than the {MAX_APK_BYTES} bytes the device takes")
    return data


def _require_fits(folder: Path, path: str) -> None:
    """An APK's entry may have any name; a file here one the file system takes (NAME_MAX for each
    part, PATH_MAX whole), or writing it fails with nothing to tell the user but ENAMETOOLONG."""
    name_max, path_max = os.pathconf(folder, "PC_NAME_MAX"), os.pathconf(folder, "PC_PATH_MAX")
    longest = max(len(part.encode()) for part in PurePosixPath(path).parts)
    if longest > name_max or len(os.fsencode(folder / path)) >= path_max:
        shown = path if len(path) <= 60 else f"{path[:40]}…{path[-16:]}"
        raise ApkError("INSTALL_FAILED_INVALID_APK",
                       f"the APK's entry {shown} has a name of {len(path.encode())} bytes: droidsim keeps an APK's "
                       f"assets and resources as files, and this file system takes names of at most {name_max} "
                       f"bytes (paths of at most {path_max})")


def _checked(path: str) -> str:
    parts = PurePosixPath(path).parts
    if path == MANIFEST or _XML_RESOURCE.fullmatch(path):
        return path
    if len(parts) > 1 and parts[0] == "assets" and ".." not in parts and os.path.normpath(path) == path:
        return path
    raise ApkError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", f"the APK decoder answered a file named {path!r}")
