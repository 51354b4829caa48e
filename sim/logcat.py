"""The device log: every system service and app process writes to DATA/logcat.txt."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable

LOG_NAME = "logcat.txt"
FORMAT = "%(asctime)s %(levelname).1s %(name)s: %(message)s"


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
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def follow_log(data_dir: Path, follow: bool, emit: Callable[[str], None]) -> None:
    path = data_dir / LOG_NAME
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: has this device been started?")
    with path.open() as log:
        while True:
            line = log.readline()
            if line:
                emit(line.rstrip("\n"))
            elif not follow:
                return
            else:
                time.sleep(0.2)
