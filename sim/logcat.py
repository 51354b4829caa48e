"""The device log: every system service and app process writes to DATA/logcat.txt.

Much of what is logged comes from apps: each line an app process prints (logged as
``app.PACKAGE``), and the errors, names and values apps send. None of it may forge a device
line or reach the terminal of whoever runs ``droidsim logcat`` as a control sequence (OSC,
CSI, a carriage return that overwrites the line's start). So every record is written with its
control characters escaped (``\x1b``, ``\r``...), and a record's further lines (a traceback,
a message with a newline in it) are indented: only a record's first line starts with a
timestamp, and what follows it is the logger's name, ``droidsim.*`` for the device and
``app.PACKAGE`` for what an app wrote. ``droidsim logcat`` escapes again as it prints.
"""

from __future__ import annotations

import logging
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

LOG_NAME = "logcat.txt"
FORMAT = "%(asctime)s %(levelname).1s %(name)s: %(message)s"
CONTINUATION = "\n    "
# C0 controls but tab and newline, DEL, C1 controls, and the Unicode line, paragraph and
# bidirectional-override characters that reorder or break a line on a terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escaped(text: str) -> str:
    """``text`` with every control character but tab and newline written as its escape."""
    return _CONTROL.sub(lambda match: match[0].encode("unicode_escape").decode(), text)


def neutralised(text: str) -> str:
    """``text`` escaped, a newline kept only as the start of an indented continuation line,
    so it cannot begin what looks like another record."""
    return escaped(text).replace("\n", CONTINUATION)


class NeutralisingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return neutralised(super().format(record))


def configure_device_logging(data_dir: Path) -> None:
    """Everything from INFO up goes to the log file; the device's window (the handlers already
    configured) keeps WARNING and up, so advice such as install-time lint stays out of it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for console in root.handlers:
        if console.level < logging.WARNING:
            console.setLevel(logging.WARNING)
    handler = logging.FileHandler(data_dir / LOG_NAME)
    (data_dir / LOG_NAME).chmod(0o600)  # the device's only: it names packages, callers, errors
    handler.setFormatter(NeutralisingFormatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(logging.INFO)


@contextmanager
def device_errors_only() -> Iterator[None]:
    """Within it, the device's loggers pass on only errors: what a measured device tells its
    developer (an unsigned test APK, lint advice) is not news in a measurement. The level
    is restored after, so a caller in the same process (a test) keeps its logging."""
    device = logging.getLogger("droidsim")
    saved = device.level
    device.setLevel(logging.ERROR)
    try:
        yield
    finally:
        device.setLevel(saved)


def follow_log(data_dir: Path, follow: bool, emit: Callable[[str], None]) -> None:
    path = data_dir / LOG_NAME
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: has this device been started?")
    with path.open(errors="replace") as log:
        while True:
            line = log.readline()
            if line:
                emit(escaped(line.rstrip("\n")))
            elif not follow:
                return
            else:
                time.sleep(0.2)
