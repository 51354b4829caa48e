"""Eval suites a user did not write: YAML aliases refused before they expand, and a suite's
regular expressions bounded in time, so that a suite cannot exhaust the memory of `droidsim
eval` or hang it (issue 32; sim/no_alias_yaml.py, sim/eval/bounded_regex.py). That a suite's
apps run as code with the user's rights is stated, not defended: docs/security.md.

The CLI runs as a user runs it, in a process of its own under a 1 GiB address-space limit."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path

import pytest

from sim.eval.apps import DeviceSetupError
from sim.eval.bounded_regex import PatternTimeout
from sim.eval.devices import open_device
from sim.eval.matchers import compile_matcher
from sim.eval.run import EvalOptions, configs
from sim.eval.suite import SuiteError, load_suite
from tests.helpers import REPO, bounded_droidsim

CASE = """\
cases:
  - id: a
    category: simple
    user: Where is order ORD-8492?
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
"""
# Nine levels of nine aliases: 1 KB that stands for 9^9 (387 million) strings.
ALIAS_BOMB = "suite: bomb\nlaughs:\n  a0: &a0 [lol]\n" + "".join(
    f"  a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]\n" for level in range(1, 10)) + CASE


def eval_cli(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    return bounded_droidsim("eval", *args, cwd=cwd)


def test_an_alias_bomb_is_refused_at_its_first_alias(tmp_path):
    """The bounded CLI first: a loader that expanded the aliases would take this process's memory."""
    (tmp_path / "suite.yaml").write_text(ALIAS_BOMB)
    assert len(ALIAS_BOMB) < 1100
    run = eval_cli("suite.yaml", "--out", tmp_path / "out", cwd=tmp_path)
    assert (run.returncode, run.stderr.splitlines()[-1]) == (
        1, "Error: suite.yaml:4: not valid YAML: anchors and aliases are not allowed in a suite")
    with pytest.raises(SuiteError) as refused:
        load_suite(tmp_path / "suite.yaml")
    assert str(refused.value) == (f"{tmp_path / 'suite.yaml'}:4: not valid YAML: anchors and aliases are not "
                                  "allowed in a suite")


@pytest.mark.parametrize("cue", [r"(.|.)*QQQ", r"^(.|.)*\d{5}$"])
def test_a_phrases_cue_that_backtracks_without_end_stops_the_run_naming_it_and_the_bound(tmp_path, cue):
    """Every reply is searched with the suite's cues: each of these takes 2^n steps on a
    sentence of n characters that it does not match (the first hung a run for ever)."""
    suite = f"suite: slow\nphrases:\n  en:\n    success: ['{cue}']\n" + CASE
    (tmp_path / "suite.yaml").write_text(suite)
    run = eval_cli("suite.yaml", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 1
    error = run.stderr.splitlines()[-1]
    assert error.startswith(f"Error: suite.yaml: the suite's phrases success cues {[cue]} ran past 1 s on a text of ")
    assert error.endswith(" characters, the bound on a suite's patterns (catastrophic backtracking? rewrite it "
                          "without nested or overlapping repeats)")


def test_a_regex_matcher_is_bounded_too():
    matcher = compile_matcher({"regex": "^(a|aa)*$", "example": "aa"})
    assert matcher.check("aaaa", True, dt.date(2026, 3, 14)) is None
    with pytest.raises(PatternTimeout, match=r"^the suite's pattern /\^\(a\|aa\)\*\$/ ran past 1 s on a text of 41 "
                                             r"characters, the bound on a suite's patterns"):
        matcher.check("a" * 40 + "b", True, dt.date(2026, 3, 14))


def test_the_shipped_suite_has_no_alias_and_loads():
    assert load_suite(REPO / "sim" / "eval" / "suites" / "sample-apps.yaml").cases


def test_apps_from_outside_the_suites_folder_are_named_as_code_that_will_run(tmp_path):
    suite_dir = tmp_path / "downloaded"
    suite_dir.mkdir()
    shutil.copytree(REPO / "apps" / "orders", tmp_path / "elsewhere" / "orders")
    (suite_dir / "suite.yaml").write_text("suite: elsewhere\napps: ../elsewhere\n" + CASE)
    suite = load_suite(suite_dir / "suite.yaml")
    assert suite.warnings() == [
        f"{suite_dir / 'suite.yaml'}:2: apps: {(tmp_path / 'elsewhere').resolve()} is outside the suite's folder: its "
        "Python runs as code with your rights (docs/security.md, \"Eval suites\")"]
    shutil.copytree(REPO / "apps" / "orders", suite_dir / "apps" / "orders")
    (suite_dir / "suite.yaml").write_text("suite: beside\napps: apps\n" + CASE)
    assert load_suite(suite_dir / "suite.yaml").warnings() == []


def test_a_cassette_from_outside_the_suite_is_refused_without_a_word_of_it(tmp_path):
    """O01: the suite names the user's AWS credentials as a cassette; the refusal quoted the line
    the YAML parser stopped at, the access key, on the terminal and into the run's records."""
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
                      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n")
    suite_dir = tmp_path / "downloaded"
    suite_dir.mkdir()
    shutil.copyfile(REPO / "tests" / "apks" / "shop.apk", suite_dir / "shop.apk")
    (suite_dir / "suite.yaml").write_text(
        f"suite: creds\nagent: com.example.assistant\napps:\n  - {{apk: shop.apk, responses: {secret}}}\n" + CASE)
    suite = load_suite(suite_dir / "suite.yaml")
    with pytest.raises(DeviceSetupError) as refused:
        open_device(configs(suite, EvalOptions())[0][1]).close()
    assert str(refused.value) == (
        f"{suite_dir / 'suite.yaml'}:4: apps[0]: cannot install {suite_dir / 'shop.apk'}: INSTALL_FAILED_BAD_RESPONSES: "
        "credentials: not YAML or JSON (line 2, column 1: expected '<document start>', but found '<scalar>')")
