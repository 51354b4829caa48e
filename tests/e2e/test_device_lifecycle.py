"""One device per data directory, found from any folder, stopped and wiped by command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import COMMAND_BOUND, EVENT_BOUND, SAMPLE_APPS, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e


def _run(*args: str, cwd: Path, home: Path, timeout: float = COMMAND_BOUND) -> subprocess.CompletedProcess:
    """The CLI as a user runs it: no DROIDSIM_DEVICE, from ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != "DROIDSIM_DEVICE"}
    env.update(DROIDSIM_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A registry of running devices of this test's own (DeviceProcess inherits it)."""
    monkeypatch.setenv("DROIDSIM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_a_second_device_on_the_same_data_directory_is_refused(tmp_path, home) -> None:
    data = tmp_path / "data"
    first = DeviceProcess(data, SAMPLE_APPS)
    try:
        second = _run("device", "start", "--data", str(data), cwd=tmp_path, home=home)
        assert second.returncode == 1
        assert f"a device is already running on {data.resolve()} (pid {first.process.pid})" in second.stderr
        assert "com.example.orders" in droidsim("shell", "pm", "list", "packages", data=data).stdout
    finally:
        first.stop()


def test_the_device_is_found_from_any_folder_and_stopped_by_command(tmp_path, home) -> None:
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    device = DeviceProcess(tmp_path / "data")
    try:
        listed = _run("shell", "pm", "list", "packages", cwd=elsewhere, home=home)
        assert listed.returncode == 0, listed.stderr
        stopped = _run("device", "stop", cwd=elsewhere, home=home)
        assert stopped.returncode == 0, stopped.stderr
        assert f"stopped the device on {(tmp_path / 'data').resolve()} (pid {device.process.pid})" in stopped.stdout
        assert device.process.wait(timeout=EVENT_BOUND) == 0  # it exits once `device stop` asked it to
    finally:
        if device.process.poll() is None:
            device.stop()
    missing = _run("shell", "pm", "list", "packages", cwd=elsewhere, home=home)
    assert missing.returncode == 1
    for place in ("--device (not given)", "DROIDSIM_DEVICE (not set)", str(home / "running"),
                  str(elsewhere / ".droidsim" / "device")):
        assert place in missing.stderr, missing.stderr
    assert _run("device", "stop", "--data", str(tmp_path / "data"), cwd=elsewhere, home=home).stderr.strip() \
        == f"Error: no device is running on {(tmp_path / 'data').resolve()}"


def test_wipe_starts_from_an_empty_data_directory(tmp_path, home) -> None:
    data = tmp_path / "data"
    DeviceProcess(data, SAMPLE_APPS).stop()
    wiped = DeviceProcess(data, extra=("--wipe",))
    try:
        packages = droidsim("shell", "pm", "list", "packages", data=data).stdout
        assert "com.example.orders" not in packages
    finally:
        wiped.stop()
