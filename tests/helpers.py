"""Test helpers shared by unit, e2e and conformance tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable

REPO = Path(__file__).resolve().parent.parent
# How long a test waits for an event (a process ending, a line it prints, a message, a call's
# answer): a bound on waiting for what is not coming, never a performance bound, so generous:
# at load 11 on 2 cores a device took over 30 s to shut down. Performance is make bench's.
EVENT_BOUND = 120.0
# How long a command doing real work may take (a CLI run: imports, a device booted, a suite).
COMMAND_BOUND = 300.0
# The verifier's limit where a test hangs a verification or a decode on purpose: a good one takes
# milliseconds, and a loaded machine must not make it look hung; the hung one is cut off at this.
HUNG_AFTER = 5.0
HELPER_APP = REPO / "tests" / "conformance" / "apps" / "helper"
SAMPLE_APPS = REPO / "apps"
HELPER_PACKAGE = "android.app.appfunctions.cts.helper"


_MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">
    <application android:label="{name}">
        <property android:name="android.app.appfunctions.app_metadata" android:resource="@xml/app_metadata" />
        <service android:name="{package}.FunctionService"
            android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">
            <intent-filter><action android:name="android.app.appfunctions.AppFunctionService" /></intent-filter>
            <property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />
            <property android:name="android.app.appfunctions.v2" android:value="functions.xml" />
        </service>
    </application>
</manifest>
"""
_METADATA = """<?xml version="1.0" encoding="utf-8"?>
<AppFunctionAppMetadata xmlns:appfn="http://schemas.android.com/apk/res-auto"
    appfn:description="{description}" />
"""
_PRELUDE = '''from __future__ import annotations

from droid.appfunctions import *  # noqa: F403

SERVICE = "{package}.FunctionService"
'''



def write_generated_app(root: Path, name: str, source: str, *, description: str,
                        package_prefix: str = "com.example.lint") -> Path:
    """An app ``<root>/<name>`` whose module ``<name>.py`` is a prelude (``from
    droid.appfunctions import *``, ``SERVICE``) plus ``source``, which defines ``class
    FunctionService`` with ``service_name = SERVICE``; its function XML is generated, as
    for a real app."""
    from droid.appfunctions.compiler import generate

    package = f"{package_prefix}.{name}"
    app_dir = root / name
    (app_dir / "res" / "xml").mkdir(parents=True)
    (app_dir / "AndroidManifest.xml").write_text(_MANIFEST.format(package=package, name=name))
    (app_dir / "res" / "xml" / "app_metadata.xml").write_text(_METADATA.format(description=description))
    (app_dir / "__init__.py").write_text("")
    (app_dir / f"{name}.py").write_text(_PRELUDE.format(package=package) + textwrap.dedent(source))
    generate(app_dir)
    return app_dir


def copy_app(source: Path, target_root: Path, name: str | None = None) -> Path:
    """A private copy of an app folder that a test may break."""
    target = target_root / (name or source.name)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


class ShellOf:
    """A stand-in for the CLI's open_context: the shell's Context on an in-process device."""

    def __init__(self, device) -> None:
        self._device = device

    def __enter__(self):
        return self._device.shell.context

    def __exit__(self, *exc) -> None:
        pass


def droidsim(*args: str, data: Path | None = None, timeout: float = COMMAND_BOUND,
             input: str | None = None) -> subprocess.CompletedProcess:
    """Run the real CLI in its own process."""
    command = [sys.executable, "-m", "sim.cli", *args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if data is not None:
        env["DROIDSIM_DEVICE"] = str(data)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, input=input)


