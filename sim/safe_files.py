"""File operations the device does with its privileges in folders someone else can write.

An app owns its data folder, and whoever hands the device an app folder owns that; either may
have put a symbolic link, a hard link, a FIFO or a folder where the device expects its own
file, or created the temporary name the device is about to use. So every such operation here
works on descriptors: folders opened without following links, new files created exclusively
under random names, owner and mode changed on the open descriptor (never by name), and a file
the device is to trust or hand over refused unless it is a regular file with one link
(droid/content/safe_read.py, which a droidsim command reading an app's credential shares). As
``installd`` does on Android, the device acts only on what it opened.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from pathlib import Path

from droid.content.safe_read import NO_SURPRISES as _NO_SURPRISES
from droid.content.safe_read import RefusedFileError, opened, read_file, refusal

__all__ = ["RefusedFileError", "open_folder", "own", "read_file", "remove", "replace", "write_file"]


def open_folder(path: Path) -> int:
    """A descriptor of the folder ``path``, refused where its last component is a link."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | _NO_SURPRISES)
    except OSError as error:
        raise refusal(path, error) from None


def write_file(folder: Path, name: str, data: bytes, *, mode: int, owner: int | None = None,
               durable: bool = True) -> None:
    """Replace ``folder/name`` with a new regular file holding ``data``, atomically: written
    under a fresh random name created exclusively, given ``mode`` (and ``owner``) on its
    descriptor, then renamed over whatever ``name`` was (a link planted there is replaced,
    never followed; a folder planted there is removed first). ``durable``: on disk before
    the rename (a secret); a copy whose commit comes later need not wait for each file."""
    folder_fd = open_folder(folder)
    try:
        temporary = f".{name}.{secrets.token_hex(8)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_SURPRISES, 0o600, dir_fd=folder_fd)
        try:
            try:
                if owner is not None:
                    os.fchown(fd, owner, owner)
                os.fchmod(fd, mode)
                _write_all(fd, data)
                if durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            _rename_over(folder_fd, temporary, name)
        except BaseException:
            _remove_entry(folder_fd, temporary)
            raise
    finally:
        os.close(folder_fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def replace(folder: Path, source: str, target: str) -> None:
    """Rename ``folder/source`` over ``folder/target`` (a link there is replaced, a folder
    removed); both names are taken in the folder the device opened."""
    folder_fd = open_folder(folder)
    try:
        _rename_over(folder_fd, source, target)
    finally:
        os.close(folder_fd)


def _rename_over(folder_fd: int, source: str, target: str) -> None:
    try:
        os.rename(source, target, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except IsADirectoryError:  # a folder where a file belongs: removed, never walked through links
        shutil.rmtree(target, dir_fd=folder_fd)
        os.rename(source, target, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)


def own(path: Path, *, mode: int, owner: int | None = None, dir_fd: int | None = None) -> None:
    """Give the folder or file at ``path`` ``mode`` (and ``owner``), on its descriptor:
    refused for a link, and for anything but a folder or a regular file with one link (a hard
    link would hand over the other name's file too). With ``dir_fd``, the entry named
    ``path.name`` in that opened folder (``path`` names it in messages)."""
    with opened(path, dir_fd, folder_too=True) as (fd, _status):
        if owner is not None:
            os.fchown(fd, owner, owner)
        os.fchmod(fd, mode)


def remove(folder: Path, name: str) -> None:
    """Remove ``folder/name`` whatever it is, following no link (a link goes, not its target)."""
    folder_fd = open_folder(folder)
    try:
        _remove_entry(folder_fd, name)
    finally:
        os.close(folder_fd)


def _remove_entry(folder_fd: int, name: str) -> None:
    try:
        status = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(status.st_mode):
        shutil.rmtree(name, dir_fd=folder_fd)
    else:
        os.unlink(name, dir_fd=folder_fd)
