"""`droidsim eval --device`: the cases run on a device process booted as `make sim` boots one,
each after the apps are cleared through the shell, as a separate process would do it."""

from __future__ import annotations

import json

from tests.helpers import REPO, droidsim

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
