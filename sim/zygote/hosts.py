"""App hosts: where an app's code runs, behind one blocking ``execute`` call.

``ProcessAppHost`` is the real thing (a child OS process, framed protobuf over a
socketpair); ``LocalAppHost`` runs the same AppRuntime on a thread of this
process, for in-process devices and fast tests. The device's pipeline cannot
tell them apart.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import logging
import os
import selectors
import signal as signals
import socket
import subprocess
import threading
from pathlib import Path
from typing import Callable, Protocol

from droid.appfunctions.exceptions import (
    AppFunctionAppUnknownException,
    AppFunctionCancelledException,
)
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.binder import wire
from droid.os.cancellation import CancellationSignal
from droidsim.v1 import app_function_service_pb2 as app_pb2
from sim.zygote.child_start import START_FOLDER, python_command
from sim.zygote.runtime import AppRuntime, Outcome
from sim.zygote.specialize import kill_every_process_of
from sim.zygote.wire import FrameSocket

log = logging.getLogger("droidsim.zygote")


class AppHost(Protocol):
    package_name: str

    @property
    def alive(self) -> bool: ...

    def execute(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        service_name: str,
        signal: CancellationSignal | None,
    ) -> Outcome:
        """The call's outcome; ``signal`` None when nothing can cancel it."""

    def stop(self) -> None: ...


class PendingCall:
    """One call in flight: the app's outcome, handed to the waiting caller.

    The hand-off is a lock released once, the cheapest wake-up CPython has (a
    ``concurrent.futures.Future`` costs a condition variable and a second lock);
    the first outcome wins, whoever delivers it (the app, a cancellation, a death).
    """

    __slots__ = ("app_done", "outcome", "_claimed", "_ready")

    def __init__(self) -> None:
        self.app_done = False  # the app (or its death) has answered, cancelled or not
        self.outcome: Outcome | None = None
        self._claimed = threading.Lock()
        self._ready = threading.Lock()
        self._ready.acquire()

    def deliver(self, outcome: Outcome) -> None:
        """The app's outcome (or its process's death)."""
        self.app_done = True
        self.settle(outcome)

    def settle(self, outcome: Outcome) -> bool:
        """Give the caller ``outcome`` unless it has one already; whether it was the first."""
        if not self._claimed.acquire(blocking=False):
            return False
        self.outcome = outcome
        self._ready.release()
        return True

    def wait(self) -> Outcome:
        self._ready.acquire()
        assert self.outcome is not None
        return self.outcome


class _CallTracker:
    """The part both hosts share: cancellation and its timeout, around one app call."""

    def __init__(self, cancellation_timeout: float, on_stuck: Callable[[str], None]) -> None:
        self.cancellation_timeout = cancellation_timeout
        self._on_stuck = on_stuck

    def wait(
        self,
        call: PendingCall,
        signal: CancellationSignal | None,
        cancel_in_app: Callable[[], None],
        function_id: str,
    ) -> Outcome:
        if signal is None:
            return call.wait()

        def cancelled() -> None:
            cancel_in_app()
            if not call.settle(AppFunctionCancelledException("The call was cancelled by the caller.")):
                return
            timer = threading.Timer(self.cancellation_timeout, self._kill_if_running, (call, function_id))
            timer.daemon = True
            timer.start()

        signal.set_on_cancel_listener(cancelled)
        return call.wait()

    def _kill_if_running(self, call: PendingCall, function_id: str) -> None:
        if not call.app_done:
            self._on_stuck(f"{function_id} ignored cancellation for {self.cancellation_timeout:g}s")


class _MainThreadSelector(selectors.DefaultSelector):
    """The app's event loop holds ``main`` except while it waits for something to do, so a
    thread that takes ``main`` knows the app's main thread is idle and stays so until released."""

    def __init__(self, main: threading.Lock) -> None:
        super().__init__()
        self._main = main

    def select(self, timeout: float | None = None) -> list:
        self._main.release()
        try:
            return super().select(timeout)
        finally:
            self._main.acquire()


