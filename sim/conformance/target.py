"""ConformanceTarget: the device under test, as the cases see it.

A case gets Contexts (the shell and each conformance app), the package manager to install,
clear and uninstall, the apps' data folders (where the CTS-like apps leave lifecycle traces and
where credentials live, as adb reads them), the device's shell command, and the access set-up
CTS makes with shell permissions: who holds EXECUTE_APP_FUNCTIONS, who is on the agent
allowlist, and which (agent, target) pairs are granted.

:func:`open_target` installs the apps shipped under tests/conformance/apps through the
PackageManager as the shell, as CTS installs its helper APKs; it makes the caller a privileged,
allowlisted agent through the same public calls a developer makes (docs/access-control.md,
"Making an agent app work"), and undoes all of it afterwards.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping

from droid.appfunctions.manager import ACCESS_FLAG_MASK_ALL
from droid.content.context import Context
from sim import safe_files
from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.appfunctions.agent_allowlist import (
    ADDITIONAL_AGENT_ALLOWLIST,
    DEVICE_CONFIG_AGENT_ALLOWLIST,
    parse_agent_list,
    serialize_agent_list,
)
from sim.device import SETTINGS_SERVICE
from sim.pm.signed_packages import SignedPackage

CALLER_PACKAGE = "android.app.appfunctions.cts"
HELPER_PACKAGE = "android.app.appfunctions.cts.helper"
SYSTEM_CALLER_PACKAGE = "android.app.appfunctions.cts.systemcaller"
LEVELED_PACKAGE = "android.app.appfunctions.cts.leveled"
MULTI_SERVICES_PACKAGE = "android.app.appfunctions.cts.helper.multiservices"
DISCOVERER_PACKAGE = "android.app.appfunctions.cts.discoverer"
# A package no test installs: "other package, nonexistent".
NONEXISTENT_PACKAGE = "android.app.appfunctions.cts.nonexistent"
# The lifecycle traces an app leaves (events.log) are a few lines; more is not that file.
MAX_EVENTS_BYTES = 1 << 20


@dataclass(frozen=True)
class ConformanceApp:
    folder: str  # under the apps root
    package: str
    system: bool = False  # installed as a system app, so its privileged permissions are granted


CONFORMANCE_APPS = (
    # The CTS helper: functions, no permissions.
    ConformanceApp("helper", HELPER_PACKAGE),
    # The CTS package: requests EXECUTE_APP_FUNCTIONS (held while on the privileged allowlist)
    # and has the helper's functions.
    ConformanceApp("caller", CALLER_PACKAGE),
    # V2Test's EXECUTE_APP_FUNCTIONS_SYSTEM holder: an agent without an AppFunctionService.
    ConformanceApp("system_caller", SYSTEM_CALLER_PACKAGE, system=True),
    # One function per Android 17 access level.
    ConformanceApp("leveled", LEVELED_PACKAGE),
    # CTS's helper-app-multi-services: two AppFunctionServices, a function each.
    ConformanceApp("multi_services", MULTI_SERVICES_PACKAGE),
    # DISCOVER_APP_FUNCTIONS alone (Android 17): sees, executes nothing.
    ConformanceApp("discoverer", DISCOVERER_PACKAGE, system=True),
)
_APPS = {app.package: app for app in CONFORMANCE_APPS}

# The agents the run puts on the agent allowlist (CTS sets it to its own package).
AGENTS = (CALLER_PACKAGE, SYSTEM_CALLER_PACKAGE)

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
        return self.context(CALLER_PACKAGE)

    @property
    def helper(self) -> Context:
        """android.app.appfunctions.cts.helper: no EXECUTE_APP_FUNCTIONS."""
        return self.context(HELPER_PACKAGE)

    def context(self, package: str) -> Context:
        """A Context acting as an installed conformance app."""
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
        is opened anew, since an install gives the package a new credential."""
        app = _APPS[package]
        info = self.package_manager.install_package(str((self.apps_root / app.folder).resolve()), app.system)
        if info.package_name != package:
            raise ValueError(f"{self.apps_root / app.folder} holds {info.package_name}, expected {package}")
        self._forget_context(package)
        return info

    def uninstall(self, package: str) -> None:
        self.package_manager.uninstall_package(package)
        self._forget_context(package)

    @contextlib.contextmanager
    def installed_variant(self, folder: str, edits: Mapping[str, tuple[str, str]]) -> Iterator[object]:
        """Install, as the shell, a copy of the apps root's ``folder`` with ``edits`` made (a file
        of it -> (old text, new text)); yield the PackageInfo, or the exception the install raised;
        uninstall it afterwards. For apps a case changes (the indexer's rows)."""
        with tempfile.TemporaryDirectory(prefix="droidsim-conformance-") as scratch:
            app = Path(scratch) / folder
            shutil.copytree(self.apps_root / folder, app, ignore=shutil.ignore_patterns("__pycache__"))
            os.chmod(scratch, 0o755)  # the device may read it under a uid of its own
            for name, (old, new) in edits.items():
                text = (app / name).read_text()
                if old not in text:
                    raise ValueError(f"{self.apps_root / folder / name} no longer holds {old!r}")
                (app / name).write_text(text.replace(old, new, 1))
            try:
                info = self.package_manager.install_package(str(app))
            except Exception as refused:  # the outcome a case checks
                yield refused
                return
            try:
                yield info
            finally:
                self.uninstall(info.package_name)

    def _forget_context(self, package: str) -> None:
        stale = self._contexts.pop(package, None)
        if stale is not None:
            stale.close()

    # access set-up, each undone when its block ends
    @contextlib.contextmanager
    def holding_permission(self, package: str, held: bool) -> Iterator[None]:
        """``package`` (not a system app) holds the privileged permissions it requests, or not,
        by being on the privileged allowlist (``pm add-/remove-privileged-allowlist``): what CTS
        gets by adopting the shell's permission identity, or not."""
        listed = package in self.package_manager.get_privileged_allowlist()
        with _listed_for_the_block(self.package_manager.edit_privileged_allowlist, package, listed, held):
            yield

    @contextlib.contextmanager
    def agent_allowlisted(self, package: str, allowlisted: bool) -> Iterator[None]:
        """``package`` on the agent allowlist or not, through the Secure setting that
        ``droidsim access agents add|remove`` edit. Leaving the
        allowlist drops the agent's access flags, as on Android."""
        secure = self._settings.get_setting(*ADDITIONAL_AGENT_ALLOWLIST)
        listed = any(entry.package_name == package for entry in parse_agent_list(secure or ""))
        with _listed_for_the_block(self.shell.app_function_manager.edit_additional_agent_allowlist, package, listed,
                                   allowlisted):
            yield

    @contextlib.contextmanager
    def agent_allowlist_restored(self) -> Iterator[None]:
        """Both settings of the agent allowlist as they were, after the block; meanwhile
        DeviceConfig's list names the run's agents too, so that a case may set or clear the
        additional list without dropping their access flags."""
        additional = self._settings.get_setting(*ADDITIONAL_AGENT_ALLOWLIST)
        device_config = self._settings.get_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST)
        listed = parse_agent_list(device_config or "")
        both = [*listed, *(SignedPackage(agent) for agent in AGENTS if agent not in {e.package_name for e in listed})]
        self._settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, serialize_agent_list(both))
        try:
            yield
        finally:
            self._settings.put_setting(*ADDITIONAL_AGENT_ALLOWLIST, additional)
            self._settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, device_config)

    def additional_agents(self) -> list[str]:
        """The packages of the Secure setting set-additional-allowlisted-agents writes."""
        secure = self._settings.get_setting(*ADDITIONAL_AGENT_ALLOWLIST)
        return [entry.package_name for entry in parse_agent_list(secure or "")]

    @contextlib.contextmanager
    def access_flags(self, agent: str, target: str, flags: int) -> Iterator[bool]:
        """The pair's access flags set to ``flags`` by the shell (``updateAccessFlags`` under
        the whole mask); yields whether the device took them. The old flags come back after."""
        manager = self.shell.app_function_manager
        before = manager.get_access_flags(agent, target)
        manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_ALL, flags)
        try:
            yield manager.get_access_flags(agent, target) == flags
        finally:
            manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_ALL, before)

    @property
    def _settings(self):
        return self.shell.get_system_service(SETTINGS_SERVICE)

    # what the CTS-like apps leave in their data folders (testutils.py)
    def app_data_dir(self, package: str) -> Path:
        return self.device.data_dir / "data" / package

    def events(self, package: str) -> list[str]:
        """The app's own file, read as the app wrote it: a link or hard link it put there
        instead (to a credential, a FIFO) is refused, never followed (sim/safe_files.py)."""
        try:
            log = safe_files.read_file(self.app_data_dir(package) / "events.log", MAX_EVENTS_BYTES)
        except FileNotFoundError:
            return []
        return log.decode("utf-8", "replace").splitlines()

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
def _listed_for_the_block(edit: Callable[[int, list[str]], object], package: str, listed: bool,
                          wanted: bool) -> Iterator[None]:
    """``package`` on an allowlist (or off it) while the block runs, as it was after: each change
    one edit in the device, so whatever else changes the list meanwhile is kept."""
    if listed != wanted:
        edit(AllowlistEdit.ADD if wanted else AllowlistEdit.REMOVE, [package])
    try:
        yield
    finally:
        if listed != wanted:
            edit(AllowlistEdit.REMOVE if wanted else AllowlistEdit.ADD, [package])


@contextlib.contextmanager
def open_target(device: DeviceHandle, apps_root: Path | None = None) -> Iterator[ConformanceTarget]:
    """Install the conformance apps, start them from a clean state, make the caller a
    privileged agent and put the agents on the agent allowlist; yield the target; then undo
    it all: the allowlists as they were, and uninstall what this call installed (packages that
    were there before stay installed)."""
    apps_root = Path(apps_root or default_apps_root())
    missing = [app.folder for app in CONFORMANCE_APPS if not (apps_root / app.folder / "AndroidManifest.xml").is_file()]
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
        for app in CONFORMANCE_APPS:
            target.install(app.package)
            if app.package not in before:
                cleanup.callback(package_manager.uninstall_package, app.package)
            target.clear_package_data(app.package)
        cleanup.enter_context(target.holding_permission(CALLER_PACKAGE, True))
        for agent in AGENTS:
            cleanup.enter_context(target.agent_allowlisted(agent, True))
        cleanup.callback(target.close)
        yield target
