"""Without root, where the kernel has Landlock, each app process confines itself to its code
and its own data folder (sim/zygote/landlock.py): the malicious app's reads of the device's
files and of another app's fail, and from ABI 6 so does signalling the device. Run here with
the device's root powers set aside, as a developer's non-root device runs."""

from __future__ import annotations

import json
import os

import pytest

import sim.device
from sim.pm.install_error import InstallError
from sim.zygote import landlock
from tests.helpers import HELPER_PACKAGE, copy_app
from tests.security.conftest import MALICIOUS, MALICIOUS_APP, attack, malicious_device

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


def test_a_confined_app_cannot_read_the_devices_memory(confined):
    # Defence: Landlock refuses ptrace access (and so /proc/PID/mem) outside the app's domain.
    assert attack(confined, "readFile", f"/proc/{os.getpid()}/mem").startswith("refused: EACCES")


@pytest.mark.skipif(landlock.abi_version() < 6, reason="needs Landlock ABI 6 (Linux 6.12+) to scope signals")
def test_a_confined_app_cannot_signal_the_device(confined):
    # Defence: Landlock's signal scope; the uid is the same, so the kernel's uid rule would allow it.
    assert attack(confined, "signalPid", str(os.getpid())) == "refused: EPERM Operation not permitted"


def test_confined_install_time_code_reads_only_the_staged_app_and_the_interpreters_files(confined, open_folder):
    app = copy_app(MALICIOUS_APP, open_folder / "second", "malicious")
    (app / "verifier_attack.txt").write_text(f"{open_folder}\n{confined.data_dir}\n")
    # The app's code may write nowhere, so it fails its install with what it managed.
    with pytest.raises(InstallError, match="verifier report: ") as refused:
        confined.install(app)
    results = json.loads(str(refused.value).split("verifier report: ", 1)[1])
    # Its working folder (/) is not on its import path: every sys.path entry was once granted.
    assert results["cwd"] not in results["sys.path"] and "" not in results["sys.path"]
    # Defence: Landlock grants reading the staged copy and the interpreter's own folders only.
    assert results["device.db"].startswith("refused: EACCES")
    assert results["shell.credential"].startswith("refused: EACCES")
    assert "com.android.shell" not in results["act as shell"], results["act as shell"]
    assert results["plant in app root"].startswith("refused: EACCES")
    assert results["plant in site-packages"].startswith("refused: EACCES")
    assert results["plant beside itself"].startswith("refused: EACCES")
