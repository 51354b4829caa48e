"""A device killed with SIGKILL in the middle of an install, an uninstall, a grant or an
enabled-state write comes back whole: every app fully installed or absent, and everything
acknowledged before the kill still there.

Two ways in. The kill-point tests (crash_driver.py) kill a process with an open Device before
every step of one operation in turn, so each window between two writes is hit once. The
random test kills a real ``droidsim device start`` at a random moment while a client drives
operations through the binder, and checks every change the client saw acknowledged.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from droid.appfunctions import ExecuteAppFunctionRequest
from droid.appfunctions.requests import APP_FUNCTION_STATE_DEFAULT, APP_FUNCTION_STATE_DISABLED
from droid.os.binder import SHELL, Binder
from sim.device import Device
from sim.pm.installer import source_hash
from tests.faults.conftest import FAULTY, FAULTY_APP, execute, shell, start_device
from tests.faults.invariants import check_device_invariants
from tests.helpers import EVENT_BOUND, HELPER_APP, HELPER_PACKAGE, REPO, SAMPLE_APPS, DeviceProcess, copy_app

pytestmark = pytest.mark.e2e

WEATHER = "com.example.weather"
AGENT = "com.example.assistant"
GRANTED = "android.permission.READ_CONTACTS"
TO_GRANT = "android.permission.READ_CALENDAR"


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A data directory with state in every table: the helper and faulty apps, the sample agent
    pregranted, a runtime grant, an enabled override, and history."""
    root = tmp_path_factory.mktemp("crash")
    update = copy_app(HELPER_APP, root, "helper-v2")
    with (update / "testutils.py").open("a") as code:
        code.write("\n# version 2\n")
    with Device(root / "device", isolated_apps=False) as device:
        device.install(HELPER_APP)
        device.install(FAULTY_APP)
        device.install(SAMPLE_APPS / "system" / "assistant", system=True)
        device.pregrant_agent(AGENT)
        with Binder.calling_as(SHELL):
            device.permissions.grant_runtime_permission(FAULTY, GRANTED)
            device.app_functions.set_app_function_enabled("echo", APP_FUNCTION_STATE_DISABLED, FAULTY)
        device.shell_context().app_function_manager.execute_app_function(ExecuteAppFunctionRequest(FAULTY, "pid"))
        helper_hash = device.registry.get(HELPER_PACKAGE).source_hash
    (root / "device").rename(root / "base")
    return root, {"helper-v1": helper_hash}, update


def faulty_state(device: Device) -> str:
    """'installed' with everything it had, or 'absent' with nothing left; anything else fails."""
    package = device.registry.get(FAULTY)
    history = [e for e in device.access_history.entries() if FAULTY in (e.target_package_name, e.agent_package_name)]
    flags = device.store.query("SELECT flags FROM access_flags WHERE target_package = ?", (FAULTY,))
    if package is None:
        assert not history and not flags, f"{FAULTY} is uninstalled but its history or flags remain"
        return "absent"
    echo = device.index.lookup(FAULTY, "echo").metadata
    assert device.permissions.holds(package, GRANTED), f"{FAULTY} lost its grant of {GRANTED}"
    assert not device.index.is_enabled(FAULTY, echo), f"{FAULTY} lost its enabled override"
    assert history and flags, f"{FAULTY} lost its history or its agent's pregrant"
    return "installed"


def before_or_after(operation: str, device: Device, hashes: dict) -> str:
    """Which side of ``operation`` the restored device is on."""
    if operation == "install-new":
        return "after" if device.registry.get(WEATHER) else "before"
    if operation == "install-update":
        current = device.registry.get(HELPER_PACKAGE).source_hash
        return "before" if current == hashes["helper-v1"] else "after"
    if operation == "uninstall":
        return {"installed": "before", "absent": "after"}[faulty_state(device)]
    if operation == "grant":
        return "after" if device.permissions.holds(device.registry.get(FAULTY), TO_GRANT) else "before"
    if operation == "set-enabled":
        add = device.index.lookup(HELPER_PACKAGE, "add").metadata
        return "before" if device.index.is_enabled(HELPER_PACKAGE, add) else "after"
    raise ValueError(operation)


