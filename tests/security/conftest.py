"""A device run as root with the malicious app installed, in a folder every uid may walk
through (/tmp), so that what stops an attack is the device's own defence, never a private
folder above it."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from sim.device import Device
from tests.helpers import EVENT_BOUND, HELPER_APP, copy_app

MALICIOUS_APP = Path(__file__).parent / "apps" / "malicious"
MALICIOUS = "com.example.malicious"

needs_root = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="needs root: only a device run as root can give each app its own uid (docs/security.md)",
)


@pytest.fixture
def open_folder():
    """A fresh folder under /tmp that every uid may enter (mkdtemp makes it 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="droidsim-security-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def malicious_device(folder: Path) -> Iterator[Device]:
    """A served device with the malicious app and one victim app (the CTS helper)."""
    device = Device(folder / "data", cancellation_timeout=1.0)
    try:
        device.install(copy_app(MALICIOUS_APP, folder / "apps"))
        device.install(copy_app(HELPER_APP, folder / "apps"))
        device.serve()
        yield device
    finally:
        device.shutdown()


@pytest.fixture
def served(open_folder):
    with malicious_device(open_folder) as device:
        yield device


def attack(device: Device, function: str, arg: str = "") -> str:
    """Run one of the malicious app's functions, as the shell asks it to."""
    request = ExecuteAppFunctionRequest(MALICIOUS, function, AppFunctionData({"arg": arg}))
    with device.shell_context() as shell:
        return shell.app_function_manager.execute_app_function(request).return_value


def alive(pid: int) -> bool:
    """Running: neither gone nor a zombie its parent has not reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone(pid: int, timeout: float = EVENT_BOUND) -> bool:
    """Whether ``pid`` ends within ``timeout`` seconds (a kill takes milliseconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False
