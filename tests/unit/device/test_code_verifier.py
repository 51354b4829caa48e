"""The install-time code verifier: a fresh child of one clean zygote per verification, so
nothing an app's import-time code does reaches a later one, and a child that hangs or dies
is refused while the next install is verified as usual (sim/pm/verifier_zygote.py). A device
shut down hands its zygote, clean, to the next device booted in the same process, and code
verified once is not run again while its bytes stay the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.conformance.expect import eventually
from sim.device import Device
from sim.pm.code_verifier import CodeVerifier
from sim.pm.verified_code import code_digest
from tests.helpers import (COMMAND_BOUND, EVENT_BOUND, HELPER_APP, HELPER_PACKAGE, HUNG_AFTER, REPO, app_whose_import_runs,
                           verifier_zygotes)

pytestmark = pytest.mark.usefixtures("own_zygotes")


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        yield device


def test_what_one_apps_import_leaves_in_the_verifier_never_reaches_the_next(device, tmp_path):
    plant = "import droid.appfunctions.compiler as planted; planted.PLANTED_BY_AN_APP = True"
    check = ("import droid.appfunctions.compiler as planted\n"
             "assert not hasattr(planted, 'PLANTED_BY_AN_APP'), 'an earlier verification reached this one'")
    device.install(app_whose_import_runs(tmp_path, "planter", plant))
    device.install(app_whose_import_runs(tmp_path, "checker", check))
    assert {"com.example.planter", "com.example.checker"} <= {p.package_name for p in device.registry.all()}
    assert len(verifier_zygotes()) == 1  # both verified by children of one zygote


def test_an_app_that_floods_the_verifiers_answer_pipe_is_refused_and_the_next_is_answered(device, tmp_path):
    flood = ("import os\n"
             "chunk = b'x' * (1 << 20)\n"
             "for fd in map(int, os.listdir('/proc/self/fd')):\n"
             "    try:\n"
             "        for _ in range(200) if fd > 2 else ():\n"
             "            os.write(fd, chunk)\n"
             "    except OSError:\n"
             "        pass")
    with pytest.raises(IllegalArgumentException,
                       match="INSTALL_FAILED_BAD_CODE: .*wrote more than 128 MiB as its answer \\(stopped there\\)"):
        device.install(app_whose_import_runs(tmp_path, "flood", flood))
    assert device.registry.get("com.example.flood") is None
    device.install(HELPER_APP)
    assert device.registry.get(HELPER_PACKAGE) is not None


def test_a_verification_that_hangs_is_refused_and_the_next_is_answered(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False, verifier=CodeVerifier(timeout=HUNG_AFTER)) as device:
        with pytest.raises(IllegalArgumentException,
                           match="INSTALL_FAILED_BAD_CODE: .*killed the verifier process \\(or took too long\\)"):
            device.install(app_whose_import_runs(tmp_path, "sleeper", "import time; time.sleep(60)"))
        assert device.registry.get("com.example.sleeper") is None
        device.install(HELPER_APP)
        assert device.registry.get(HELPER_PACKAGE) is not None


def test_code_that_kills_its_verifier_leaves_the_zygote_serving(device, tmp_path):
    device.install(HELPER_APP)
    zygote = verifier_zygotes()
    with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_BAD_CODE"):
        device.install(app_whose_import_runs(tmp_path, "suicide", "import os; os._exit(3)"))
    device.install(app_whose_import_runs(tmp_path, "after", ""))
    assert verifier_zygotes() == zygote


def test_a_zygote_that_died_is_started_again_at_the_next_install(device, tmp_path):
    device.install(HELPER_APP)
    [zygote] = verifier_zygotes()
    os.kill(zygote, 9)
    eventually("the killed zygote to end", lambda: zygote not in verifier_zygotes(), EVENT_BOUND,
               lambda: f"zygotes running: {verifier_zygotes()}")
    device.install(app_whose_import_runs(tmp_path, "after", ""))
    assert device.registry.get("com.example.after") is not None
    [restarted] = verifier_zygotes()
    assert restarted != zygote


def test_shutdown_hands_the_zygote_to_the_next_device_which_verifies_as_usual(tmp_path):
    with Device(tmp_path / "first", isolated_apps=False) as first:
        first.install(HELPER_APP)
        [zygote] = verifier_zygotes()
    assert verifier_zygotes() == [zygote]  # waiting for the next device
    with Device(tmp_path / "second", isolated_apps=False) as second:
        second.install(app_whose_import_runs(tmp_path, "after", ""))
        assert second.registry.get("com.example.after") is not None
        with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_BAD_CODE"):
            second.install(app_whose_import_runs(tmp_path, "suicide", "import os; os._exit(3)"))
        assert verifier_zygotes() == [zygote]


def test_a_zygote_that_forked_spare_decoders_ends_with_its_device(tmp_path):
    device = Device(tmp_path / "data", isolated_apps=False)
    device.install(REPO / "tests" / "apks" / "shop.apk")
    assert len(verifier_zygotes()) == 1
    device.shutdown()
    assert verifier_zygotes() == []


def test_a_zygote_left_waiting_ends_with_its_process(tmp_path):
    script = ("import sys\nfrom pathlib import Path\nfrom sim.device import Device\nfrom tests.helpers import "
              "HELPER_APP, verifier_zygotes\nwith Device(Path(sys.argv[1]), isolated_apps=False) as device:\n"
              "    device.install(HELPER_APP)\nprint(*verifier_zygotes())\n")
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path / "data")], capture_output=True, text=True,
                            cwd=REPO, timeout=COMMAND_BOUND, check=True)
    [zygote] = map(int, result.stdout.split())
    eventually("the waiting zygote to end with its process", lambda: not Path(f"/proc/{zygote}").exists(), EVENT_BOUND,
               lambda: f"pid {zygote} still runs")


def test_code_verified_once_in_a_process_is_not_run_again_until_a_byte_of_it_changes(tmp_path, monkeypatch):
    asked = []
    ask = CodeVerifier._ask
    monkeypatch.setattr(CodeVerifier, "_ask", lambda self, request: asked.append(request) or ask(self, request))
    app = app_whose_import_runs(tmp_path, "same", "")
    with Device(tmp_path / "first", isolated_apps=False) as first:
        first.install(app)
    with Device(tmp_path / "second", isolated_apps=False) as second:
        second.install(app)  # the same bytes, staged by another device: what they declare is known
        assert len(asked) == 1
        service = app / "testutils.py"
        service.write_text(service.read_text() + "\n# an update\n")
        second.install(app)
        assert len(asked) == 2
        broken = app_whose_import_runs(tmp_path, "broken", "raise RuntimeError('not today')")
        for _ in range(2):  # a failure is not remembered: on a loaded machine it may be a timeout
            with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_BAD_CODE: .*RuntimeError: not today"):
                second.install(broken)
        assert len(asked) == 4


def test_the_codes_digest_holds_every_files_name_and_bytes(tmp_path):
    (tmp_path / "app" / "pkg").mkdir(parents=True)
    (tmp_path / "app" / "pkg" / "service.py").write_text("x = 1\n")
    before = code_digest(tmp_path / "app")
    (tmp_path / "app" / "pkg" / "service.py").rename(tmp_path / "app" / "pkg" / "other.py")
    renamed = code_digest(tmp_path / "app")
    (tmp_path / "app" / "pkg" / "other.py").write_text("x = 2\n")
    changed = code_digest(tmp_path / "app")
    (tmp_path / "app" / "pkg" / "other.py").unlink()
    (tmp_path / "app" / "pkg" / "other.py").symlink_to("service.py")
    linked = code_digest(tmp_path / "app")
    assert len({before, renamed, changed, linked}) == 4