def bounded_droidsim(*args: object, cwd: Path, address_space: int = 1 << 30,
                     timeout: float = COMMAND_BOUND) -> subprocess.CompletedProcess:
    """The real CLI in its own process, held to ``address_space`` bytes: a tool that takes more
    fails instead of passing slowly. The process sets its own limit before droidsim loads (a
    ``preexec_fn`` in a test process with gRPC's threads may crash the fork)."""
    bounded = ("import os, resource, sys\n"
               "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))\n"
               "os.execv(sys.executable, [sys.executable, '-m', 'sim.cli', *sys.argv[2:]])")
    return subprocess.run([sys.executable, "-c", bounded, str(address_space), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def wait_until(condition: Callable[[], Any], what: str, bound: float = EVENT_BOUND) -> Any:
    """Polls ``condition`` until it gives something true, and returns that; after ``bound``
    seconds fails, naming ``what`` it waited for."""
    deadline = time.monotonic() + bound
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {bound:g} s for {what}")
        time.sleep(0.02)
    return value


class Output:
    """A process's output, read as it comes, kept whole; ``wait_for`` waits for a line with a text."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self.lines.append("")  # end of output
            self._changed.notify_all()

    def wait_for(self, text: str, what: str, bound: float = EVENT_BOUND, count: int = 1) -> list[str]:
        """The lines holding ``text``, once there are ``count`` of them."""
        matching = lambda: [line for line in self.lines if text in line]  # noqa: E731
        with self._changed:
            if not self._changed.wait_for(lambda: len(matching()) >= count or "" in self.lines, bound):
                raise TimeoutError(f"{what}: no {text!r} within {bound:.0f} s; the output so far:\n{self.text}")
            if len(matching()) < count:
                raise RuntimeError(f"{what}: ended without {text!r}:\n{self.text}")
            return matching()

    def wait_closed(self, what: str, bound: float = EVENT_BOUND) -> None:
        """Until the process closed its output (it ended, or handed it to no one)."""
        with self._changed:
            if not self._changed.wait_for(lambda: "" in self.lines, bound):
                raise TimeoutError(f"{what}: its output still open after {bound:.0f} s; so far:\n{self.text}")

    @property
    def text(self) -> str:
        return "".join(self.lines)


class DeviceProcess:
    """``droidsim device start`` in its own process, stopped with SIGTERM (or killed).

    Its output is read all along: a device whose stdout pipe fills up (crashing apps
    and install warnings log a lot) would block in the middle of a call."""

    def __init__(self, data: Path, *apps: Path, extra: tuple[str, ...] = ()) -> None:
        self.data = data
        args = [sys.executable, "-m", "sim.cli", "device", "start", "--data", str(data)]
        for app_root in apps:
            args += ["--apps", str(app_root)]
        self.process = subprocess.Popen(
            [*args, *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._output = Output(self.process.stdout)
        self.output = self._output.lines
        try:
            self._output.wait_for("listening on", "the device to say it is listening")
        except BaseException:
            self.kill()
            raise

    def stop(self) -> int:
        """SIGTERM, and its exit status once it has ended and said everything."""
        self.process.terminate()
        try:
            status = self.process.wait(timeout=EVENT_BOUND)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the device did not exit within {EVENT_BOUND:g} s of SIGTERM; its output:\n"
                                 f"{self._output.text}") from None
        self._output.wait_closed("the stopped device (a process it started that still runs holds its output)")
        return status

    def kill(self) -> None:
        """SIGKILL: what its apps left running may hold its output open, so that is not waited for."""
        self.process.kill()
        self.process.wait()


def running_processes() -> dict[int, tuple[int, int]]:
    """Every process that runs now (zombies are not running): pid -> (parent pid, uid)."""
    found = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            state, ppid = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[:2]
            uid = os.stat(f"/proc/{name}").st_uid
        except (FileNotFoundError, ProcessLookupError):  # it ended meanwhile
            continue
        if state != "Z":
            found[int(name)] = (int(ppid), uid)
    return found


def verifier_zygotes() -> list[int]:
    """The verifier zygotes this process started that still run."""
    found = []
    for pid, (ppid, _) in running_processes().items():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if b"sim.pm.verifier_zygote" in cmdline and ppid == os.getpid():
            found.append(pid)
    return found


def app_whose_import_runs(tmp_path: Path, name: str, code: str) -> Path:
    """The CTS helper app as ``com.example.<name>``, running ``code`` when its service is imported."""
    future = "from __future__ import annotations\n"
    app = copy_app(HELPER_APP, tmp_path / name)
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(HELPER_PACKAGE, f"com.example.{name}"))
    service = app / "testutils.py"
    service.write_text(service.read_text().replace(future, future + code + "\n", 1))
    return app
