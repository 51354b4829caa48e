"""Where cases run: in this process, on W local worker processes, or as Ray tasks.

Every unit of work is one (configuration, case, trial) and is self-contained:
it carries the suite, the case, the device spec and the settings, and the
process that runs it boots (once) and resets its own device. So the three ways
give the same results for a deterministic model; only the order in which
results arrive differs, and the summary sorts them.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from sim.eval.devices import DeviceCache, DeviceSpec
from sim.eval.runner import ModelUnavailable, RunSettings, run_case
from sim.eval.suite import Case, Suite

INFRA_RETRIES = 2  # a case that met a server error, a timeout or a crash runs again, this many times
_DEVICES = DeviceCache()  # one per process: the worker's (or Ray worker's) own devices
_WORKER: dict[str, Any] = {}  # a worker process's suite and settings, sent once when it starts


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
    failures are retried on a freshly reset device; ``attempts`` says how many runs it took."""
    for attempt in range(1, INFRA_RETRIES + 2):
        result = run_case(suite, work.case, _DEVICES.get(work.device), settings, work.trial)
        if result.infra_error is None:
            break
    return {"config": work.config, **result.to_dict(), "attempts": attempt}


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
    _WORKER.update(suite=suite, settings=settings)


def _worker_execute(work: Work) -> dict[str, Any]:
    return execute(_WORKER["suite"], work, _WORKER["settings"])


class UnprotectedRay(Exception):
    """A local Ray would start without its token, open to every process and machine."""


def _require_ray_token() -> None:
    """Ray's servers listen on every interface, whatever the node address (Ray 2.60 binds its
    gRPC servers so, with no option to change it), so its token (on by default since Ray
    2.5x) is what keeps other processes, installed apps included, and other machines out of
    the local Ray the eval starts, and the token file is made its user's alone."""
    mode = os.environ.get("RAY_AUTH_MODE", "token")
    if mode == "disabled":
        raise UnprotectedRay(f"RAY_AUTH_MODE={mode}: the local Ray listens on every interface, and without its "
                             "token anyone who reaches it runs code as you; unset RAY_AUTH_MODE (or set it to token)")


def _private_ray_token() -> None:
    token = Path.home() / ".ray" / "auth_token"  # where Ray keeps the token it made
    try:
        if token.stat().st_uid == os.geteuid():
            token.chmod(0o600)
    except FileNotFoundError:
        pass


def run_ray(suite: Suite, works: list[Work], settings: RunSettings, address: str | None) -> Iterator[dict[str, Any]]:
    """Each unit of work a Ray task; ``address`` a cluster (``ray start --head``), else a local Ray."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        if not address:
            _require_ray_token()
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
        if not address:
            _private_ray_token()
    task = ray.remote(_ray_execute)
    suite_ref = ray.put(suite)
    pending = [task.remote(suite_ref, work, settings) for work in works]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayTaskError as error:
                if isinstance(error.cause, ModelUnavailable):
                    raise ModelUnavailable(str(error.cause)) from None
                raise
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


def _ray_execute(suite: Suite, work: Work, settings: RunSettings) -> dict[str, Any]:
    return execute(suite, work, settings)
