"""An app's files stay its own across device restarts, whichever OS user (uid range) the
restarted device gets (sim/zygote/os_user.py). These need root, as every per-app uid does."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from sim.device import Device
from sim.zygote.os_user import claim_os_user
from tests.helpers import DeviceProcess, copy_app, droidsim
from tests.security.conftest import MALICIOUS, MALICIOUS_APP, attack, gone, malicious_device, needs_root

pytestmark = needs_root


@contextlib.contextmanager
def restarted(folder: Path):
    """The device of malicious_device(folder) booted again: its apps come back from its data."""
    device = Device(folder / "data", cancellation_timeout=1.0)
    try:
        device.serve()
        yield device
    finally:
        device.shutdown()


def test_a_restarted_device_gets_the_user_it_had_so_its_apps_keep_their_uids(open_folder):
    with malicious_device(open_folder) as device:
        first = device.os_user.user_id
        uid = device.registry.get(MALICIOUS).uid
        blocker = claim_os_user()  # a second device that boots while the first runs
        try:
            assert blocker.user_id != first
        finally:
            blocker.release()
    with restarted(open_folder) as device:
        assert device.os_user.user_id == first
        assert device.registry.get(MALICIOUS).uid == uid


def test_an_apps_files_follow_it_to_the_uid_of_a_new_user(open_folder):
    with malicious_device(open_folder) as device:
        first = device.os_user.user_id
        home = device.registry.get(MALICIOUS).data_dir
        kept = home / "kept.txt"
        assert attack(device, "writeFile", str(kept)) == "allowed: wrote it"
        old_uid = kept.stat().st_uid
    kept.chmod(0o600)  # only its owner may read it
    # Files in the app's folder the app does not own: the device's, and a link it planted.
    devices_file = home / "devices.txt"
    devices_file.write_text("root's")
    victim = open_folder / "victim.txt"
    victim.write_text("not the app's")
    link = home / "link-to-victim"
    link.symlink_to(victim)
    os.lchown(link, old_uid, old_uid)
    # A hard link to a file of the app's old uid outside its folder (another device's app of
    # that uid could have made it): re-owning the name would re-own that file too.
    elsewhere = open_folder / "elsewhere.txt"
    elsewhere.write_text("outside the app's folder")
    os.chown(elsewhere, old_uid, old_uid)
    os.link(elsewhere, home / "hard-link")

    taken = claim_os_user(first)  # another device took the user while this one was down
    try:
        with restarted(open_folder) as device:
            assert device.os_user.user_id != first
            new_uid = device.os_user.os_uid(device.registry.get(MALICIOUS).uid)
            # The app reads its file and writes beside it, as its new uid.
            assert attack(device, "readFile", str(kept)).startswith("allowed: b\"import os")
            assert attack(device, "writeFile", str(home / "after.txt")) == "allowed: wrote it"
            assert kept.stat().st_uid == new_uid
            assert (home / "after.txt").stat().st_uid == new_uid
            # Defence: only the app's own old uid is handed over, and a link is never followed.
            assert devices_file.stat().st_uid == 0
            assert link.lstat().st_uid == new_uid
            assert victim.stat().st_uid == 0
            assert elsewhere.stat().st_uid == old_uid
    finally:
        taken.release()


def test_what_a_crashed_devices_app_left_running_dies_at_the_next_boot(open_folder):
    apps = open_folder / "apps"
    copy_app(MALICIOUS_APP, apps)
    data = open_folder / "data"
    device = DeviceProcess(data, apps)
    spawned = droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", MALICIOUS,
                       "--function", "spawnChild", "--parameters", '{"arg": "detached"}', data=data)
    assert spawned.returncode == 0, spawned.stderr
    child = int(json.loads(spawned.stdout))
    device.kill()  # SIGKILL: nothing of the device runs to end its apps' processes
    assert not gone(child, timeout=1), "the detached child should outlive a crashed device"
    device = DeviceProcess(data, apps)
    try:
        # Defence: boot ends every process still running under one of its apps' uids.
        assert gone(child)
    finally:
        device.stop()
