"""`droidsim eval --device`: the cases run on a device process booted as `make sim` boots one,
each after the apps are cleared through the shell, as a separate process would do it; an APK
suite scores there what it scores in-process, and a device that holds other answers is refused."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.conftest import make_sim_options
from tests.helpers import REPO, DeviceProcess, droidsim

pytestmark = pytest.mark.slow

SUITE = REPO / "sim" / "eval" / "suites" / "sample-apps.yaml"
CASES = ("destructive-cancel-order-yes", "destructive-cancel-order-no", "multi-note-then-text")


def test_eval_against_a_running_device(make_sim_device, tmp_path):
    case_options = [word for case in CASES for word in ("--case", case)]
    for _ in range(2):  # the second run meets the state the first left, unless each case resets it
        result = droidsim("eval", str(SUITE), "--model", "scripted",
                          "--device", str(make_sim_device.data), "--out", str(tmp_path), "--json", *case_options,
                          timeout=240)
        assert result.returncode == 0, result.stderr
        scores = json.loads(result.stdout)["configs"]["base"]["scores"]
        assert scores["overall"]["pass@1"] == 1.0, scores["failed"]


EXAMPLES = REPO / "docs" / "examples"
APKS = REPO / "tests" / "apks"
KOTLIN_SUITES = [  # (suite, the APK and cassette it names, what the offline model scores on it)
    ("shop.eval.yaml", "shop-signed.apk", "shop.cassette.yaml", (2, 3)),
    ("bank.eval.yaml", "bank-signed.apk", "bank.cassette.yaml", (7, 10)),
]


def _scores(result) -> dict:
    assert result.returncode == 0, result.stderr
    scores = json.loads(result.stdout)["configs"]["base"]["scores"]
    return {key: scores[key] for key in ("overall", "categories", "confusion", "failure_kinds", "functions", "failed")}


@pytest.mark.parametrize("suite, apk, cassette, passed", KOTLIN_SUITES, ids=[s[0] for s in KOTLIN_SUITES])
def test_in_process_with_its_cassette_an_apk_scores_what_a_device_holding_both_scores(tmp_path, suite, apk, cassette,
                                                                                         passed):
    """The same suite both ways: on a device process holding only the agent and the APK installed with
    its cassette (`droidsim install APK --responses CASSETTE`), and on eval's in-process devices."""
    suite, apk, cassette = EXAMPLES / suite, APKS / apk, EXAMPLES / cassette
    data = tmp_path / "data"
    options = list(make_sim_options(data))
    del options[options.index("--apps"):options.index("--apps") + 2]  # the agent alone, as make sim installs it
    device = DeviceProcess(data, extra=tuple(options))
    try:
        run = ("eval", str(suite), "--json", "--device", str(data), "--out", str(tmp_path / "device"))
        refused = droidsim(*run, timeout=240)
        assert refused.returncode == 1
        assert f"is not installed. Install them so: droidsim --device {data} install {apk} --responses {cassette}" \
            in " ".join(refused.stderr.split())
        assert droidsim("install", str(apk), "--responses", str(cassette), data=data).returncode == 0
        on_device = _scores(droidsim(*run, timeout=240))
    finally:
        device.stop()
    in_process = _scores(droidsim("eval", str(suite), "--json", "--out", str(tmp_path / "in-process"), timeout=240))
    assert in_process == on_device
    assert (on_device["overall"]["passed"], on_device["overall"]["trials_run"]) == passed


def test_a_device_of_another_sdk_holding_another_build_or_no_cassette_is_refused_naming_it(tmp_path):
    data = tmp_path / "data"
    suite, signed = EXAMPLES / "shop.eval.yaml", APKS / "shop-signed.apk"
    device = DeviceProcess(data, extra=make_sim_options(data))
    try:
        run = ("eval", str(suite), "--device", str(data), "--out", str(tmp_path / "o"))
        other_sdk = droidsim(*run, "--sdk", "36", timeout=240)
        assert other_sdk.returncode == 1
        assert f"the device at {data} runs SDK 37, not --sdk 36: drop --sdk, or start a device with --sdk 36" \
            in " ".join(other_sdk.stderr.split())
        assert droidsim("install", str(APKS / "shop.apk"), data=data).returncode == 0  # the unsigned build
        other_build = " ".join(droidsim(*run, timeout=240).stderr.split())
        assert re.search(rf"{suite}:7: apps\[0\]: com.example.shop is another build \(shop.apk, "
                         rf"SHA-256 [0-9a-f]{{12}}…; shop-signed.apk is [0-9a-f]{{12}}…\)", other_build), other_build
        assert droidsim("uninstall", "com.example.shop", data=data).returncode == 0
        assert droidsim("install", str(signed), data=data).returncode == 0
        no_cassette = " ".join(droidsim(*run, timeout=240).stderr.split())
        cassette = EXAMPLES / "shop.cassette.yaml"
        assert ("com.example.shop answers from no cassette, not shop.cassette.yaml. Install them so: "
                f"droidsim --device {data} install {signed} --responses {cassette}") in no_cassette
    finally:
        device.stop()
