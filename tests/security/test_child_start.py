"""Nothing an app or another local user can write runs in a device child before it drops its
privileges or confines itself (sim/zygote/child_start.py). Each test plants code where the
child would once have run it, with a marker it would leave, and shows the marker is absent
and the child still works: as root (the child would have run it as uid 0) and without root
(before Landlock confinement)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import sim.device
from sim.zygote import landlock
from sim.zygote.child_start import python_command
from tests.helpers import HELPER_APP, HELPER_PACKAGE, copy_app
from tests.security.conftest import MALICIOUS, attack, malicious_device, needs_root

USER_SITE = Path(".local", "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "site-packages")
# Modules the children import before the drop: app_main imports argparse, the verifier's zygote json.
SHADOWED = ("argparse.py", "json.py")

modes = pytest.mark.parametrize("mode", [
    pytest.param("root", marks=needs_root),
    pytest.param("without root", marks=pytest.mark.skipif(
        landlock.abi_version() == 0, reason="a device without root confines its children with Landlock (Linux 5.13+)")),
])


@pytest.fixture
def marker(open_folder):
    folder = open_folder / "markers"
    folder.mkdir()
    folder.chmod(0o777)  # whoever ran the planted code could leave its mark
    return folder / "ran"


def planted_code(marker: Path) -> str:
    return f"import os; open({str(marker)!r}, 'a').write(f'{{__file__}} ran as uid {{os.getuid()}}\\n')\n"


def plant_everywhere(folder: Path, marker: Path) -> None:
    """What Python would run from ``folder`` as a working folder, ``sys.path`` entry or HOME."""
    site = folder / USER_SITE
    site.mkdir(parents=True, exist_ok=True)
    for path in [*(folder / name for name in SHADOWED), site / "usercustomize.py", folder / "sitecustomize.py"]:
        path.write_text(planted_code(marker))
    (site / "planted.pth").write_text(planted_code(marker))


NOBODY = 65534  # another local user: an account of no one's (nobody) on Debian


def as_another_user(plant) -> None:
    """Run ``plant`` as another local user: as root, in a child that became ``nobody``;
    without root the test's own account is the other user (it is not the device's)."""
    if os.geteuid() != 0:
        plant()
        return
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            plant()
            code = 0
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0, "planting as another user failed"


def no_mark(marker: Path) -> bool:
    assert not marker.exists(), marker.read_text()
    return True


@pytest.fixture
def shared_folder(open_folder, marker, monkeypatch):
    """A folder every local user may write, with code planted in it, that the device's own
    environment names: its working folder, its TMPDIR (where it once put the verifier's HOME)
    and a PYTHONPATH entry."""
    folder = open_folder / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    as_another_user(lambda: plant_everywhere(folder, marker))
    assert (folder / "json.py").stat().st_uid == (NOBODY if os.geteuid() == 0 else os.geteuid())
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setenv("PYTHONPATH", str(folder))
    return folder


def device_in(mode: str, folder: Path, monkeypatch):
    if mode == "without root":
        monkeypatch.setattr(sim.device, "os_isolation", lambda: False)
    return malicious_device(folder)


def test_in_this_venv_a_child_imports_from_the_install_only():
    command = python_command("sim.zygote.app_main", "--help", shares_device_uid=False)
    # -I: no working folder or script folder on sys.path, no user site, no PYTHON* variable.
    assert command[:2] == [sys.executable, "-I"]
    assert command[-3:] == ["-m", "sim.zygote.app_main", "--help"]  # droidsim is installed: no roots added


@modes
def test_code_an_app_plants_in_its_own_folder_never_runs_before_the_drop(mode, open_folder, marker, shared_folder,
                                                                         monkeypatch):
    with device_in(mode, open_folder, monkeypatch) as device:
        home = device.registry.get(MALICIOUS).data_dir
        for name in SHADOWED:
            assert attack(device, "plant", f"{home / name}|{planted_code(marker)}") == "allowed: planted it"
        for name in ("usercustomize.py", "planted.pth"):
            assert attack(device, "plant", f"{home / USER_SITE / name}|{planted_code(marker)}") == "allowed: planted it"
        device.processes.stop(MALICIOUS)  # the next call starts a fresh process in that folder
        state = json.loads(attack(device, "environment"))
        # Defence: python -I, started in / with HOME=/; the app's folder is its own only after the drop.
        assert no_mark(marker)
        assert (state["cwd"], state["env"]["HOME"], state["env"]["TMPDIR"]) == (str(home), str(home), str(home))
        assert not any(name.startswith("PYTHON") for name in state["env"])
        writable = (str(home), str(shared_folder))
        stray = [entry for entry in state["sys.path"] if entry in ("", ".") or entry.startswith(writable)]
        assert stray == [], f"on the app process's import path: {stray}"


@modes
def test_code_another_user_plants_in_the_devices_tmpdir_or_folder_never_runs_in_the_verifier(
        mode, open_folder, marker, shared_folder, monkeypatch):
    with device_in(mode, open_folder, monkeypatch) as device:
        update = copy_app(HELPER_APP, open_folder / "update")
        (update / "CHANGES.txt").write_text(f"a new version, built in {open_folder}\n")  # bytes never verified
        before = device.registry.get(HELPER_PACKAGE).source_hash
        # An update: the verifier's zygote starts and forks a child that imports the new code.
        device.install(update)
        # Defence: the zygote runs python -I in / with HOME=/, so neither $TMPDIR/.local's .pth,
        # its usercustomize nor a PYTHONPATH module is read; the device's folder is not its own.
        assert no_mark(marker)
        assert device.registry.get(HELPER_PACKAGE).source_hash != before  # verified and installed


@pytest.mark.skipif(sys.prefix == sys.base_prefix, reason="needs a venv: its base interpreter is one droidsim is not installed in")
def test_from_a_checkout_that_is_not_installed_a_child_gets_the_devices_own_code_roots_only(open_folder):
    """The device run by the venv's base interpreter with the checkout on PYTHONPATH: its
    children ignore PYTHONPATH (-I) but still import the device's code, from where the device does."""
    checkout = str(Path(__file__).resolve().parents[2])
    script = ("import json, subprocess, sim; from sim.zygote.child_start import python_command; "
              "command = python_command('sim.zygote.child_start', shares_device_uid=False); "
              "done = subprocess.run(command, env={}, cwd='/', capture_output=True, text=True); "
              "print(json.dumps({'command': command, 'code': done.returncode, 'stderr': done.stderr}))")
    base = os.path.realpath(sys.executable)
    run = subprocess.run([base, "-c", script], env={"PYTHONPATH": f"{open_folder}{os.pathsep}{checkout}"},
                         cwd=open_folder, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["command"][:3] == [base, "-I", "-c"]
    assert result["command"][4] == checkout  # the folder sim came from; not the other PYTHONPATH entry
    assert result["code"] == 0, result["stderr"]
