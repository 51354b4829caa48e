"""The device never follows a link or trusts a name in a folder an app can write
(sim/safe_files.py). The app plants symbolic links, hard links, FIFOs, folders and the
temporary names the device once used, at every place the device writes or re-owns in its data
folder (the credential at start, at an update and at boot; ``pm clear``) and in an app folder
given to install; each test shows the target is untouched and what the device answered. As
root (where the device re-owns files) and without root (where it still writes and reads)."""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from pathlib import Path

import pytest

import sim.device
from droid.appfunctions.exceptions import AppFunctionException
from sim import safe_files
from sim.device import Device
from sim.pm.install_error import InstallError
from tests.helpers import copy_app
from tests.security.conftest import MALICIOUS, MALICIOUS_APP, attack, malicious_device, needs_root

modes = pytest.mark.parametrize("mode", [pytest.param("root", marks=needs_root), "without root"])
VICTIM_TEXT = "the victim's secret\n"


@pytest.fixture
def device(mode, open_folder, monkeypatch):
    if mode == "without root":
        monkeypatch.setattr(sim.device, "os_isolation", lambda: False)
    with malicious_device(open_folder) as device:
        yield device


@pytest.fixture
def victim(open_folder) -> Path:
    """A file of the device's user, outside every app's folder, that an attack aims at."""
    path = open_folder / "victim.txt"
    path.write_text(VICTIM_TEXT)
    path.chmod(0o600)
    return path


def state_of(path: Path) -> tuple:
    status = path.stat()
    return path.read_text(), status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode), status.st_nlink


def home_of(device: Device) -> Path:
    return device.registry.get(MALICIOUS).data_dir


def start_refused(device: Device) -> str:
    device.processes.stop(MALICIOUS)  # the next call starts the app, and the device owns its credential again
    with pytest.raises(AppFunctionException) as refused:
        attack(device, "readFile", "/etc/hostname")
    return str(refused.value)


def update(device: Device, open_folder: Path, name: str = "update") -> None:
    app = copy_app(MALICIOUS_APP, open_folder / name, "malicious")
    (app / "version.txt").write_text(f"{name}\n")  # a new version: it is installed, not kept
    device.install(app)


@modes
@pytest.mark.parametrize("target", ["victim", "shell credential"])
def test_a_credential_turned_into_a_symbolic_link_is_refused_at_start_and_its_target_untouched(device, victim, target):
    aimed = victim if target == "victim" else device.shell_credential_file
    before = state_of(aimed)
    credential = home_of(device) / "credential"
    assert attack(device, "plant", f"{credential}|link:{aimed}") == "allowed: planted it"
    # Defence: the credential is opened without following a link, re-owned on its descriptor.
    assert f"{credential} is a symbolic link; the device never follows a link there" in start_refused(device)
    assert state_of(aimed) == before


@modes
def test_a_credential_turned_into_a_hard_link_is_refused_at_start(device, victim):
    credential = home_of(device) / "credential"
    before = state_of(victim)
    # Planted here as the kernel would let a process do it without fs.protected_hardlinks.
    credential.unlink()
    os.link(victim, credential)
    # Defence: a secret is a regular file with one link; a second name may be anyone's file.
    assert f"{credential} has 2 hard links; the device refuses a file that another name shares" in start_refused(device)
    assert state_of(victim)[:4] == before[:4]


@modes
@pytest.mark.parametrize("planted", ["links", "a folder"])
def test_an_update_writes_the_new_credential_past_every_link_and_temporary_name_the_app_planted(
        device, victim, open_folder, planted):
    home = home_of(device)
    before = state_of(victim)
    if planted == "links":
        for name in ("credential", "credential.pending", f".credential.pending.{os.getpid()}.tmp", ".credential.tmp"):
            assert attack(device, "plant", f"{home / name}|link:{victim}") == "allowed: planted it"
    else:
        assert attack(device, "plant", f"{home / 'credential'}|link:nowhere") == "allowed: planted it"
        (home / "credential").unlink()
        (home / "credential").mkdir()
        (home / "credential" / "inside.txt").write_text("the app's")
    update(device, open_folder)
    # Defence: a fresh random name created exclusively (O_EXCL | O_NOFOLLOW), owned and
    # moded on its descriptor, renamed over the planted name (replacing a link, not following it).
    assert state_of(victim) == before
    credential = home / "credential"
    status = credential.lstat()
    assert stat.S_ISREG(status.st_mode) and status.st_nlink == 1 and stat.S_IMODE(status.st_mode) == 0o600
    if device.os_isolation:
        assert status.st_uid == device.os_user.os_uid(device.registry.get(MALICIOUS).uid)
    assert attack(device, "readFile", str(credential)).startswith("allowed: ")  # the app works with it


