"""`droidsim eval tau2 replay` and `droidsim eval tau2 gold` as a user runs them, in their own
process: their outputs; every bad input refused with a message that names it (in this process: it
is refused before any device boots); and the commands and Python of docs/benchmarks.md, which need
the data and so are not run by tests/docs/."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from tests.docs.blocks import commands, read_blocks
from tests.helpers import REPO, droidsim

SLOW = 300  # a command's bound: a loaded machine is slow, not failing


@pytest.fixture(scope="module")
def late_runs(benchmarks, tmp_path_factory):
    """Task 46's four recorded runs, in a file of their own (the last is the one scored differently)."""
    source = benchmarks / "tau-bench-v1" / "historical_trajectories" / "gpt-4o-airline.json"
    path = tmp_path_factory.mktemp("runs") / "task46.json"
    path.write_text(json.dumps([run for run in json.loads(source.read_text()) if run["task_id"] == 46]))
    return path


def test_replay_prints_one_object_per_run_or_a_table_with_the_agreement(benchmarks, late_runs):
    data = str(benchmarks / "tau-bench-v1" / "airline")
    result = droidsim("eval", "tau2", "replay", "--domain", "airline", "--data", data, str(late_runs), "--json",
                      timeout=SLOW)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["task_id"], r["trial"], r["reward"], r["recorded_reward"]) for r in records] == [
        (46, 0, 0, 0), (46, 1, 1, 1), (46, 2, 1, 1), (46, 3, 1, 0)]
    assert {r["communicated"] for r in records} == {None}
    table = droidsim("eval", "tau2", "replay", "--domain", "airline", "--data", data, str(late_runs),
                     "--require-agreement", "4", timeout=SLOW)
    assert table.stdout.splitlines()[-2:] == [
        "4 runs, 3 rewarded",
        "the recorded reward on 3 of 4: task 46 trial 3: recorded 0, replayed 1 (the run hit its step limit and was "
        "never scored: recorded 0)"]
    assert table.returncode == 1
    assert "Error: 3 runs got their recorded reward, fewer than the 4 required" in table.stderr


def test_gold_lists_the_tasks_whose_gold_raises_or_changes_nothing(benchmarks):
    data = str(benchmarks / "tau2" / "airline")
    result = droidsim("eval", "tau2", "gold", "--domain", "airline", "--data", data, "--split", "test", "--json",
                      timeout=SLOW)
    assert result.returncode == 0, result.stderr
    report = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(report) == 20 and not any(entry["errors"] for entry in report)
    assert {entry["task_id"] for entry in report if entry["unchanged"]} <= {
        "0", "1", "2", "3", "4", "5", "6", "9", "10", "13", "26", "27", "28", "31", "34", "36", "38", "41", "43",
        "45", "46", "47", "48", "49"}


@pytest.mark.parametrize("arguments, message", [
    (["gold", "--domain", "telecom", "--data", "DATA"], "Error: unknown domain 'telecom': droidsim has τ²'s retail and airline"),
    (["gold", "--domain", "retail", "--data", "DATA/tau-bench-v1/airline"],
     "Error: DATA/tau-bench-v1/airline holds τ-bench v1's airline data, not retail's"),
    (["replay", "--domain", "airline", "--data", "DATA/tau2/airline", "RUNS"],
     "Error: RUNS: run #0 (task 7, trial 0): traj[1]: the tool call names no function"),
    (["replay", "--domain", "retail", "--data", "DATA/tau2/retail", "PLAIN"],
     "Error: run #0 (task 999, trial 0): DATA/tau2/retail/tasks.json: no task '999'"),
])
def test_bad_input_is_refused_by_name(benchmarks, tmp_path, arguments, message):
    runs, plain = tmp_path / "runs.json", tmp_path / "plain.json"
    runs.write_text(json.dumps([{"task_id": 7, "trial": 0, "reward": 0, "info": {"task": {"actions": [], "outputs": []}},
                                 "traj": [{"role": "user", "content": "hi"},
                                          {"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}]}]))
    plain.write_text(json.dumps([{"task_id": "999", "calls": [], "messages": []}]))
    names = {"DATA": str(benchmarks), "RUNS": str(runs), "PLAIN": str(plain)}
    swap = lambda text: re.sub("DATA|RUNS|PLAIN", lambda m: names[m.group(0)], text)  # noqa: E731
    result = CliRunner().invoke(cli, ["eval", "tau2", *map(swap, arguments)])
    assert result.exit_code == 1
    assert swap(message) in result.output, result.output


def test_the_pages_commands_and_python_run(benchmarks, late_runs):
    """docs/benchmarks.md, with its data path pointed at the data; the replay runs on task 46's runs
    (all 200 are `make tau2-replay`)."""
    blocks = [b for b in read_blocks(REPO / "docs" / "benchmarks.md") if "tests/unit/tau2/test_cli.py" in b.reason]
    assert len(blocks) == 3
    point = lambda text: text.replace("../shared/reference/benchmarks", str(benchmarks))  # noqa: E731
    for block in blocks:
        if block.language == "python":
            ran = subprocess.run([sys.executable, "-c", point(block.source)], cwd=REPO, capture_output=True, text=True,
                                 timeout=SLOW)
            assert ran.returncode == 0, ran.stderr
            assert ran.stdout.startswith("delivered False {'added': {}, 'removed': {}, 'changed': {'orders': {'#W2378156':")
            continue
        for _, argv in commands(block):
            argv = [point(arg) for arg in argv]
            if argv[2:4] == ["tau2", "replay"]:
                argv[-1] = str(late_runs)
            result = droidsim(*argv[1:], timeout=SLOW)
            assert result.returncode == 0, f"{argv}\n{result.stderr}"
