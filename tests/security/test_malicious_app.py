"""An installed app attacks the device from inside its own process; each attack fails, and
each test names the defence that stopped it (docs/security.md). These need root: a device
that is not root cannot give apps their own uids and says so (test_without_root.py)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from droid.os.binder import FIRST_APPLICATION_UID
from tests.helpers import HELPER_PACKAGE, copy_app
from tests.security.conftest import MALICIOUS, MALICIOUS_APP, alive, attack, gone, needs_root

pytestmark = needs_root


def os_uid_of(device, package: str) -> int:
    return device.os_user.os_uid(device.registry.get(package).uid)


def test_the_app_runs_under_its_own_uid_in_its_own_folder_with_a_clean_environment(served, monkeypatch):
    state = json.loads(attack(served, "environment"))
    uid = os_uid_of(served, MALICIOUS)
    assert served.registry.get(MALICIOUS).uid >= FIRST_APPLICATION_UID
    assert (state["uid"], state["gid"], state["groups"]) == (uid, uid, [])
    home = served.registry.get(MALICIOUS).data_dir
    assert state["cwd"] == str(home)
    assert (home.stat().st_uid, home.stat().st_mode & 0o777) == (uid, 0o700)
    # Defence: a clean environment; nothing of the device's (its API keys, tokens) is passed on.
    assert set(state["env"]) <= {"HOME", "TMPDIR", "PATH", "LANG", "DROIDSIM_DEVICE"}
    assert state["env"]["HOME"] == str(home)
    with served.shell_context() as shell:
        assert shell.app_function_manager.dump().splitlines()[2].startswith(
            "OS isolation: on (the device runs as root): each app runs under its own uid"
        )


@pytest.mark.parametrize("target", ["shell.credential", "device.db", "logcat.txt", "victim credential"])
def test_the_app_cannot_read_what_is_the_devices_or_another_apps(served, target):
    path = (served.registry.get(HELPER_PACKAGE).credential_file if target == "victim credential"
            else served.data_dir / target)
    path.touch()  # logcat.txt exists only where the CLI configured logging
    if target == "logcat.txt":
        path.chmod(0o600)
    result = attack(served, "readFile", str(path))
    # Defence: the file's own mode (0600) and owner (the device, or the victim's uid); the
    # folders above it let the app walk through (0711), so nothing else stopped it.
    assert result.startswith("refused: EACCES"), result
    assert path.stat().st_mode & 0o777 == 0o600
    assert os.access(path.parent, os.X_OK)
    assert path.stat().st_uid != os_uid_of(served, MALICIOUS)


def test_the_app_cannot_list_the_data_directory_or_enter_another_apps_folder(served):
    victim_folder = served.registry.get(HELPER_PACKAGE).data_dir
    victim_folder.mkdir(exist_ok=True)
    (victim_folder / "notes.txt").write_text("private")
    served.processes.stop(HELPER_PACKAGE)  # not started: own its folder now, as a start would
    from sim.zygote.specialize import own_for_app

    own_for_app(victim_folder, os_uid_of(served, HELPER_PACKAGE), 0o700)
    # Defence: the victim's folder is 0700 and its uid's; the data directory is 0711.
    assert attack(served, "readFile", str(victim_folder / "notes.txt")).startswith("refused: EACCES")
    assert served.data_dir.stat().st_mode & 0o777 == 0o711


def test_the_app_reads_its_own_credential(served):
    result = attack(served, "readFile", str(served.registry.get(MALICIOUS).credential_file))
    assert result.startswith("allowed: "), result


def test_a_stolen_secret_does_not_make_the_app_anyone_else(served):
    shell_secret = served.shell_credential_file.read_text().strip()
    # Defence 1: the device's public socket is its user's only (0600): the kernel refuses the connect.
    through_public = attack(served, "connectWith", f"unix:{served.data_dir / 'device.sock'}|{shell_secret}")
    assert through_public == "refused: EACCES Permission denied"
    # Defence 2: on the app socket, the kernel names the peer (SO_PEERCRED): the app is itself.
    through_own = attack(served, "connectWith", f"{served.app_address}|{shell_secret}")
    assert through_own == f"allowed: the device says this is {MALICIOUS}"


def test_a_stolen_secret_does_not_make_the_app_anyone_else_over_loopback_tcp(open_folder):
    from droid.content.context import connect
    from sim.device import Device

    with Device(open_folder / "tcp-data") as device:
        device.install(copy_app(MALICIOUS_APP, open_folder / "tcp-apps"))
        address = device.serve("127.0.0.1:0")
        shell_secret = device.shell_credential_file.read_text().strip()
        # Defence: the kernel's socket table names the loopback peer's uid (sim/server/tcp_peers.py).
        assert attack(device, "connectWith", f"{address}|{shell_secret}") == (
            f"allowed: the device says this is {MALICIOUS}"
        )
        with connect(address, shell_secret) as shell:  # the device's own user: its credential decides
            assert shell.package_name == "com.android.shell"


def test_the_app_cannot_signal_the_device(served):
    # Defence: a different uid; the kernel refuses kill() across uids without CAP_KILL.
    assert attack(served, "signalPid", str(os.getpid())) == "refused: EPERM Operation not permitted"


def test_the_app_cannot_trace_the_device_or_read_its_memory(served):
    # Defence: a different uid; /proc/PID/mem needs ptrace access, refused across uids.
    assert attack(served, "readFile", f"/proc/{os.getpid()}/mem").startswith("refused: EACCES")


def test_the_app_cannot_become_root_again(served):
    state = json.loads(attack(served, "environment"))
    # Defence: setresuid dropped every uid, and no new privileges: a setuid program gains nothing.
    assert state["setuid(0)"] == "refused: EPERM Operation not permitted"
    assert state["no new privileges"] == "1"


@pytest.mark.parametrize("end", ["crash", "pm clear", "uninstall", "shutdown"])
def test_the_apps_children_die_with_it(served, end):
    attached = int(attack(served, "spawnChild", "attached"))
    detached = int(attack(served, "spawnChild", "detached"))
    assert alive(attached) and alive(detached)
    if end == "crash":
        os.kill(served.processes.running()[MALICIOUS].pid, signal.SIGKILL)
    elif end == "pm clear":
        served.package_manager.clear_package_data(MALICIOUS)
    elif end == "uninstall":
        served.package_manager.uninstall(MALICIOUS)
    else:
        served.shutdown()
    # Defence: the process group goes, then every process of the app's uid (setsid escapes a group).
    assert gone(attached), "the child in the app's process group survived"
    assert gone(detached), "the child that left the app's process group survived"


def test_install_time_code_cannot_persist_or_reach_the_device(served, open_folder):
    report = open_folder / "report"
    report.mkdir()
    report.chmod(0o777)
    app = copy_app(MALICIOUS_APP, open_folder / "second", "malicious")
    (app / "verifier_attack.txt").write_text(f"{report}\n{served.data_dir}\n")
    served.install(app)  # an update: the verifier imports the new code
    results = json.loads((report / "verifier.json").read_text())
    # Defence: a uid of the device's isolated range, owning nothing of the device's.
    assert results["uid"] in served.os_user.isolated_uids()
    assert results["device.db"].startswith("refused: EACCES")
    assert results["shell.credential"].startswith("refused: EACCES")
    # Defence: the app copies and the interpreter's packages are the device's, not writable.
    assert results["plant in app root"].startswith("refused: EACCES")
    assert results["plant in site-packages"].startswith("refused: EACCES")
    assert results["plant beside itself"].startswith("refused: EACCES")
    # Defence: the verifier's group and every process of its uid are killed when it ends.
    assert gone(int((report / "daemon.pid").read_text())), "the verifier's daemon survived"
    # And the next install is verified by a fresh process that nothing of the last one reached.
    served.install(copy_app(MALICIOUS_APP, open_folder / "third", "malicious"))
    assert served.registry.get(MALICIOUS).source_hash != served.registry.get(HELPER_PACKAGE).source_hash


def test_the_app_cannot_plant_code_for_later_processes(served):
    import sysconfig

    target = Path(sysconfig.get_paths()["purelib"]) / "droidsim-planted.pth"
    # Defence: the interpreter's packages belong to the device's user; the app is another uid.
    assert attack(served, "writeFile", str(target)).startswith("refused: EACCES")
    assert not target.exists()
    app_copy = served.registry.get(MALICIOUS).app_dir
    assert attack(served, "writeFile", str(app_copy / "planted.py")).startswith("refused: EACCES")
