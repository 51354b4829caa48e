"""App hosts: where an app's code runs, behind one blocking ``execute`` call.

``ProcessAppHost`` is the real thing (a child OS process, framed protobuf over a
socketpair); ``LocalAppHost`` runs the same AppRuntime on a thread of this
process, for in-process devices and fast tests. The device's pipeline cannot
tell them apart.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import os
import signal as signals
import socket
import subprocess
import sys
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
        signal: CancellationSignal,
    ) -> Outcome: ...

    def stop(self) -> None: ...


class _CallTracker:
    """The part both hosts share: cancellation and its timeout, around one app call."""

    def __init__(self, cancellation_timeout: float, on_stuck: Callable[[str], None]) -> None:
        self.cancellation_timeout = cancellation_timeout
        self._on_stuck = on_stuck

    def wait(
        self,
        app_call: concurrent.futures.Future,
        signal: CancellationSignal,
        cancel_in_app: Callable[[], None],
        function_id: str,
    ) -> Outcome:
        caller: concurrent.futures.Future = concurrent.futures.Future()

        def app_done(future: concurrent.futures.Future) -> None:
            if not caller.done():
                try:
                    caller.set_result(future.result())
                except concurrent.futures.InvalidStateError:
                    pass

        def cancelled() -> None:
            cancel_in_app()
            try:
                caller.set_result(AppFunctionCancelledException("The call was cancelled by the caller."))
            except concurrent.futures.InvalidStateError:
                return
            timer = threading.Timer(self.cancellation_timeout, self._kill_if_running, (app_call, function_id))
            timer.daemon = True
            timer.start()

        app_call.add_done_callback(app_done)
        signal.set_on_cancel_listener(cancelled)
        return caller.result()

    def _kill_if_running(self, app_call: concurrent.futures.Future, function_id: str) -> None:
        if not app_call.done():
            self._on_stuck(f"{function_id} ignored cancellation for {self.cancellation_timeout:g}s")


class LocalAppHost:
    """Runs an app's runtime on its own thread and event loop, in this process."""

    def __init__(self, runtime: AppRuntime, cancellation_timeout: float) -> None:
        self.package_name = runtime.package_name
        self._runtime = runtime
        self._loop = asyncio.new_event_loop()
        self._tracker = _CallTracker(cancellation_timeout, self._abandon)
        self._thread = threading.Thread(target=self._run_loop, name=f"app:{self.package_name}", daemon=True)
        self._thread.start()
        self._alive = True

    def _run_loop(self) -> None:
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    @property
    def alive(self) -> bool:
        return self._alive

    def execute(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        service_name: str,
        signal: CancellationSignal,
    ) -> Outcome:
        app_call: concurrent.futures.Future = concurrent.futures.Future()
        app_signal = CancellationSignal()

        def deliver(outcome: Outcome) -> None:
            if not app_call.done():
                app_call.set_result(outcome)

        self._loop.call_soon_threadsafe(
            self._runtime.execute, request, calling_package, service_name, app_signal, deliver
        )
        return self._tracker.wait(app_call, signal, app_signal.cancel, request.function_identifier)

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


class ProcessAppHost:
    """A child process per app: ``python -m sim.zygote.app_main``, in its own process group,
    under its own uid when ``os_uid`` is given (sim/zygote/specialize.py), else confined by
    Landlock when ``confine`` (sim/zygote/landlock.py)."""

    def __init__(
        self,
        package_name: str,
        app_dir: Path,
        env: dict[str, str],
        cancellation_timeout: float,
        on_exit: Callable[["ProcessAppHost"], None] = lambda host: None,
        os_uid: int | None = None,
        cwd: Path | None = None,
        confine: bool = False,
    ) -> None:
        self.package_name = package_name
        self._tracker = _CallTracker(cancellation_timeout, self._kill)
        self._pending: dict[int, concurrent.futures.Future] = {}
        self._pending_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._on_exit = on_exit
        self.os_uid = os_uid
        parent, child = socket.socketpair()
        self._frames = FrameSocket(parent)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sim.zygote.app_main", "--fd", str(child.fileno()),
             "--package", package_name, "--app-dir", str(app_dir), *(["--uid", str(os_uid)] if os_uid is not None else []),
             *(["--confine"] if confine else [])],
            pass_fds=(child.fileno(),),
            env=env,
            cwd=cwd,
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
        app_call: concurrent.futures.Future = concurrent.futures.Future()
        with self._pending_lock:
            if not self.alive:
                return AppFunctionAppUnknownException("Failed to connect to AppFunctionService")
            self._pending[call_id] = app_call
        frame = app_pb2.AppCall(call_id=call_id)
        wire.request_to_proto(request, frame.execute.request)
        frame.execute.calling_package = calling_package
        frame.execute.service_name = service_name
        try:
            self._frames.send(frame)
        except OSError:
            self._fail_pending("app process is gone")
        cancel = lambda: self._send_cancel(call_id)  # noqa: E731 - one-line callback
        return self._tracker.wait(app_call, signal, cancel, request.function_identifier)

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
                future = self._pending.pop(reply.call_id, None)
            if future is not None:
                future.set_result(self._outcome_of(reply))
        self._died()

    def _outcome_of(self, reply: app_pb2.AppReply) -> Outcome:
        """The app's result; one it cannot have meant (malformed data) fails that call only."""
        try:
            return wire.result_from_proto(reply.result)
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
        for future in pending.values():
            future.set_result(AppFunctionAppUnknownException(f"Failed to connect to AppFunctionService: {reason}"))

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

