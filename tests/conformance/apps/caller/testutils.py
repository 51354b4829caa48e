"""Stand-in for CTS's TestAppFunctionService: a platform-layer service that
routes by function id, as the Java original does.

It leaves lifecycle traces in the app's data folder (``events.log``), as CTS's
TestAppFunctionServiceLifecycleReceiver does with broadcasts: ``created pid=N``
when the service is created, ``destroyed pid=N`` when it is destroyed, ``started F``
when a function that never answers begins, ``cancelled longRunningFunction`` when
its cancel listener fires. The conformance suite reads them (sim/conformance).
"""

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
        # Their XML says enabledByDefault 1 and TRUE: read with Boolean.parseBoolean, off and on.
        "noOp_enabledByDefaultOne", "noOp_enabledByDefaultUpperCase",
    })

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_create(self) -> None:
        self._record(f"created pid={os.getpid()}")

    def on_destroy(self) -> None:
        self._record(f"destroyed pid={os.getpid()}")

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
        elif fid in ("noOp", "noOp_enabledByDefaultOne", "noOp_enabledByDefaultUpperCase"):
            callback.on_result(ExecuteAppFunctionResponse.of(calling_package))
        elif fid == "throwException":
            raise RuntimeError("thrown by throwException")
        elif fid == "uncaughtClientException":
            raise IllegalArgumentException("Function does not exist")
        elif fid == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif fid == "longRunningFunction":
            cancellation_signal.set_on_cancel_listener(lambda: self._record("cancelled longRunningFunction"))
            self._record(f"started {fid}")
        elif fid == "notInvokeCallback":
            self._record(f"started {fid}")
        elif fid == "echoBytes":
            callback.on_result(ExecuteAppFunctionResponse.of(params.get_bytes("data")))
        else:
            raise IllegalArgumentException("Function does not exist")

    def _record(self, event: str) -> None:
        """Leave a trace a test can read: the CTS lifecycle receiver's role."""
        if self.context is not None and self.context.data_dir is not None:
            with open(self.context.data_dir / "events.log", "a") as log:
                log.write(event + "\n")
