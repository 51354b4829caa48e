"""Without root, where the kernel has Landlock, each app process confines itself to its code
and its own data folder (sim/zygote/landlock.py): the malicious app's reads of the device's
files and of another app's fail, and from ABI 6 so does signalling the device. Run here with
the device's root powers set aside, as a developer's non-root device runs."""

from __future__ import annotations

import os

import pytest

import sim.device
from sim.zygote import landlock
from tests.helpers import HELPER_PACKAGE
from tests.security.conftest import MALICIOUS, attack, malicious_device

pytestmark = pytest.mark.skipif(landlock.abi_version() == 0, reason="needs a kernel with Landlock (Linux 5.13+)")


@pytest.fixture
def confined(open_folder, monkeypatch):
    monkeypatch.setattr(sim.device, "os_isolation", lambda: False)  # as a device not run as root
    with malicious_device(open_folder) as device:
        yield device


def test_the_device_says_its_apps_are_confined_and_what_still_does_not_hold(confined):
    assert confined.isolation[0].startswith(f"OS isolation: partial (the device runs as uid {os.geteuid()}, not root)")
    assert "a child it detaches (setsid) outlives it" in confined.isolation[0]


@pytest.mark.parametrize("target", ["shell.credential", "device.db", "victim credential"])
def test_a_confined_app_cannot_read_the_devices_files_or_another_apps(confined, target):
    path = (confined.registry.get(HELPER_PACKAGE).credential_file if target == "victim credential"
            else confined.data_dir / target)
    path.touch()
    # Defence: Landlock; the file's mode would not stop it (the app runs as the device's user).
    assert attack(confined, "readFile", str(path)).startswith("refused: EACCES")


def test_a_confined_app_reads_its_own_credential(confined):
    assert attack(confined, "readFile", str(confined.registry.get(MALICIOUS).credential_file)).startswith("allowed: ")


@pytest.mark.skipif(landlock.abi_version() < 6, reason="needs Landlock ABI 6 (Linux 6.12+) to scope signals")
def test_a_confined_app_cannot_signal_the_device(confined):
    # Defence: Landlock's signal scope; the uid is the same, so the kernel's uid rule would allow it.
    assert attack(confined, "signalPid", str(os.getpid())) == "refused: EPERM Operation not permitted"
