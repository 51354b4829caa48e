"""The conformance target in this process: a fresh Device in a folder, apps in their own processes.

The device serves on a Unix socket in its data folder (the app processes and the shell command
reach it there), while the cases' own Contexts call the services directly, so a run in-process
exercises the local binder and a run against a device (``droidsim conformance``) the gRPC one.
A short cancellation timeout keeps the cancellation cases fast.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

from sim.conformance.target import DeviceHandle
from sim.device import Device

IN_PROCESS_CANCELLATION_TIMEOUT = 0.5


def device_handle(device: Device) -> DeviceHandle:
    """A served in-process Device as the cases reach it: Contexts straight to its services."""
    if device.address is None:
        raise ValueError("serve the device first: its apps and the shell command reach it at its address")

    def open_context(package: str | None):
        return device.shell_context() if package is None else device.create_context(package)

    return DeviceHandle(device.address, device.data_dir, device.processes.cancellation_timeout, open_context)


@contextlib.contextmanager
def served_device(
    data_dir: Path, cancellation_timeout: float = IN_PROCESS_CANCELLATION_TIMEOUT, sdk: int | None = None
) -> Iterator[Device]:
    """A fresh Device in ``data_dir`` (of SDK ``sdk``, else the newest), its apps in their own
    processes, serving on its socket."""
    with Device(data_dir, isolated_apps=True, cancellation_timeout=cancellation_timeout, sdk=sdk) as device:
        device.serve()
        yield device


@contextlib.contextmanager
def in_process_device(
    data_dir: Path, cancellation_timeout: float = IN_PROCESS_CANCELLATION_TIMEOUT, sdk: int | None = None
) -> Iterator[DeviceHandle]:
    with served_device(data_dir, cancellation_timeout, sdk) as device:
        yield device_handle(device)
