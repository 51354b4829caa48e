"""AppFunctionService: what an app implements so the platform can call into it."""

from __future__ import annotations

from typing import Any, Protocol

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.os.cancellation import CancellationSignal

SERVICE_INTERFACE = "android.app.appfunctions.AppFunctionService"
BIND_APP_FUNCTION_SERVICE = "android.permission.BIND_APP_FUNCTION_SERVICE"


class OutcomeReceiver(Protocol):
    def on_result(self, result: ExecuteAppFunctionResponse) -> None: ...

    def on_error(self, error: AppFunctionException) -> None: ...


class AppFunctionService:
    """Platform-layer base class. The device calls ``on_execute_function`` on the
    app's main thread (its event loop thread); report exactly one outcome, now or
    later. Only the first outcome counts, as on Android.

    Most apps use ``droid.appfunctions.AppFunctionServiceEntryPoint`` instead,
    which routes calls to decorated methods and handles types.
    """

    # Set by the app runtime before on_create: the app's own Context on the device.
    context: Any = None

    def on_create(self) -> None:
        """Called once when the app process first binds the service."""

    def on_destroy(self) -> None:
        """Called when the app process stops."""

    def on_execute_function(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        raise NotImplementedError

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str] | None:
        """The ids this class implements, so install can check them against the
        XML; None when the class routes ids at run time and cannot say."""
        return None

