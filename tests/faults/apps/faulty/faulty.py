"""A platform-layer service whose functions fail the way real apps do: the process exits,
is killed, aborts or segfaults in the middle of a call, hangs and ignores cancellation, or
closes its end of the device's socket; ``answerWhenCancelled`` answers only once cancelled, when
nobody waits for the answer.

``hang`` leaves ``started hang`` in the app's data folder (``events.log``), so a test knows
the call is running before it cancels.
"""

from __future__ import annotations

import ctypes
import os
import signal
import stat
import time

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
from droid.os import IllegalArgumentException


class FaultyFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({"echo", "pid", "exitProcess", "sigkill", "abort", "segfault", "hang",
                              "closeSocket", "answerWhenCancelled"})

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        fid = request.function_identifier
        if fid == "echo":
            callback.on_result(ExecuteAppFunctionResponse.of(request.parameters.get_string("text")))
        elif fid == "pid":
            callback.on_result(ExecuteAppFunctionResponse.of(os.getpid()))
        elif fid == "exitProcess":
            os._exit(3)
        elif fid == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif fid == "abort":
            os.abort()
        elif fid == "segfault":
            ctypes.string_at(0)  # reads address 0: SIGSEGV
        elif fid == "hang":
            self._record("started hang")
            while True:  # blocks the app's main thread: a cancel never reaches a listener
                time.sleep(1)
        elif fid == "closeSocket":
            for fd in map(int, os.listdir("/proc/self/fd")):
                if stat.S_ISSOCK(_mode(fd)):
                    os.close(fd)
            while True:
                time.sleep(1)
        elif fid == "answerWhenCancelled":
            text = request.parameters.get_string("text")
            cancellation_signal.set_on_cancel_listener(lambda: callback.on_result(ExecuteAppFunctionResponse.of(text)))
            self._record("started answerWhenCancelled")
        else:
            raise IllegalArgumentException("Function does not exist")

    def _record(self, event: str) -> None:
        if self.context is not None and self.context.data_dir is not None:
            with open(self.context.data_dir / "events.log", "a") as log:
                log.write(event + "\n")


def _mode(fd: int) -> int:
    try:
        return os.fstat(fd).st_mode
    except OSError:
        return 0
