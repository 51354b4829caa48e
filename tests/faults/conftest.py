"""Shared by the fault tests: the faulty app, device processes, and a client that must be served."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from droid.appfunctions import ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.content import connect
from droid.content.context import Context
from tests.helpers import EVENT_BOUND, HELPER_APP, HELPER_PACKAGE, DeviceProcess, copy_app

FAULTY_APP = Path(__file__).resolve().parent / "apps" / "faulty"
FAULTY = "com.example.faulty"
# How long a test waits for something the device must do soon: a deadline for a broken
# device, never a performance bound.
DEADLINE = EVENT_BOUND


def start_device(root: Path, *extra: str) -> DeviceProcess:
    """A device process with the CTS helper app and the faulty app installed."""
    apps = root / "apps"
    copy_app(HELPER_APP, apps)
    copy_app(FAULTY_APP, apps)
    return DeviceProcess(root / "data", apps, extra=extra)


@pytest.fixture(scope="module")
def fault_device(tmp_path_factory):
    """One device process per test module, with a 1 s cancellation timeout."""
    device = start_device(tmp_path_factory.mktemp("faults"), "--cancellation-timeout", "1")
    yield device
    device.stop()


def shell(device: DeviceProcess) -> Context:
    return connect(f"unix:{device.data / 'device.sock'}", (device.data / "shell.credential").read_text())


def execute(context: Context, package: str, function: str, signal=None, **params):
    request = ExecuteAppFunctionRequest(package, function, AppFunctionData(params))
    return context.app_function_manager.execute_app_function(request, signal).return_value


def events(device: DeviceProcess, package: str) -> list[str]:
    """The lifecycle traces an app leaves in its data folder (events.log)."""
    path = device.data / "data" / package / "events.log"
    return path.read_text().splitlines() if path.exists() else []


@contextmanager
def others_keep_being_served(device: DeviceProcess) -> Iterator[None]:
    """Around a block that mistreats the device: another client calls two apps throughout,
    and every one of its calls must get its own right answer."""
    stop = threading.Event()
    answers: list[bool] = []

    def bystander() -> None:
        with shell(device) as context:
            while not stop.is_set() or not answers:
                n = len(answers)
                answers.append(execute(context, HELPER_PACKAGE, "addAsync", a=n, b=1) == n + 1)
                answers.append(execute(context, FAULTY, "echo", text=f"call {n}") == f"call {n}")

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(bystander)
        try:
            yield
        finally:
            stop.set()
        running.result(DEADLINE)
    assert answers and all(answers), f"{answers.count(False)} of {len(answers)} calls of another client went wrong"
