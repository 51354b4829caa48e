"""A device found without being named is used only if it is the user's own, as git uses a
repository only where the user owns it (issue 43: N03). Another account can put a
``.droidsim/device`` in a folder every user may write (mode 1777), or a registry entry, where
root's droidsim would find it and run that account's app code with root's settings (its model
key) and terminal. Here a device runs in such a folder, its data directory handed to ``nobody``
as if that account had made it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from droid.content.running_devices import running_devices
from sim.running_devices import DeviceLock
from tests.helpers import EVENT_BOUND
from tests.security.conftest import MALICIOUS, malicious_device, needs_root

NOBODY = 65534


@pytest.fixture(scope="module")
def shared():
    """A folder every user may write (1777, as /tmp), holding a running device whose data
    directory another account owns."""
    folder = Path(tempfile.mkdtemp(prefix="droidsim-shared-"))
    folder.chmod(0o1777)
    data = folder / ".droidsim" / "device"
    with malicious_device(folder / "planted") as device:
        data.parent.mkdir()
        data.symlink_to(device.data_dir)  # where the planted device's files are, through its own link
        for path in (data.parent, data):
            os.lchown(path, NOBODY, NOBODY)
        yield folder, device
    shutil.rmtree(folder, ignore_errors=True)


def droidsim(*args: str, cwd: Path, home: Path, device: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DROIDSIM_DEVICE", "DROIDSIM_DATA")}
    env["DROIDSIM_HOME"] = str(home)
    if device is not None:
        env["DROIDSIM_DEVICE"] = device
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=EVENT_BOUND)


@needs_root
@pytest.mark.parametrize("command", [["agent", "--as", MALICIOUS, "hi"], ["shell", "pm", "list", "packages"]])
def test_a_device_another_account_put_in_a_shared_folder_is_not_used_unless_named(shared, tmp_path, command):
    folder, device = shared
    result = droidsim(*command, cwd=folder, home=tmp_path)
    assert result.returncode == 1
    assert (f"{folder / '.droidsim'} belongs to uid {NOBODY} (nobody), not to you (uid 0 (root)): droidsim uses a "
            "device it finds by itself only if it is yours") in result.stderr, result.stderr
    assert f"If you trust it, name it: --device {(folder / '.droidsim' / 'device').resolve()}" in result.stderr


@needs_root
def test_named_it_is_used(shared, tmp_path):
    folder, device = shared
    result = droidsim("shell", "pm", "list", "packages", cwd=folder, home=tmp_path,
                      device=str(folder / ".droidsim" / "device"))
    assert result.returncode == 0, result.stderr
    assert MALICIOUS in result.stdout


@needs_root
def test_a_registry_or_a_registered_device_of_another_accounts_is_no_device_of_the_users(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("DROIDSIM_HOME", str(home))
    data = tmp_path / "data"
    lock = DeviceLock(data)  # a device running there, registered as this user's
    try:
        lock.register(f"unix:{data}/device.sock")
        assert [d.data_dir for d in running_devices()] == [data.resolve()]
        os.chown(data, NOBODY, NOBODY)  # its data directory another account's
        assert running_devices() == []
        os.chown(data, 0, 0)
        os.chown(home / "running", NOBODY, NOBODY)  # the registry another account's
        assert running_devices() == []
    finally:
        lock.release()