@modes
@pytest.mark.parametrize("planted", ["fifo", "link", "folder"])
def test_boot_settles_a_staged_credential_the_app_replaced_without_reading_through_it(
        device, mode, open_folder, monkeypatch, victim, planted):
    home = home_of(device)
    device.shutdown()
    pending = home / "credential.pending"
    if planted == "fifo":
        os.mkfifo(pending)  # reading it would wait for a writer for ever
    elif planted == "link":
        pending.symlink_to(victim)
    else:
        pending.mkdir()
    (home / ".credential.pending.1234.tmp").mkdir()  # a "half-written" temporary that is a folder
    before = state_of(victim)
    booted = []
    boot = threading.Thread(target=lambda: booted.append(Device(open_folder / "data")), daemon=True)
    boot.start()
    boot.join(120)  # a guard only: a boot that read the FIFO would never end
    assert booted, "the device did not boot: it waited on what the app put in its folder"
    with shut_down_after(booted[0]):
        # Defence: the staged credential is read without following a link or opening a FIFO
        # for a writer; what is not a regular file is removed, the credential stays.
        assert not os.path.lexists(pending) and not os.path.lexists(home / ".credential.pending.1234.tmp")
        assert state_of(victim) == before
        assert stat.S_ISREG((home / "credential").lstat().st_mode)


@contextlib.contextmanager
def shut_down_after(device: Device):
    try:
        yield device
    finally:
        device.shutdown()


@modes
def test_pm_clear_removes_the_apps_links_never_what_they_name(device, open_folder):
    outside = open_folder / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the app's")
    home = home_of(device)
    assert attack(device, "plant", f"{home / 'folder-link'}|link:{outside}") == "allowed: planted it"
    assert attack(device, "plant", f"{home / 'file-link'}|link:{outside / 'keep.txt'}") == "allowed: planted it"
    assert attack(device, "plant", f"{home / 'own' / 'notes.txt'}|the app's notes") == "allowed: planted it"
    device.package_manager.clear_package_data(MALICIOUS)
    # Defence: each entry is removed where it is (a link goes, not its target).
    assert sorted(os.listdir(home)) == ["credential"]
    assert (outside / "keep.txt").read_text() == "not the app's"


@modes
def test_a_hard_link_to_a_secret_in_an_app_folder_is_refused_at_install(device, open_folder):
    app = copy_app(MALICIOUS_APP, open_folder / "linked", "malicious")
    os.link(device.shell_credential_file, app / "secret.txt")
    copies = sorted((device.data_dir / "app").iterdir())
    with pytest.raises(InstallError) as refused:
        device.install(app)
    # Defence: an app's file is a regular file with one link, checked again on the descriptor
    # the copy reads, so the copy never holds another name's file (world-readable, as apps are).
    assert str(refused.value) == (f"INSTALL_FAILED_INVALID_APK: {app / 'secret.txt'} has 2 hard links: an app's file "
                                  "must be its own (another name may be a secret)")
    assert sorted((device.data_dir / "app").iterdir()) == copies


def test_the_copy_rechecks_each_file_on_the_descriptor_it_reads(open_folder):
    """What install checked and what it copies are one descriptor: a name turned into a hard
    link, a FIFO or a link after the check is refused by the read itself."""
    folder = open_folder / "source"
    folder.mkdir()
    secret = open_folder / "secret"
    secret.write_text("s")
    os.link(secret, folder / "hard")
    os.mkfifo(folder / "fifo")
    (folder / "link").symlink_to(secret)
    for name, words in (("hard", "has 2 hard links"), ("fifo", r"is not a regular file \(a FIFO\)"),
                        ("link", "is a symbolic link")):
        with pytest.raises(safe_files.RefusedFileError, match=words):
            safe_files.read_file(folder / name, 100)
    fd = safe_files.open_folder(folder)
    try:
        with pytest.raises(safe_files.RefusedFileError, match="has 2 hard links"):
            safe_files.read_file(folder / "hard", 100, dir_fd=fd)
    finally:
        os.close(fd)
    secret.chmod(0o600)
    with pytest.raises(safe_files.RefusedFileError, match="is a symbolic link"):
        safe_files.own(folder / "link", mode=0o666)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