def operations(update: Path) -> dict[str, dict]:
    return {
        "install-new": {"kind": "install", "app_dir": str(SAMPLE_APPS / "weather")},
        "install-update": {"kind": "install", "app_dir": str(update)},
        "uninstall": {"kind": "uninstall", "package": FAULTY},
        "grant": {"kind": "grant", "package": FAULTY, "permission": TO_GRANT},
        "set-enabled": {"kind": "set-enabled", "package": HELPER_PACKAGE, "function": "add",
                        "state": APP_FUNCTION_STATE_DISABLED},
    }


@pytest.mark.parametrize("operation", ["install-new", "install-update", "uninstall", "grant", "set-enabled"])
def test_killed_before_any_step_the_device_restarts_whole(prepared, operation, tmp_path):
    root, hashes, update = prepared
    result = subprocess.run(
        [sys.executable, "-m", "tests.faults.crash_driver", "--base", str(root / "base"),
         "--device-dir", str(root / "device"), "--work", str(tmp_path),
         "--operation", json.dumps(operations(update)[operation])],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    *killed, finished = json.loads(result.stdout)
    assert finished["status"] == 0, f"the operation failed without a kill: {result.stderr}"
    assert len(killed) >= 2, f"too few steps to kill at: {killed}"
    sides = [restart_and_check(root / "device", crash, operation, hashes) for crash in [*killed, finished]]
    assert sides[0] == "before" and sides[-1] == "after"
    # Once an operation has taken effect, no later kill undoes it.
    assert sides == sorted(sides, key=["before", "after"].index), list(zip([c["step"] for c in killed], sides))


def restart_and_check(device_dir: Path, crash: dict, operation: str, hashes: dict) -> str:
    """Restart on one crash image (moved to where the device ran) and check it; the side it is on."""
    assert crash["status"] in (-signal.SIGKILL, 0)
    Path(crash["image"]).rename(device_dir)
    try:
        with Device(device_dir, isolated_apps=False) as device:
            check_device_invariants(device)
            side = before_or_after(operation, device, hashes)
            if operation != "uninstall":
                assert faulty_state(device) == "installed"
            return side
    except AssertionError as error:
        raise AssertionError(f"killed before {crash['step']!r}: {error}") from None
    finally:
        shutil.rmtree(device_dir)


class AcknowledgedState:
    """What the client saw acknowledged about the one package it manages (FAULTY, in two
    versions): the installed version's source hash, its runtime grants, its enabled overrides."""

    PERMISSIONS = (GRANTED, TO_GRANT)
    FUNCTIONS = ("echo", "pid")

    def __init__(self, versions: dict[str, Path]) -> None:
        self.versions = versions  # version name -> app folder, all of one package (FAULTY)
        self.installed: str | None = None  # the installed version's source hash
        self.grants: frozenset[str] = frozenset()
        self.overrides: dict[str, int] = {}

    def snapshot(self) -> tuple:
        return (self.installed, self.grants, tuple(sorted(self.overrides.items())))

    def random_operation(self, rng: random.Random) -> tuple:
        if self.installed is None or rng.random() < 0.25:
            return ("install", rng.choice(sorted(self.versions)))
        return rng.choice([
            ("uninstall",),
            ("grant", rng.choice(self.PERMISSIONS)),
            ("revoke", rng.choice(self.PERMISSIONS)),
            ("set-enabled", rng.choice(self.FUNCTIONS),
             rng.choice([APP_FUNCTION_STATE_DEFAULT, APP_FUNCTION_STATE_DISABLED])),
        ])

    def perform(self, context, operation: tuple) -> None:
        packages = context.get_system_service("package")
        kind = operation[0]
        if kind == "install":
            packages.install_package(str(self.versions[operation[1]]))
        elif kind == "uninstall":
            packages.uninstall_package(FAULTY)
        elif kind == "grant":
            packages.grant_permission(FAULTY, operation[1])
        elif kind == "revoke":
            packages.revoke_permission(FAULTY, operation[1])
        else:
            context.app_function_manager.set_app_function_enabled(operation[1], operation[2], FAULTY)

    def apply(self, operation: tuple, hashes: dict[str, str]) -> None:
        kind = operation[0]
        if kind == "install":
            self.installed = hashes[operation[1]]
        elif kind == "uninstall":
            self.installed, self.grants, self.overrides = None, frozenset(), {}
        elif kind == "grant":
            self.grants |= {operation[1]}
        elif kind == "revoke":
            self.grants -= {operation[1]}
        elif operation[2] == APP_FUNCTION_STATE_DEFAULT:
            self.overrides.pop(operation[1], None)
        else:
            self.overrides[operation[1]] = operation[2]

    def read(self, device: Device) -> tuple:
        package = device.registry.get(FAULTY)
        if package is None:
            return (None, frozenset(), ())
        grants = frozenset(p for p in self.PERMISSIONS if device.permissions.holds(package, p))
        overrides = {fn: state for (pkg, fn), state in device.store.enabled_overrides().items() if pkg == FAULTY}
        return (package.source_hash, grants, tuple(sorted(overrides.items())))


def test_device_killed_at_random_moments_keeps_every_acknowledged_change(tmp_path):
    seed = random.randrange(1 << 32)
    rng = random.Random(seed)
    versions = {"v1": copy_app(FAULTY_APP, tmp_path / "v1"), "v2": copy_app(FAULTY_APP, tmp_path / "v2")}
    (versions["v2"] / "faulty.py").write_text((versions["v2"] / "faulty.py").read_text() + "\n# version 2\n")
    hashes = {name: source_hash(folder) for name, folder in versions.items()}
    state = AcknowledgedState(versions)
    data = tmp_path / "data"
    for iteration in range(6):
        device = DeviceProcess(data)
        in_flight: list[tuple] = []

        def drive() -> None:
            with shell(device) as context:
                while True:
                    operation = state.random_operation(rng)
                    in_flight[:] = [operation]
                    try:
                        state.perform(context, operation)
                    except Exception:  # the device was killed; what it answered last is what counts
                        return
                    state.apply(operation, hashes)
                    in_flight.clear()

        client = threading.Thread(target=drive, daemon=True)
        client.start()
        threading.Event().wait(rng.uniform(0.05, 1.5))
        device.kill()
        client.join(EVENT_BOUND)
        assert not client.is_alive(), "the client did not notice the device was killed"
        with Device(data, isolated_apps=False) as restored:
            where = f"(seed {seed}, iteration {iteration}, in flight: {in_flight})"
            try:
                check_device_invariants(restored)
            except AssertionError as error:
                raise AssertionError(f"{error} {where}") from None
            found = state.read(restored)
            if found != state.snapshot() and in_flight:
                state.apply(in_flight[0], hashes)  # the operation in flight took effect before the kill
            assert found == state.snapshot(), f"restored {found}, acknowledged {state.snapshot()} {where}"


def test_history_a_read_has_shown_survives_a_kill_and_later_attempts_are_kept_whole_or_not_at_all(tmp_path):
    """The access history is written in batches off the call path (docs/reliability.md): a read
    commits what is queued, so what it showed is durable; attempts after it may be lost to a
    SIGKILL, but only from the newest back, never one in the middle or half of one."""
    device = start_device(tmp_path)
    with shell(device) as context:
        for n in range(5):
            assert execute(context, HELPER_PACKAGE, "add", a=n, b=1) == n + 1
        shown = [(e.id, e.function_identifier, e.result_code) for e in context.app_function_manager.get_access_history()]
        for n in range(5):
            execute(context, HELPER_PACKAGE, "add", a=n, b=2)
    device.kill()
    with Device(device.data, isolated_apps=False) as restored:
        kept = [(e.id, e.function_identifier, e.result_code) for e in restored.access_history.entries()]
    assert len(shown) == 5 and kept[:5] == shown
    assert kept[5:] == [(shown[-1][0] + 1 + n, "add", 0) for n in range(len(kept) - 5)]
    assert len(kept) <= 10