class LocalAppHost:
    """Runs an app's runtime on its own thread and event loop, in this process.

    A call that nothing can cancel (no CancellationSignal, no execution timeout) skips the
    thread hop when the app's main thread is idle: the calling thread stands in for it, with
    the app's loop as its running loop, while the main thread is held idle, so app code
    still runs one piece at a time and whatever it starts (a task, an async function) runs on
    the main thread. A cancellable call always hops, so its caller can leave at once while
    the app's code runs on (docs/performance.md).
    """

    def __init__(self, runtime: AppRuntime, cancellation_timeout: float) -> None:
        self.package_name = runtime.package_name
        self._runtime = runtime
        self._main = threading.Lock()
        self._main.acquire()  # the loop thread's until it first waits
        self._loop = asyncio.SelectorEventLoop(_MainThreadSelector(self._main))
        self._tracker = _CallTracker(cancellation_timeout, self._abandon)
        self._thread = threading.Thread(target=self._run_loop, name=f"app:{self.package_name}", daemon=True)
        self._thread.start()
        self._alive = True

    def _run_loop(self) -> None:
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()
            self._main.release()

    @property
    def alive(self) -> bool:
        return self._alive

    def execute(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        service_name: str,
        signal: CancellationSignal | None,
    ) -> Outcome:
        call = PendingCall()
        app_signal = CancellationSignal()
        if signal is None and self._main.acquire(blocking=False):
            try:
                contextvars.copy_context().run(
                    self._run_here, request, calling_package, service_name, app_signal, call.deliver)
            finally:
                self._main.release()
            if not call.app_done:
                self._loop.call_soon_threadsafe(_wake)  # what the call started is the main thread's to run
        else:
            self._loop.call_soon_threadsafe(
                self._runtime.execute, request, calling_package, service_name, app_signal, call.deliver
            )
        return self._tracker.wait(call, signal, app_signal.cancel, request.function_identifier)

    def _run_here(self, *call: object) -> None:
        """On the calling thread, holding the idle main thread: the app's loop is the running one."""
        asyncio._set_running_loop(self._loop)  # asyncio.__all__ exports it for loops run by hand
        try:
            self._runtime.execute(*call)
        finally:
            asyncio._set_running_loop(None)

    def _abandon(self, reason: str) -> None:
        # A thread cannot be killed; the stuck call is left behind, the app restarts fresh.
        log.warning("%s: %s; abandoning its in-process host", self.package_name, reason)
        self.stop()

    def stop(self) -> None:
        if not self._alive:
            return
        self._alive = False
        self._loop.call_soon_threadsafe(self._runtime.shutdown)
        self._loop.call_soon_threadsafe(self._loop.stop)


def _wake() -> None:
    """A callback that does nothing: posting it wakes the loop to recompute what is due."""


