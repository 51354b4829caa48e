"""Kill a device with SIGKILL before each step of one operation: ``python -m tests.faults.crash_driver``.

A step is every SQL statement that changes the device's store (SQLite's trace callback fires
before a statement runs, so a kill "at" COMMIT lands just before it) and every file operation
that changes the data directory (copy a tree, replace, unlink, remove a tree). For K = 0, 1,
2, ... this process forks a child that copies the prepared data directory to ``--device-dir``,
opens a Device on it, runs the operation and SIGKILLs itself before step K, until a child gets
through every step; each crash image is then moved to ``WORK/K``. It prints, as JSON, one
record per child: the step it died before and how it ended. The tests move each image back
to ``--device-dir`` (the store keeps absolute paths), restart a Device on it and check what
survived.

Forking after the imports makes each child cheap; each opens its own Device, so nothing that
SQLite or a thread holds crosses the fork.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from droid.os.binder import SHELL, Binder
from sim.device import Device

# (module, function) pairs that change files under the data directory; shutil.rmtree unlinks
# through os.unlink, so a tree can be killed half-removed.
FILE_STEPS = ((shutil, "copytree"), (shutil, "rmtree"), (os, "replace"), (os, "unlink"))
WRITING_SQL = {"BEGIN", "COMMIT", "ROLLBACK", "INSERT", "UPDATE", "DELETE", "REPLACE"}


class StepKiller:
    """Counts steps once armed; before step ``kill_at`` it names the step in ``record`` and dies."""

    def __init__(self, kill_at: int, record: Path) -> None:
        self.kill_at = kill_at
        self.record = record
        self.count = 0
        self.armed = False

    def step(self, label: str) -> None:
        if not self.armed:
            return
        if self.count == self.kill_at:
            self.record.write_text(label)
            os.kill(os.getpid(), signal.SIGKILL)
        self.count += 1

    def sql(self, statement: str) -> None:
        verb = statement.split(None, 1)[0].upper()
        if verb in WRITING_SQL:
            self.step(statement.split("(", 1)[0].strip())

    def wrap(self, module: Any, name: str) -> None:
        original = getattr(module, name)

        def step_then_call(*args: Any, **kwargs: Any) -> Any:
            self.step(f"{name} {Path(str(args[0])).name if args else ''}".strip())
            return original(*args, **kwargs)

        setattr(module, name, step_then_call)


def run_operation(device: Device, operation: dict) -> None:
    kind = operation["kind"]
    if kind == "install":
        device.install(Path(operation["app_dir"]))
    elif kind == "uninstall":
        device.package_manager.uninstall(operation["package"])
    elif kind == "grant":
        with Binder.calling_as(SHELL):
            device.permissions.grant_runtime_permission(operation["package"], operation["permission"])
    elif kind == "set-enabled":
        with Binder.calling_as(SHELL):
            device.app_functions.set_app_function_enabled(operation["function"], operation["state"], operation["package"])
    else:
        raise ValueError(f"unknown operation {kind!r}")


def crash_at(base: Path, device_dir: Path, operation: dict, kill_at: int, record: Path) -> None:
    """In the child: the operation on a fresh copy of ``base``, killed before step ``kill_at``."""
    killer = StepKiller(kill_at, record)
    for module, name in FILE_STEPS:
        killer.wrap(module, name)
    shutil.copytree(base, device_dir)
    device = Device(device_dir, isolated_apps=False)
    device.store._db.set_trace_callback(killer.sql)
    killer.armed = True
    run_operation(device, operation)
    killer.armed = False
    device.shutdown()


def fork_and_wait(child: Callable[[], None]) -> int:
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            child()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, required=True, help="The prepared data directory (left untouched).")
    parser.add_argument("--device-dir", type=Path, required=True, help="Where the base was prepared.")
    parser.add_argument("--work", type=Path, required=True, help="Where WORK/K, one per kill, go.")
    parser.add_argument("--operation", required=True, help="JSON: {kind: install|uninstall|grant|set-enabled, ...}")
    parser.add_argument("--max-steps", type=int, default=200)
    args = parser.parse_args()
    operation = json.loads(args.operation)
    records = []
    for kill_at in range(args.max_steps):
        image, record = args.work / str(kill_at), args.work / f"{kill_at}.step"
        status = fork_and_wait(lambda: crash_at(args.base, args.device_dir, operation, kill_at, record))
        args.device_dir.rename(image)
        records.append({"image": str(image), "status": status, "step": record.read_text() if record.exists() else None})
        if status != -signal.SIGKILL:
            break
    json.dump(records, sys.stdout)


if __name__ == "__main__":
    main()
