"""docs/eval.md's suite examples run: every YAML block (but a fragment) is a suite the oracle
passes and the always-wrong model fails entirely. (Its sh blocks are the commands test_cli.py and
test_self_check.py run, and the docs harness runs them as written.)"""

from __future__ import annotations

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import load_suite
from tests.docs.blocks import read_blocks
from tests.helpers import REPO

from .conftest import RUN_DATE, write_suite

YAML_BLOCKS = [b.source for b in read_blocks(REPO / "docs" / "eval.md")
               if b.language == "yaml" and b.kind != "fragment"]


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[f"yaml{i}" for i in range(len(YAML_BLOCKS))])
def test_each_suite_example_scores_100_with_the_oracle_and_0_when_wrong(tmp_path, block):
    suite = load_suite(write_suite(tmp_path, block))
    for model, expected in (("scripted", 1.0), ("wrong", 0.0)):
        summary = run_eval(suite, EvalOptions(model=model, out=tmp_path / model, run_date=RUN_DATE))
        assert summary["configs"]["base"]["scores"]["overall"]["pass@1"] == expected
