"""docs/kotlin.md's CI step, run as written on the bank APK in a Gradle project's layout: Gradle
is the one thing it cannot run here, so the checked-in APK stands where assembleDebug puts it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.helpers import COMMAND_BOUND, REPO

STEP = re.compile(r"<!-- fragment: a CI step of your Gradle project[^>]*-->\n```sh\n(.*?)```", re.S)
TESTS = '''\
from droid.appfunctions import AppFunctionElementNotFoundException

import pytest

APK = "app/build/outputs/apk/debug/app-debug.apk"


def test_the_balance_answers_from_the_recording(droid_device):
    droid_device.install(APK, responses="droidsim/app.cassette.yaml")
    assert droid_device.call("getBalance", accountId="ACC-1").amount == 1234.56


def test_an_unknown_account_is_not_found(droid_device):
    droid_device.install(APK, responses="droidsim/app.cassette.yaml")
    with pytest.raises(AppFunctionElementNotFoundException):
        droid_device.call("getBalance", accountId="ACC-404")
'''


def test_the_ci_step_lints_tests_and_evaluates_the_apk_writing_junit(tmp_path):
    project = tmp_path / "bank"
    (project / "app" / "build" / "outputs" / "apk" / "debug").mkdir(parents=True)
    shutil.copy(REPO / "tests" / "apks" / "bank-signed.apk", project / "app/build/outputs/apk/debug/app-debug.apk")
    ours = project / "droidsim"
    ours.mkdir()
    shutil.copy(REPO / "docs" / "examples" / "bank-lint.xml", ours / "droidsim-lint.xml")
    shutil.copy(REPO / "docs" / "examples" / "bank.cassette.yaml", ours / "app.cassette.yaml")
    suite = (REPO / "docs" / "examples" / "bank.eval.yaml").read_text()
    (ours / "app.eval.yaml").write_text(suite.replace("../../tests/apks/bank-signed.apk",
                                                      "../app/build/outputs/apk/debug/app-debug.apk")
                                        .replace("responses: bank.cassette.yaml", "responses: app.cassette.yaml"))
    (ours / "test_app.py").write_text(TESTS)
    step = STEP.search((REPO / "docs" / "kotlin.md").read_text()).group(1)
    assert "./gradlew assembleDebug\n" in step
    script = step.replace("./gradlew assembleDebug\n", "")  # the APK is in place already
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True,
                            timeout=COMMAND_BOUND, env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert result.returncode == 0, result.stdout + result.stderr

    def report(name: str) -> ET.Element:
        root = ET.parse(project / "build" / "droidsim" / name).getroot()
        return root if root.tag == "testsuite" else root.find("testsuite")

    lint, tests, evaluation = report("lint.xml"), report("pytest.xml"), report("eval.xml")
    assert (lint.get("failures"), lint.get("errors")) == ("0", "0")  # D1 suppressed, with its reason
    assert (tests.get("tests"), tests.get("failures"), tests.get("errors")) == ("2", "0", "0")
    assert evaluation.get("tests") == "10" and int(evaluation.get("failures")) == 3  # the offline model's 7 of 10
