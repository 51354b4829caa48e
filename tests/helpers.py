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

REPO = Path(__file__).resolve().parent.parent
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


def droidsim(*args: str, data: Path | None = None, timeout: float = 60, input: str | None = None) -> subprocess.CompletedProcess:
    """Run the real CLI in its own process."""
    command = [sys.executable, "-m", "sim.cli", *args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if data is not None:
        env["DROIDSIM_DEVICE"] = str(data)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, input=input)


def bounded_droidsim(*args: object, cwd: Path, address_space: int = 1 << 30,
                     timeout: float = 300) -> subprocess.CompletedProcess:
    """The real CLI in its own process, held to ``address_space`` bytes: a tool that takes more
    fails instead of passing slowly. The process sets its own limit before droidsim loads (a
    ``preexec_fn`` in a test process with gRPC's threads may crash the fork)."""
    bounded = ("import os, resource, sys\n"
               "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))\n"
               "os.execv(sys.executable, [sys.executable, '-m', 'sim.cli', *sys.argv[2:]])")
    return subprocess.run([sys.executable, "-c", bounded, str(address_space), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


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
        self.output: list[str] = []
        self._wait_ready()
        self._drain = threading.Thread(target=self._read_output, daemon=True)
        self._drain.start()

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("device exited before it was ready:\n" + "".join(self.output))
            self.output.append(line)
            if "listening on" in line:
                return
        raise TimeoutError("device not ready:\n" + "".join(self.output))

    def _read_output(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> int:
        self.process.terminate()
        try:
            return self.process.wait(timeout=30)
        finally:
            self._drain.join(30)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._drain.join(30)


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
