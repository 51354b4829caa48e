"""Stand-in for CTS's TestAppFunctionService: a platform-layer service that
routes by function id, as the Java original does."""

from __future__ import annotations

import os
import signal
import threading

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
from droid.os import IllegalArgumentException


class TestAppFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({
        "add", "addAsync", "add_disabledByDefault", "add_invokeCallbackTwice", "noOp",
        "throwException", "kill", "longRunningFunction", "notInvokeCallback", "echoBytes",
        "uncaughtClientException",
    })

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        fid = request.function_identifier
        params = request.parameters
        if fid in ("add", "add_disabledByDefault"):
            callback.on_result(ExecuteAppFunctionResponse.of(params.get_long("a") + params.get_long("b")))
        elif fid == "addAsync":
            total = params.get_long("a") + params.get_long("b")
            threading.Timer(0.05, callback.on_result, (ExecuteAppFunctionResponse.of(total),)).start()
        elif fid == "add_invokeCallbackTwice":
            total = params.get_long("a") + params.get_long("b")
            callback.on_result(ExecuteAppFunctionResponse.of(total))
            callback.on_result(ExecuteAppFunctionResponse.of(total + 1))
        elif fid == "noOp":
            callback.on_result(ExecuteAppFunctionResponse.of(calling_package))
        elif fid == "throwException":
            raise RuntimeError("thrown by throwException")
        elif fid == "uncaughtClientException":
            raise IllegalArgumentException("Function does not exist")
        elif fid == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif fid == "longRunningFunction":
            cancellation_signal.set_on_cancel_listener(lambda: self._record("cancelled longRunningFunction"))
        elif fid == "notInvokeCallback":
            pass
        elif fid == "echoBytes":
            callback.on_result(ExecuteAppFunctionResponse.of(params.get_bytes("data")))
        else:
            raise IllegalArgumentException("Function does not exist")

    def _record(self, event: str) -> None:
        """Leave a trace a test can read: the CTS lifecycle receiver's role."""
        if self.context is not None and self.context.data_dir is not None:
            with open(self.context.data_dir / "events.log", "a") as log:
                log.write(event + "\n")
