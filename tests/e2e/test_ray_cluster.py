"""``droidsim eval --ray ADDRESS`` on a real cluster of two Ray nodes, each a ``ray start`` process.

The cluster is started by the very commands docs/eval.md shows (its placeholders filled in),
inside a network namespace of its own that has only loopback (tests/ray_cluster.py says why
``--node-ip-address 127.0.0.1`` is not enough). The nodes do not see the project's apps/, its
test APKs, the docs' example suites and cassettes, or this module's suites: a tmpfs hides them,
so a case that ran on a node's copy of the driver's path instead of the files shipped with the
job would fail to boot its device.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import load_suite
from tests.docs.blocks import commands, read_blocks
from tests.helpers import REPO
from tests.ray_cluster import LoopbackNamespace, Output, RayCluster, unavailable

pytest.importorskip("ray", reason="ray is not installed (make test installs the 'ray' extra)")
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
              pytest.mark.timeout(600), pytest.mark.slow]

RUN_DATE = "2026-03-14"
EVAL_BOUND = 300  # seconds a run of a suite on the cluster may take on a loaded machine
PLACEHOLDERS = {"HEAD_IP": "127.0.0.1", "NODE_IP": "127.0.0.1"}
CHAT_SERVER = REPO / "tests" / "unit" / "agent" / "chat_server.py"
HIDDEN_FROM_THE_NODES = [REPO / "apps", REPO / "tests" / "apks", REPO / "docs" / "examples"]
APK_SUITE = REPO / "docs" / "examples" / "shop.eval.yaml"  # the shop APK, answered from its cassette
# Each case's first model request is held (never answered) as often as its prompt says, and
# the worker waiting on it is killed: once, and on every one of the three runs a case gets.
KILLED_SUITE = """
suite: killed-workers
apps: apps
cases:
  - id: lost-once
    category: simple
    user: "Where's my order ORD-8492? [hold 1]"
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
  - id: lost-every-time
    category: simple
    user: "Where is order ORD-6025? [hold 3]"
    calls: [{function: fetch_order_details, args: {orderId: ORD-6025}}]
"""


def docs_cluster_block() -> list[list[str]]:
    """The commands of docs/eval.md's cluster example, placeholders filled in."""
    [block] = [b for b in read_blocks(REPO / "docs" / "eval.md") if "ray start --head" in b.source]
    filled = []
    for _, argv in commands(block):
        for placeholder, value in PLACEHOLDERS.items():
            argv = [word.replace(placeholder, value) for word in argv]
        filled.append(argv)
    return filled


@pytest.fixture(scope="module")
def hidden(tmp_path_factory) -> Path:
    """A folder the nodes do not see: the suites of this module live in it."""
    return tmp_path_factory.mktemp("hidden-from-the-nodes")


@pytest.fixture(scope="module")
def cluster(hidden):
    """The docs' cluster: every command up to the eval, run as written (an ``export`` sets the
    cluster's environment); the eval command is the test's to run."""
    namespace = LoopbackNamespace()
    cluster = RayCluster(namespace, hide=[*HIDDEN_FROM_THE_NODES, hidden])
    try:
        steps = docs_cluster_block()
        for argv in steps[:-1]:
            if argv[0] == "export":
                cluster.env.update(word.split("=", 1) for word in argv[1:])
            elif argv[:2] == ["ray", "start"]:
                cluster.start(argv)
            else:
                done = cluster.run([str(Path(sys.executable).parent / argv[0]), *argv[1:]], bound=120)
                assert done.returncode == 0, done.stderr
        cluster.eval_argv = steps[-1]
        yield cluster
    finally:
        cluster.stop()
        namespace.close()


def _driver(argv: list[str]) -> list[str]:
    assert argv[0] == "droidsim", argv
    return [sys.executable, "-m", "sim.cli", *argv[1:]]


