"""What a sweep on a cluster buys: a latency-bound model on two Ray nodes against one local worker.

The model is the chat-completions test double (tests/unit/agent/chat_server.py) answering
every request 200 ms later, as a model server a network away does: a case spends its time
waiting, not computing, which is what spreading a sweep over machines is for. The same
cases run with one local worker (``--workers 1``) and on a cluster of two nodes of one CPU
each (tests/ray_cluster.py: two ``ray start`` processes on this machine, in a network
namespace of their own with only loopback), in cases per second from the first finished
case to the last; the cluster's run follows a short one that starts its workers and their
devices, as the start-up of a local worker is no part of its figure either.

The driver runs inside the cluster's namespace: ``python -m bench.ray_sweep --address A
--base-url URL`` prints the two rates as JSON. ``python -m bench --only ray`` runs the row.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.report import Report, Row, Target

SPEEDUP_TARGET = 1.7
MODEL_SECONDS = 0.2
CASES = 24  # of the shipped suite, each run TRIALS times: about 15 s with one worker
TRIALS = 2
WARM_UP_RUNS = 5  # of 4 cases, until every node has run one
RUN_DATE = dt.date(2026, 3, 14)
ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "sim" / "eval" / "suites" / "sample-apps.yaml"
CHAT_SERVER = ROOT / "tests" / "unit" / "agent" / "chat_server.py"
DRIVER_BOUND = 600  # seconds for both runs, on a loaded machine


def run(report: Report) -> None:
    from tests.ray_cluster import LoopbackNamespace, RayCluster, unavailable

    if reason := unavailable():
        report.notes.append(f"eval on a 2-node Ray cluster: not measured, the cluster {reason}")
        return
    namespace = LoopbackNamespace()
    cluster = RayCluster(namespace)
    try:
        address = cluster.start_two_nodes()
        chat = cluster.popen([sys.executable, str(CHAT_SERVER), "--delay", str(MODEL_SECONDS)], stdout=subprocess.PIPE)
        try:
            url = f"http://127.0.0.1:{int(chat.stdout.readline())}/v1"
            driver = cluster.run([sys.executable, "-m", "bench.ray_sweep", "--address", address, "--base-url", url],
                                 bound=DRIVER_BOUND, cwd=ROOT)
        finally:
            chat.terminate()
            chat.wait()
    finally:
        cluster.stop()
        namespace.close()
    if driver.returncode != 0:
        raise RuntimeError(f"the sweep's driver failed:\n{driver.stderr}")
    rates = json.loads(driver.stdout.splitlines()[-1])
    local = report.baseline(f"eval --workers 1, {MODEL_SECONDS * 1000:g} ms model, cases/s", rates["local"], "calls/s")
    report.add(Row(f"eval on 2 Ray nodes of 1 CPU, {MODEL_SECONDS * 1000:g} ms model, cases/s", rates["cluster"],
                   "calls/s", local, Target("ratio_at_least", SPEEDUP_TARGET),
                   detail={"cases": CASES, "trials": TRIALS,
                           **{key: value for key, value in rates.items() if key not in ("cluster", "local")}}))


def rates(address: str, base_url: str) -> dict:
    """Both runs, in this process (the cluster's driver): cases per second, first result to last."""
    import ray

    from sim.eval.ray_attach import connect
    from sim.eval.suite import load_suite

    suite = load_suite(SUITE)
    ids = [case.id for case in suite.cases[:CASES]]
    connect(ray, address)
    try:
        nodes = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
        # Every node's worker starts and boots its device (run_eval keeps a Ray it did not start).
        for _ in range(WARM_UP_RUNS):
            if _timed(suite, ids[:4], base_url, ray=True).nodes == nodes:
                break
        cluster = _timed(suite, ids, base_url, ray=True)
    finally:
        ray.shutdown()
    local = _timed(suite, ids, base_url, workers=1)
    if cluster.scores != local.scores:
        raise RuntimeError("the cluster scored the cases differently from the local worker")
    return {"cluster": cluster.per_second, "local": local.per_second, "nodes": len(nodes),
            "nodes_used": len(cluster.nodes),
            "case_seconds_p50": {"cluster": cluster.case_seconds, "local": local.case_seconds},
            "model_seconds_p50": {"cluster": cluster.model_seconds, "local": local.model_seconds}}


@dataclass
class Run:
    per_second: float  # cases, from the first finished to the last
    scores: dict
    nodes: set[str]  # that ran the cases (on Ray)
    case_seconds: float  # a case's median time in the process that ran it, the model's included
    model_seconds: float  # the model's median time in a case


def _timed(suite, ids: list[str], base_url: str, **how) -> Run:
    from sim.eval.run import EvalOptions, run_eval

    finished: list[float] = []
    records: list[dict] = []

    def note(record, done, total) -> None:
        finished.append(time.perf_counter())
        records.append(record)

    with tempfile.TemporaryDirectory(prefix="droidsim-bench-sweep-") as out:
        summary = run_eval(suite, EvalOptions(model="openai:bench", base_url=base_url, cases=ids, trials=TRIALS,
                                              out=Path(out), run_date=RUN_DATE, **how), note)
    return Run((len(finished) - 1) / (finished[-1] - finished[0]), summary["configs"]["base"]["scores"],
               {r.get("node") for r in records}, statistics.median(r["seconds"] for r in records),
               statistics.median(r["model_seconds"] for r in records))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ray_sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="The cluster's head, HOST:PORT.")
    parser.add_argument("--base-url", required=True, help="The model server's chat-completions URL.")
    args = parser.parse_args(argv)
    print(json.dumps(rates(args.address, args.base_url)))


if __name__ == "__main__":
    main()
