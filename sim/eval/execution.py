"""Where cases run: in this process, on W local worker processes, or as Ray tasks.

Every unit of work is one (configuration, case, trial) and is self-contained:
it carries the suite, the case, the device spec and the settings, and the
process that runs it boots (once) and resets its own device. So the three ways
give the same results for a deterministic model; only the order in which
results arrive differs, and the summary sorts them.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import multiprocessing
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from sim.eval.bundle import Bundle, local_spec, make_bundle
from sim.eval.ray_attach import cluster_nodes, connect, first_line
from sim.eval.devices import DeviceCache, DeviceSetupError, DeviceSpec
from sim.eval.runner import CaseResult, ModelUnavailable, RunSettings, run_case
from sim.eval.suite import Case, Suite

INFRA_RETRIES = 2  # a case that met a server error, a timeout or a crash runs again, this many times
_DEVICES = DeviceCache()  # one per process: the worker's (or Ray worker's) own devices
_WORKER: dict[str, Any] = {}  # a worker process's suite and settings, sent once when it starts
_RAY_SUITES: dict[str, Suite] = {}  # a Ray worker's suites, by their object's id


@dataclass(frozen=True)
class Work:
    config: str
    device: DeviceSpec
    case: Case
    trial: int

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.config, self.case.id, self.trial)


def execute(suite: Suite, work: Work, settings: RunSettings) -> dict[str, Any]:
    """Run one unit of work in this process; the result record for results.jsonl. Infrastructure
    failures are retried on a freshly reset device; ``attempts`` says how many runs it took, and
    ``retried`` what each run before the last met."""
    retried: list[dict[str, str]] = []
    # A benchmark's suite runs its own cases (sim/eval/tau2); a YAML suite's run on eval's runner.
    run = getattr(suite, "run_case", None) or (lambda case, device, settings, trial: run_case(suite, case, device,
                                                                                             settings, trial))
    for _ in range(INFRA_RETRIES + 1):
        result = run(work.case, _DEVICES.get(work.device), settings, work.trial)
        if result.infra_error is None:
            break
        retried.append(result.infra_error)
    return {"config": work.config, **result.to_dict(), "attempts": len(retried) + (result.infra_error is None),
            "retried": retried[:-1] if result.infra_error else retried}


def write_each(records: Iterator[dict[str, Any]], writer: Any,
               progress: Callable[[dict[str, Any], int, int], None] | None, total: int) -> None:
    """Write each record as its unit finishes (``writer``: results.py's ResultWriter) and tell ``progress``."""
    for record in records:
        writer.add(record)
        if progress:
            progress(record, len(writer.records), total)


def local_device(spec: DeviceSpec):
    """This process's device for ``spec``, just reset; a local run goes on using it."""
    return _DEVICES.get(spec)


def close_devices() -> None:
    _DEVICES.close()


def run_local(suite: Suite, works: list[Work], settings: RunSettings) -> Iterator[dict[str, Any]]:
    for work in works:
        yield execute(suite, work, settings)


def run_workers(suite: Suite, works: list[Work], settings: RunSettings, workers: int) -> Iterator[dict[str, Any]]:
    """W spawned processes (a fork would inherit this process's gRPC and thread state). The
    suite goes to each worker once, at its start; a task carries only its case."""
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                                  initializer=_start_worker, initargs=(suite, settings))
    try:
        futures = [pool.submit(_worker_execute, work) for work in works]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(suite: Suite, settings: RunSettings) -> None:
    _own_temp_folder()
    _WORKER.update(suite=suite, settings=settings)


def _own_temp_folder() -> None:
    """A worker process's temporary files (its devices, the files its runs were sent) go into
    one folder, which a watcher process removes when the worker ends, however it ends: Ray
    ends its workers without exit handlers, and kills one that is lost mid-case. The watcher
    waits for the end of a pipe only this process writes to."""
    if "temp" in _WORKER:
        return
    folder = tempfile.mkdtemp(prefix="droidsim-eval-worker-")
    read, write = os.pipe()
    # It forks away in a session of its own: Ray kills a worker's children and process group with it.
    subprocess.run([sys.executable, "-c", _REMOVE_AT_EOF, folder], stdin=read, start_new_session=True, check=True)
    os.close(read)
    tempfile.tempdir = folder
    _WORKER["temp"] = write  # open while this process lives


