"""Opening and reading a file someone else may have put there: an app owns its data folder, so
its ``credential`` may have become a symbolic link (to another app's credential, to the shell's),
a hard link, a FIFO (a read that never returns), a device (``/dev/zero``: one that never ends)
or a folder. Whoever reads it with privileges (the device, a droidsim command run as root)
opens it without following a link and without blocking or taking a terminal, checks on the
descriptor that it is a regular file with one link, and reads at most what is expected there.
sim/safe_files.py builds the device's other file operations on these.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Iterator

# Never block on a FIFO, never take a terminal, never follow a link in the last component.
NO_SURPRISES = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
DEVICE = "the device"


class RefusedFileError(OSError):
    """What is at a path is not what may be acted on there; the message says why."""


def read_file(path: Path, limit: int, dir_fd: int | None = None, *, reader: str = DEVICE) -> bytes:
    """The bytes of the regular, singly linked file at ``path``, at most ``limit`` of them;
    refused for a link, a FIFO, a device, a folder or a hard link (it may name a secret).
    ``dir_fd``: ``path.name`` in that opened folder (``path`` names it in messages);
    ``reader`` names who refuses, in the messages."""
    with opened(path, dir_fd, folder_too=False, reader=reader) as (fd, status):
        if status.st_size > limit:
            raise RefusedFileError(f"{path} holds {status.st_size} bytes; at most {limit} are expected there")
        with os.fdopen(fd, "rb", closefd=False) as file:
            return file.read(limit)


@contextlib.contextmanager
def opened(path: Path, dir_fd: int | None, folder_too: bool, reader: str = DEVICE) -> Iterator[tuple[int, os.stat_result]]:
    """The entry opened without following a link, and checked on its descriptor: a regular
    file with one link (or, ``folder_too``, a folder)."""
    try:
        if dir_fd is None:
            fd = os.open(path, os.O_RDONLY | NO_SURPRISES)
        else:
            fd = os.open(path.name, os.O_RDONLY | NO_SURPRISES, dir_fd=dir_fd)
    except OSError as error:
        raise refusal(path, error, reader) from None
    try:
        status = os.fstat(fd)
        if not (folder_too and stat.S_ISDIR(status.st_mode)):
            _check_single_regular_file(path, status, reader)
        yield fd, status
    finally:
        os.close(fd)


def _check_single_regular_file(path: Path, status: os.stat_result, reader: str) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise RefusedFileError(f"{path} is not a regular file ({_kind(status.st_mode)}); {reader} refuses it there")
    if status.st_nlink > 1:
        raise RefusedFileError(
            f"{path} has {status.st_nlink} hard links; {reader} refuses a file that another name shares")


def refusal(path: Path, error: OSError, reader: str = DEVICE) -> OSError:
    if error.errno == errno.ELOOP:  # with O_NOFOLLOW: the last component is a symbolic link
        return RefusedFileError(f"{path} is a symbolic link; {reader} never follows a link there")
    if error.errno == errno.ENOTDIR:
        return RefusedFileError(f"{path} is not a folder; {reader} refuses it there")
    if error.errno == errno.ENXIO:  # opening a socket
        return RefusedFileError(f"{path} is a socket; {reader} refuses it there")
    return error


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a plain file"
