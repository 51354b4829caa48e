"""A platform-layer service whose functions fail the way real apps do: the process exits,
is killed, aborts or segfaults in the middle of a call, or hangs and ignores cancellation.

``hang`` leaves ``started hang`` in the app's data folder (``events.log``), so a test knows
the call is running before it cancels.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
from droid.os import IllegalArgumentException


class FaultyFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({"echo", "pid", "exitProcess", "sigkill", "abort", "segfault", "hang"})

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
        else:
            raise IllegalArgumentException("Function does not exist")

    def _record(self, event: str) -> None:
        if self.context is not None and self.context.data_dir is not None:
            with open(self.context.data_dir / "events.log", "a") as log:
                log.write(event + "\n")
