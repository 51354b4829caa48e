"""App hosts: where an app's code runs, behind one blocking ``execute`` call.

``ProcessAppHost`` is the real thing (a child OS process, framed protobuf over a
socketpair); ``LocalAppHost`` runs the same AppRuntime on a thread of this
process, for in-process devices and fast tests. The device's pipeline cannot
tell them apart.
"""

from __future__ import annotations

import asyncio
import codecs
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
from sim.processes import reap
from sim.zygote.child_start import START_FOLDER, python_command
from sim.zygote.pending_call import PendingCall
from sim.zygote.reply_channel import ReplyChannel
from sim.zygote.runtime import AppRuntime, Outcome
from sim.zygote.specialize import kill_every_process_of

log = logging.getLogger("droidsim.zygote")
# How long an app whose socket closed may take to exit before it is killed.
_EXITING_SECONDS = 1.0
# An app's output is logged a line at a time, a line that does not end this much at a time:
# the device never holds more of it (an app may print without end).
LOG_PIECE = 64 * 1024


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


class _CallTracker:
    """The part both hosts share: cancellation and its timeout, around one app call."""

    def __init__(
        self,
        cancellation_timeout: float,
        on_stuck: Callable[[str], None],
        collect_replies: Callable[[], None] = lambda: None,
    ) -> None:
        self.cancellation_timeout = cancellation_timeout
        self._on_stuck = on_stuck
        self._collect_replies = collect_replies  # a reply may be waiting unread: read it first

    def wait(
        self,
        call: PendingCall,
        signal: CancellationSignal | None,
        cancel_in_app: Callable[[], None],
        function_id: str,
        wait: Callable[[PendingCall], Outcome] = PendingCall.wait,
    ) -> Outcome:
        if signal is None:
            return wait(call)

        def cancelled() -> None:
            cancel_in_app()
            if not call.settle(AppFunctionCancelledException("The call was cancelled by the caller.")):
                return
            timer = threading.Timer(self.cancellation_timeout, self._kill_if_running, (call, function_id))
            timer.daemon = True
            timer.start()

        signal.set_on_cancel_listener(cancelled)
        return wait(call)

    def _kill_if_running(self, call: PendingCall, function_id: str) -> None:
        self._collect_replies()
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
        self._ids = itertools.count(1)
        self._on_exit = on_exit
        self.os_uid = os_uid
        parent, child = socket.socketpair()
        self._channel = ReplyChannel(parent, self._outcome_of, self._broken)
        self._tracker = _CallTracker(cancellation_timeout, self._kill, self._channel.drain)
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
        # No thread reads replies (the callers do: ReplyChannel); one waits for the exit, so
        # an idle app's death is noticed at once.
        threading.Thread(target=self._watch_exit, name=f"exit:{package_name}", daemon=True).start()
        threading.Thread(target=self._pump_log, name=f"log:{package_name}", daemon=True).start()

    @property
    def alive(self) -> bool:
        """False from the moment the process has exited, even before its exit is handled:
        the call that follows a kill starts a fresh process."""
        if not self._alive:
            return False
        try:  # WNOWAIT: look without reaping, which is _watch_exit's
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False

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
        if not self.alive or not self._channel.add(call_id, call):
            return AppFunctionAppUnknownException("Failed to connect to AppFunctionService")
        frame = app_pb2.AppCall(call_id=call_id)
        wire.request_to_proto(request, frame.execute.request)
        frame.execute.calling_package = calling_package
        frame.execute.service_name = service_name
        try:
            self._channel.send(frame)
        except OSError:
            self._kill("its socket is closed")  # its death fails the call
        cancel = lambda: self._send_cancel(call_id)  # noqa: E731 - one-line callback
        return self._tracker.wait(call, signal, cancel, request.function_identifier, self._channel.wait)

    def _send_cancel(self, call_id: int) -> None:
        try:
            self._channel.send(app_pb2.AppCall(call_id=call_id, cancel=app_pb2.CancelCall()))
        except OSError:
            pass

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
        text = codecs.getincrementaldecoder("utf-8")("replace")  # a character split between pieces stays whole
        while piece := self.process.stdout.readline(LOG_PIECE):
            app_log.info("%s", text.decode(piece).rstrip())

    def _broken(self, reason: str) -> None:
        """The app closed its socket or wrote what cannot be read: it cannot answer, so it goes
        (its death then fails every call in flight). A socket closes a moment before its
        process can be reaped: one that is exiting anyway is left to finish."""
        if reason.startswith("sent"):
            log.error("%s %s", self.package_name, reason)
        else:
            try:
                self.process.wait(timeout=_EXITING_SECONDS)
                return
            except subprocess.TimeoutExpired:
                pass
        self._kill(reason)

    def _watch_exit(self) -> None:
        code = self.process.wait()
        self._alive = False
        pending = self._channel.take_all()
        if code not in (0, -signals.SIGTERM, -signals.SIGKILL) or pending:
            log.warning("%s (pid %d) died with exit code %s", self.package_name, self.pid, code)
        for call in pending:
            call.deliver(AppFunctionAppUnknownException(
                f"Failed to connect to AppFunctionService: app process died (exit code {code})"))
        self._on_exit(self)

    def _kill(self, reason: str) -> None:
        if self.alive:
            log.warning("%s: %s; killing pid %d", self.package_name, reason, self.pid)
        try:
            self.process.kill()
        except OSError:
            pass  # already reaped

    def stop(self) -> None:
        """Close the socket (the app's loop ends), reap the process, then end whatever it started."""
        if self.alive:
            self._channel.close()
            reap(self.process, timeout=2)
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