def test_the_docs_commands_run_the_suite_on_a_two_node_cluster_with_a_local_runs_scores(cluster, tmp_path):
    argv = cluster.eval_argv
    assert argv[:2] == ["droidsim", "eval"] and "--ray" in argv
    result = cluster.run(_driver(argv) + ["--out", str(tmp_path / "ray"), "--date", RUN_DATE], bound=EVAL_BOUND,
                         cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr

    # Progress named both nodes, and every case the node that ran it.
    [nodes_line] = [line for line in result.stderr.splitlines() if line.startswith("ray: ")]
    assert nodes_line.startswith("ray: 2 nodes, 2 CPUs: ") and nodes_line.count("at 127.0.0.1 (1 CPU)") == 2
    records = [json.loads(line) for line in (tmp_path / "ray" / "results.jsonl").read_text().splitlines()]
    shown = {word for line in result.stderr.splitlines() if " on " in line for word in line.split()[-1:]}
    assert {r["node"][:8] for r in records} == shown and shown <= set(nodes_line.split())

    suite = load_suite(REPO / argv[2])
    local = run_eval(suite, EvalOptions(model="offline", out=tmp_path / "local", run_date=dt.date.fromisoformat(RUN_DATE)))
    remote = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert remote["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]
    assert len(records) == len(suite.cases) and all(r["attempts"] == 1 and r["retried"] == [] for r in records)


@pytest.mark.skipif("responses:" not in APK_SUITE.read_text(), reason="docs/examples/shop.eval.yaml names its APK "
                    "and the cassette it answers from once suites have apps: entries (the branch that adds them)")
def test_an_apk_suite_with_its_cassette_gets_a_local_runs_scores(cluster, tmp_path):
    result = cluster.run(_driver(["droidsim", "eval", str(APK_SUITE), "--ray", _address(cluster.eval_argv),
                                  "--out", str(tmp_path / "ray"), "--date", RUN_DATE]), bound=EVAL_BOUND, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    local = run_eval(load_suite(APK_SUITE), EvalOptions(out=tmp_path / "local",
                                                        run_date=dt.date.fromisoformat(RUN_DATE)))
    remote = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert remote["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]
    assert remote["configs"]["base"]["scores"]["overall"]["pass@1"] > 0  # the cassette answered on the nodes


def test_a_worker_killed_mid_case_runs_the_case_again_and_is_counted_as_infrastructure(cluster, hidden, tmp_path):
    suite_dir = hidden / "killed"
    (suite_dir / "apps").mkdir(parents=True)
    shutil.copytree(REPO / "apps" / "orders", suite_dir / "apps" / "orders")
    (suite_dir / "suite.yaml").write_text(KILLED_SUITE)
    cases = {"Where's my order ORD-8492? [hold 1]": "lost-once", "Where is order ORD-6025? [hold 3]": "lost-every-time"}

    chat = cluster.popen([sys.executable, str(CHAT_SERVER)], stdout=subprocess.PIPE)
    try:
        port = int(chat.stdout.readline())
        held = Output(chat.stdout)
        driver = cluster.popen(_driver(["droidsim", "eval", str(suite_dir / "suite.yaml"), "--ray", "--model",
                                        "openai:test", "--base-url", f"http://127.0.0.1:{port}/v1",
                                        "--out", str(tmp_path / "out"), "--date", RUN_DATE]),
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**cluster.env, "RAY_ADDRESS": _address(cluster.eval_argv)})
        killed = []
        for count in range(1, 5):  # one hold of lost-once, three of lost-every-time
            line = held.wait_for("holding: ", "a case waiting on its model", EVAL_BOUND, count)[count - 1]
            prompt = line.removeprefix("holding: ").rstrip("\n")
            [worker] = cluster.workers_running(f"base {cases[prompt]} #0")
            os.kill(worker, signal.SIGKILL)
            killed.append(cases[prompt])
        stdout, stderr = driver.communicate(timeout=EVAL_BOUND)
    finally:
        chat.terminate()
        chat.wait(timeout=60)
    assert sorted(killed) == ["lost-every-time"] * 3 + ["lost-once"]
    assert driver.returncode == 3, stdout + stderr  # an infrastructure error, not a failed run
    assert "ray: 2 nodes" in stderr  # RAY_ADDRESS named the cluster: no Ray of its own
    assert "ERROR base lost-every-time #0" in stderr and "pass base lost-once #0 on " in stderr
    records = {r["case_id"]: r for r in map(json.loads, (tmp_path / "out" / "results.jsonl").read_text().splitlines())}
    once, every = records["lost-once"], records["lost-every-time"]
    assert once["passed"] is True and once["infra_error"] is None and once["attempts"] == 2
    assert [r["kind"] for r in once["retried"]] == ["crash"] and "WorkerCrashedError" in once["retried"][0]["detail"]
    assert every["passed"] is False and every["failures"] == [] and every["attempts"] == 3
    assert every["infra_error"]["kind"] == "crash" and "WorkerCrashedError" in every["infra_error"]["detail"]
    assert [r["kind"] for r in every["retried"]] == ["crash", "crash"]
    overall = json.loads((tmp_path / "out" / "summary.json").read_text())["configs"]["base"]["scores"]["overall"]
    assert (overall["trials_run"], overall["pass@1"], overall["infra_errors"]) == (1, 1.0, 1)


def _address(argv: list[str]) -> str:
    return argv[argv.index("--ray") + 1]
