"""What an app writes reaches the device log and `droidsim logcat`, but can neither forge a
device line nor send a terminal control sequence (sim/logcat.py). Holds with or without root."""

from __future__ import annotations

import logging
import re

import pytest

from sim.device import Device
from sim.logcat import LOG_NAME, configure_device_logging
from tests.helpers import copy_app, droidsim, wait_until
from tests.security.test_doors import INTRUDER, INTRUDER_APP, intrude

# A window title (OSC), a carriage return back over the line's start, a forged device line,
# a line erase (CSI), a bidirectional override and a Unicode line separator.
FORGERY = ("\x1b]0;owned\x07\r2026-12-01 00:00:00,000 W droidsim.server: the shell was granted everything"
           "\x1b[2K\u202e\u2028tail")
RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [DIWEC] ")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def logged(open_folder):
    """A device whose log goes to its data directory, as `droidsim device start` configures it."""
    root, before = logging.getLogger(), list(logging.getLogger().handlers)
    level = root.level
    with Device(open_folder / "data") as device:
        device.install(copy_app(INTRUDER_APP, open_folder / "apps"))
        configure_device_logging(device.data_dir)
        try:
            yield device
        finally:
            for handler in [h for h in root.handlers if h not in before]:
                root.removeHandler(handler)
                handler.close()
            root.setLevel(level)


def log_lines(device: Device, marker: str) -> list[str]:
    path = device.data_dir / LOG_NAME
    wait_until(lambda: marker in path.read_text(errors="replace"), f"{marker!r} to reach the log")
    return path.read_text().splitlines()


def test_an_apps_output_is_one_marked_line_without_control_characters(logged):
    intrude(logged, "printLine", FORGERY)
    lines = log_lines(logged, "tail")
    forged = [line for line in lines if "granted everything" in line]
    # Defence: every control character escaped; the line is the app's, named so, from its start.
    assert len(forged) == 1 and not CONTROL.search(forged[0])
    assert re.match(RECORD_START.pattern + re.escape(f"app.{INTRUDER}: \\x1b]0;owned\\x07\\r2026-12-01"), forged[0])
    tail = [line for line in lines if line.endswith("tail")]
    assert tail == forged  # the line separator did not start a line of its own
    # What `droidsim logcat` prints is the same, escaped line.
    printed = droidsim("logcat", data=logged.data_dir)
    assert printed.returncode == 0, printed.stderr
    assert forged[0] in printed.stdout.splitlines() and not CONTROL.search(printed.stdout)


def test_a_newline_in_a_logged_value_cannot_start_a_device_line(logged):
    # As when a device message quotes what an app sent (an error, a function id).
    logging.getLogger("droidsim.zygote").error("%s sent a malformed result: %s", INTRUDER,
                                              "bad\n2026-12-01 00:00:00,000 W droidsim.server: forged")
    lines = log_lines(logged, "forged")
    at = next(i for i, line in enumerate(lines) if "sent a malformed result" in line)
    assert RECORD_START.match(lines[at])
    # Defence: a record's further lines are indented: only a record's first line starts with a time.
    assert lines[at + 1] == "    2026-12-01 00:00:00,000 W droidsim.server: forged"
    assert not RECORD_START.match(lines[at + 1])


def test_a_line_an_app_never_ends_is_logged_as_it_comes_never_held_whole(logged):
    """An app printed without a newline: the device read its output a line at a time and held
    the whole line (1.2 GiB written, the device 1.2 GiB larger). Defence: a line that does not
    end is logged 64 KiB at a time (sim/zygote/hosts.py); here 1 MiB of a line the app keeps
    open reaches the log while the app runs on."""
    size = 1024 * 1024
    assert intrude(logged, "printWithoutEnd", size) == "printed"
    path = logged.data_dir / LOG_NAME
    wait_until(lambda: sum(map(len, re.findall("L{1000,}", path.read_text(errors="replace")))) >= size,
               "the app's unended line to reach the log")
