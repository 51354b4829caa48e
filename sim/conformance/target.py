"""ConformanceTarget: the device under test, as the cases see it.

A case gets Contexts (the shell, the caller app, the helper app), the package manager to
install, clear and uninstall, the apps' data folders (where the CTS-like apps leave lifecycle
traces and where credentials live, as adb reads them), and the device's shell command.
:func:`open_target` installs the helper apps shipped under tests/conformance/apps through the
PackageManager as the shell, as CTS installs its helper APKs, and removes them afterwards.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from droid.content.context import Context

CALLER_PACKAGE = "android.app.appfunctions.cts"
HELPER_PACKAGE = "android.app.appfunctions.cts.helper"
# A package no test installs: "other package, nonexistent".
NONEXISTENT_PACKAGE = "android.app.appfunctions.cts.nonexistent"

# Folder under the apps root -> the package it holds.
CONFORMANCE_APPS = {"helper": HELPER_PACKAGE, "caller": CALLER_PACKAGE}

SHELL_COMMAND_TIMEOUT = 60.0
_CREATED = re.compile(r"created pid=(\d+)")


def default_apps_root() -> Path:
    """tests/conformance/apps of the checkout this package runs from."""
    return Path(__file__).resolve().parents[2] / "tests" / "conformance" / "apps"


@dataclass(frozen=True)
class DeviceHandle:
    """How to reach a device: its address, its data folder, and Contexts on it.

    ``open_context(None)`` is the shell; ``open_context(package)`` acts as an installed package.
    ``cancellation_timeout`` is how long the device lets a cancelled call run before it stops
    the app (DeviceConfig execute_app_function_cancellation_timeout_millis).
    """

    address: str
    data_dir: Path
    cancellation_timeout: float
    open_context: Callable[[str | None], Context]


class ConformanceTarget:
    def __init__(self, device: DeviceHandle, shell: Context, apps_root: Path) -> None:
        self.device = device
        self.shell = shell
        self.apps_root = apps_root
        self._contexts: dict[str, Context] = {}

    @property
    def caller(self) -> Context:
        """android.app.appfunctions.cts: holds EXECUTE_APP_FUNCTIONS, has functions of its own."""
        return self._context(CALLER_PACKAGE)

    @property
    def helper(self) -> Context:
        """android.app.appfunctions.cts.helper: no EXECUTE_APP_FUNCTIONS."""
        return self._context(HELPER_PACKAGE)

    def _context(self, package: str) -> Context:
        if package not in self._contexts:
            self._contexts[package] = self.device.open_context(package)
        return self._contexts[package]

    def close(self) -> None:
        for context in self._contexts.values():
            context.close()
        self._contexts.clear()

    @property
    def cancellation_timeout(self) -> float:
        return self.device.cancellation_timeout

    # packages
    @property
    def package_manager(self):
        return self.shell.get_system_service(Context.PACKAGE_SERVICE)

    def clear_package_data(self, package: str) -> None:
        """``pm clear``: stops the app, deletes its files, resets its functions' enabled state."""
        self.package_manager.clear_package_data(package)

    def install(self, package: str):
        """Install (or update) a conformance app from the apps root, as the shell; its Context
        is opened anew, since an install after an uninstall gives the package a new identity."""
        folder = next(name for name, p in CONFORMANCE_APPS.items() if p == package)
        info = self.package_manager.install_package(str((self.apps_root / folder).resolve()), False)
        if info.package_name != package:
            raise ValueError(f"{self.apps_root / folder} holds {info.package_name}, expected {package}")
        self._forget_context(package)
        return info

    def uninstall(self, package: str) -> None:
        self.package_manager.uninstall_package(package)
        self._forget_context(package)

    def _forget_context(self, package: str) -> None:
        stale = self._contexts.pop(package, None)
        if stale is not None:
            stale.close()

    # what the CTS-like apps leave in their data folders (testutils.py)
    def app_data_dir(self, package: str) -> Path:
        return self.device.data_dir / "data" / package

    def events(self, package: str) -> list[str]:
        try:
            return (self.app_data_dir(package) / "events.log").read_text().splitlines()
        except FileNotFoundError:
            return []

    def app_pid(self, package: str) -> int | None:
        """The pid of the app's latest service creation, or None if none is recorded."""
        pids = [int(m[1]) for line in self.events(package) if (m := _CREATED.fullmatch(line))]
        return pids[-1] if pids else None

    # the device's shell, as a user types it
    def shell_command(self, *args: str) -> subprocess.CompletedProcess:
        """``droidsim shell cmd app_function ARGS`` against this device, in its own process."""
        command = [
            sys.executable, "-m", "sim.cli", "--device", self.device.address, "--data", str(self.device.data_dir),
            "shell", "cmd", "app_function", *args,
        ]
        env = {k: v for k, v in os.environ.items() if k not in ("DROIDSIM_DEVICE", "DROIDSIM_DATA")}
        return subprocess.run(
            command, capture_output=True, text=True, timeout=SHELL_COMMAND_TIMEOUT, env=env, stdin=subprocess.DEVNULL
        )


def process_alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a process of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def open_target(device: DeviceHandle, apps_root: Path | None = None) -> Iterator[ConformanceTarget]:
    """Install the conformance apps, start them from a clean state, yield the target, and
    uninstall what this call installed (packages that were there before stay installed)."""
    apps_root = Path(apps_root or default_apps_root())
    missing = [name for name in CONFORMANCE_APPS if not (apps_root / name / "AndroidManifest.xml").is_file()]
    if missing:
        raise FileNotFoundError(
            f"{apps_root} lacks the conformance app {missing[0]!r}: point at tests/conformance/apps of a droidsim checkout"
        )
    with contextlib.ExitStack() as cleanup:
        shell = device.open_context(None)
        cleanup.callback(shell.close)
        target = ConformanceTarget(device, shell, apps_root)
        package_manager = target.package_manager
        before = {p.package_name for p in package_manager.list_packages()}
        for package in CONFORMANCE_APPS.values():
            target.install(package)
            if package not in before:
                cleanup.callback(package_manager.uninstall_package, package)
            target.clear_package_data(package)
        cleanup.callback(target.close)
        yield target
