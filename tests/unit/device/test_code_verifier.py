"""The install-time code verifier: a fresh child of one clean zygote per verification, so
nothing an app's import-time code does reaches a later one, and a child that hangs or dies
is refused while the next install is verified as usual (sim/pm/verifier_zygote.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.conformance.expect import eventually
from sim.device import Device
from sim.pm.code_verifier import CodeVerifier
from tests.helpers import (EVENT_BOUND, HELPER_APP, HELPER_PACKAGE, HUNG_AFTER, app_whose_import_runs,
                           verifier_zygotes)

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


def test_shutdown_ends_the_zygote(tmp_path):
    device = Device(tmp_path / "data", isolated_apps=False)
    device.install(HELPER_APP)
    assert len(verifier_zygotes()) == 1
    device.shutdown()
    assert verifier_zygotes() == []
