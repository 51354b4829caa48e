"""docs/eval.md's examples run: every YAML block is a suite the oracle passes and the
always-wrong model fails entirely, and every sh block runs as written (outputs under tmp)."""

from __future__ import annotations

import re
import shlex

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import load_suite
from tests.helpers import REPO, droidsim

from .conftest import RUN_DATE, write_suite

DOC = (REPO / "docs" / "eval.md").read_text(encoding="utf-8")
YAML_BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, re.S)
SH_BLOCKS = re.findall(r"```sh\n(.*?)```", DOC, re.S)


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[f"yaml{i}" for i in range(len(YAML_BLOCKS))])
def test_each_suite_example_scores_100_with_the_oracle_and_0_when_wrong(tmp_path, block):
    suite = load_suite(write_suite(tmp_path, block))
    for model, expected in (("scripted", 1.0), ("wrong", 0.0)):
        summary = run_eval(suite, EvalOptions(model=model, out=tmp_path / model, run_date=RUN_DATE))
        assert summary["configs"]["base"]["scores"]["overall"]["pass@1"] == expected


@pytest.mark.parametrize("block", SH_BLOCKS, ids=[f"sh{i}" for i in range(len(SH_BLOCKS))])
def test_each_command_example_runs(tmp_path, block):
    for line in [l for l in block.splitlines() if l.strip()]:
        words = shlex.split(line.replace("/tmp/", f"{tmp_path}/"))
        assert words[0] == "droidsim", line
        result = droidsim(*[str(REPO / w) if (REPO / w).exists() and "/" in w else w for w in words[1:]],
                          timeout=240)
        assert result.returncode == 0, result.stderr
