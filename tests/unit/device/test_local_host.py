"""The in-process app host: app code runs one piece at a time, as on the app's main thread; a
call nothing can cancel may run it on the calling thread while the main thread is idle."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.appfunctions.service import AppFunctionService
from droid.os.cancellation import CancellationSignal
from sim.zygote.hosts import LocalAppHost
from sim.zygote.runtime import AppRuntime
from tests.helpers import EVENT_BOUND

PACKAGE = "com.test.threads"


class Recorder(AppFunctionService):
    """Notes the thread each piece of app code runs on; ``later`` answers from a loop callback,
    ``block`` waits for the test to release it."""

    threads: list[str] = []
    running = threading.Semaphore(1)
    started = threading.Event()
    release = threading.Event()

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        if not Recorder.running.acquire(blocking=False):
            raise AssertionError("app code ran on two threads at once")
        try:
            Recorder.threads.append(threading.current_thread().name)
            if request.function_identifier == "block":
                Recorder.started.set()
                Recorder.release.wait(30)
            if request.function_identifier == "later":
                asyncio.get_running_loop().call_soon(self._answer_later, callback)
                return
            callback.on_result(ExecuteAppFunctionResponse.of(1))
        finally:
            Recorder.running.release()

    def _answer_later(self, callback) -> None:
        Recorder.threads.append(threading.current_thread().name)
        callback.on_result(ExecuteAppFunctionResponse.of(2))


@pytest.fixture
def host(tmp_path: Path):
    Recorder.threads, Recorder.started, Recorder.release = [], threading.Event(), threading.Event()
    runtime = AppRuntime(PACKAGE, tmp_path, lambda: None, lambda app_dir, name: Recorder)
    host = LocalAppHost(runtime, cancellation_timeout=5.0)
    yield host
    host.stop()


def call(host, function_id: str, signal: CancellationSignal | None):
    return host.execute(ExecuteAppFunctionRequest(PACKAGE, function_id), "com.test.caller", "Recorder", signal)


def call_until_it_runs_here(host, function_id: str):
    """Uncancellable calls until one finds the main thread idle (it is busy for a moment after
    each call it ran); the outcome of that one."""
    for _ in range(200):
        before = len(Recorder.threads)
        outcome = call(host, function_id, None)
        if Recorder.threads[before] == threading.current_thread().name:
            return outcome, Recorder.threads[before:]
        time.sleep(0.01)
    raise AssertionError(f"no call ran on the calling thread: {Recorder.threads}")


def test_a_call_nothing_can_cancel_runs_on_the_calling_thread_once_the_main_thread_is_idle(host):
    outcome, threads = call_until_it_runs_here(host, "now")
    assert outcome.return_value == 1 and threads == [threading.current_thread().name]


def test_a_cancellable_call_runs_on_the_main_thread(host):
    assert call(host, "now", CancellationSignal()).return_value == 1
    assert call(host, "now", CancellationSignal()).return_value == 1
    assert Recorder.threads == [f"app:{PACKAGE}"] * 2


def test_what_a_call_starts_runs_on_the_main_thread(host):
    outcome, threads = call_until_it_runs_here(host, "later")
    assert outcome.return_value == 2 and threads == [threading.current_thread().name, f"app:{PACKAGE}"]


def test_a_call_waits_for_the_main_thread_rather_than_run_beside_it(host):
    busy = threading.Thread(target=call, args=(host, "block", CancellationSignal()))
    busy.start()
    assert Recorder.started.wait(EVENT_BOUND), "the first call to start"
    outcome = []
    waiting = threading.Thread(target=lambda: outcome.append(call(host, "now", None)))
    waiting.start()
    waiting.join(0.3)
    assert not outcome, "the call did not wait for the busy main thread"
    Recorder.release.set()
    busy.join(EVENT_BOUND)
    waiting.join(EVENT_BOUND)
    assert outcome[0].return_value == 1
    assert Recorder.threads == [f"app:{PACKAGE}"] * 2  # it ran on the main thread once free