_REMOVE_AT_EOF = ("import os, shutil, sys\n"
                  "if os.fork() == 0:\n"
                  "    sys.stdin.read()\n"
                  "    shutil.rmtree(sys.argv[1], ignore_errors=True)")


def _worker_execute(work: Work) -> dict[str, Any]:
    return execute(_WORKER["suite"], work, _WORKER["settings"])


def run_ray(suite: Suite, works: list[Work], settings: RunSettings, address: str | None,
            on_nodes: Callable[[list[dict[str, Any]]], None] | None = None) -> Iterator[dict[str, Any]]:
    """Each unit of work a Ray task, with the files its device needs (sim/eval/bundle.py).
    A task whose worker or node is lost is no verdict on the model: it runs again, up to
    INFRA_RETRIES times, and after that its record is an infrastructure error (a crash)."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        connect(ray, address)
    pending: dict[Any, Work] = {}
    try:
        if on_nodes:
            on_nodes(cluster_nodes(ray))
        task = ray.remote(max_retries=0)(_ray_execute)
        suite_ref = (ray.put(suite),)  # in a tuple: a task gets the reference, and fetches the suite once
        bundle = make_bundle({work.device.key(): work.device for work in works}.values(), ray.put)
        # Named by its case, which Ray shows in the worker's process title (ps) and in its state API.
        submit = lambda work: task.options(name=ray_task_name(work)).remote(suite_ref, work, settings, bundle)  # noqa: E731
        waiting = collections.deque(works)
        lost: dict[tuple[str, str, int], list[dict[str, str]]] = {}
        while waiting or pending:
            # One task more than the cluster has CPUs: the spare one goes to whichever worker frees
            # first, which keeps its lease; all of them queued at once would be shared out early,
            # leaving a node idle at the end of the run while another works through its share.
            while waiting and len(pending) <= max(1, int(ray.cluster_resources().get("CPU", 1))):
                work = waiting.popleft()
                pending[submit(work)] = work
            [done], _ = ray.wait(list(pending), num_returns=1)
            work = pending.pop(done)
            try:
                record = ray.get(done)
            except ray.exceptions.RayTaskError as error:  # raised by the case's code: said as it was raised
                if isinstance(error.cause, (ModelUnavailable, DeviceSetupError)):
                    raise error.cause from None
                raise
            except ray.exceptions.RayError as error:  # the worker, its node or the object is gone
                runs = lost.setdefault(work.key, [])
                runs.append({"kind": "crash", "detail": f"{type(error).__name__}: {first_line(error)}"})
                if len(runs) <= INFRA_RETRIES:
                    waiting.appendleft(work)
                    continue
                record = _given_up(work, runs)
            else:
                record = _after_lost_runs(record, lost.get(work.key, []))
            lost.pop(work.key, None)
            yield record
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


def ray_task_name(work: Work) -> str:
    return f"{work.config} {work.case.id} #{work.trial}"


def _after_lost_runs(record: dict[str, Any], lost: list[dict[str, str]]) -> dict[str, Any]:
    """A record of a case that ran again after its worker died: those runs counted first."""
    if not lost:
        return record
    return {**record, "attempts": record["attempts"] + len(lost), "retried": lost + record["retried"]}


def _given_up(work: Work, lost: list[dict[str, str]]) -> dict[str, Any]:
    """A case whose every run lost its worker: an infrastructure error, the last loss its reason."""
    result = CaseResult(work.case.id, work.case.category, work.trial, passed=False, infra_error=lost[-1])
    return {"config": work.config, **result.to_dict(), "attempts": len(lost), "retried": lost[:-1]}


def _ray_execute(suite_ref: tuple[Any], work: Work, settings: RunSettings, bundle: Bundle) -> dict[str, Any]:
    import ray

    _own_temp_folder()
    suite = _RAY_SUITES.get(suite_ref[0].hex())
    if suite is None:  # unpickling a suite of a hundred cases takes tens of milliseconds: once per process
        suite = _RAY_SUITES[suite_ref[0].hex()] = ray.get(suite_ref[0])
    work = dataclasses.replace(work, device=local_spec(work.device, bundle, ray.get))
    return {**execute(suite, work, settings), "node": ray.get_runtime_context().get_node_id()}