class ProcessAppHost:
    """A child process per app: ``python -I -m sim.zygote.app_main``, in its own process group,
    under its own uid when ``os_uid`` is given (sim/zygote/specialize.py), else confined by
    Landlock when ``confine`` (sim/zygote/landlock.py). It starts in a folder of root's and
    moves into ``home`` (its data folder) only once it is the app (sim/zygote/child_start.py)."""

    def __init__(
        self,
        package_name: str,
        app_dir: Path,
        env: dict[str, str],
        cancellation_timeout: float,
        on_exit: Callable[["ProcessAppHost"], None] = lambda host: None,
        os_uid: int | None = None,
        home: Path | None = None,
        confine: bool = False,
    ) -> None:
        self.package_name = package_name
        self._tracker = _CallTracker(cancellation_timeout, self._kill)
        self._pending: dict[int, PendingCall] = {}
        self._pending_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._on_exit = on_exit
        self.os_uid = os_uid
        parent, child = socket.socketpair()
        self._frames = FrameSocket(parent)
        self.process = subprocess.Popen(
            python_command(
                "sim.zygote.app_main", "--fd", str(child.fileno()), "--package", package_name,
                "--app-dir", str(app_dir), *(["--data-dir", str(home)] if home is not None else []),
                *(["--uid", str(os_uid)] if os_uid is not None else []), *(["--confine"] if confine else []),
                shares_device_uid=os_uid is None,
            ),
            pass_fds=(child.fileno(),),
            env=env,
            cwd=START_FOLDER,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        child.close()
        self._alive = True
        threading.Thread(target=self._read_replies, name=f"binder:{package_name}", daemon=True).start()
        threading.Thread(target=self._pump_log, name=f"log:{package_name}", daemon=True).start()

    @property
    def alive(self) -> bool:
        """False from the moment the process has exited, even before the reply reader has
        seen the socket close: the call that follows a kill starts a fresh process."""
        if not self._alive or self.process.poll() is not None:
            return False
        # poll() also answers None while _died() holds the process's wait lock; _died()
        # clears _alive before it takes that lock, so a second read tells the two apart.
        return self._alive

    @property
    def pid(self) -> int:
        return self.process.pid

    def execute(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        service_name: str,
        signal: CancellationSignal,
    ) -> Outcome:
        call_id = next(self._ids)
        call = PendingCall()
        with self._pending_lock:
            if not self.alive:
                return AppFunctionAppUnknownException("Failed to connect to AppFunctionService")
            self._pending[call_id] = call
        frame = app_pb2.AppCall(call_id=call_id)
        wire.request_to_proto(request, frame.execute.request)
        frame.execute.calling_package = calling_package
        frame.execute.service_name = service_name
        try:
            self._frames.send(frame)
        except OSError:
            self._fail_pending("app process is gone")
        cancel = lambda: self._send_cancel(call_id)  # noqa: E731 - one-line callback
        return self._tracker.wait(call, signal, cancel, request.function_identifier)

    def _send_cancel(self, call_id: int) -> None:
        try:
            self._frames.send(app_pb2.AppCall(call_id=call_id, cancel=app_pb2.CancelCall()))
        except OSError:
            pass

    def _read_replies(self) -> None:
        while True:
            try:
                reply = self._frames.receive(app_pb2.AppReply)
            except (ConnectionError, ValueError) as error:
                log.error("%s sent a bad frame: %s", self.package_name, error)
                reply = None
            if reply is None:
                break
            with self._pending_lock:
                call = self._pending.pop(reply.call_id, None)
            if call is not None:
                call.deliver(self._outcome_of(reply))
        self._died()

    def _outcome_of(self, reply: app_pb2.AppReply) -> Outcome:
        """The app's result, checked and kept encoded for the caller; one it cannot have meant
        (malformed data) fails that call only."""
        try:
            return wire.result_from_proto(reply.result, encoded=True)
        except wire.MalformedDataError as error:
            log.error("%s sent a malformed result: %s", self.package_name, error)
            return AppFunctionAppUnknownException(f"The app sent a malformed result: {error}")

    def _pump_log(self) -> None:
        app_log = logging.getLogger(f"app.{self.package_name}")
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            app_log.info("%s", raw.decode("utf-8", "replace").rstrip())

    def _died(self) -> None:
        self._alive = False
        code = self.process.wait()
        if code not in (0, -signals.SIGTERM, -signals.SIGKILL) or self._pending:
            log.warning("%s (pid %d) died with exit code %s", self.package_name, self.pid, code)
        self._fail_pending(f"app process died (exit code {code})")
        self._on_exit(self)

    def _fail_pending(self, reason: str) -> None:
        with self._pending_lock:
            self._alive = False
            pending, self._pending = self._pending, {}
        for call in pending.values():
            call.deliver(AppFunctionAppUnknownException(f"Failed to connect to AppFunctionService: {reason}"))

    def _kill(self, reason: str) -> None:
        log.warning("%s: %s; killing pid %d", self.package_name, reason, self.pid)
        self.process.kill()

    def stop(self) -> None:
        """Close the socket (the app's loop ends), reap the process, then end whatever it started."""
        if self.process.poll() is None:
            self._frames.close()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.kill_children()

    def kill_children(self) -> None:
        """Every process the app left behind: its process group, and under its own uid every
        process of that uid (which catches those that left the group)."""
        try:
            os.killpg(self.pid, signals.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.os_uid is not None:
            kill_every_process_of(self.os_uid)

