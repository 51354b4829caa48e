"""The app side of a call: what ActivityThread and the AppFunctionService stub do.

One AppRuntime per app, on the app's main thread (an asyncio loop). It creates
each service on first use, calls ``on_execute_function`` and makes sure exactly
one outcome goes back, whatever the app does with its callback.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from droid.appfunctions.exceptions import (
    AppFunctionAppUnknownException,
    AppFunctionException,
    AppFunctionInvalidArgumentException,
)
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.appfunctions.service import AppFunctionService
from droid.content.context import Context
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import IllegalArgumentException

Outcome = ExecuteAppFunctionResponse | AppFunctionException

log = logging.getLogger("droidsim.app")


class SafeOneTimeCallback:
    """Only the first outcome counts (SafeOneTimeExecuteAppFunctionCallback)."""

    def __init__(self, deliver: Callable[[Outcome], None], function_id: str) -> None:
        self._deliver = deliver
        self._function_id = function_id
        self._lock = threading.Lock()
        self._done = False

    def _once(self, outcome: Outcome) -> None:
        with self._lock:
            if self._done:
                log.warning("%s reported a second outcome; ignored", self._function_id)
                return
            self._done = True
        self._deliver(outcome)

    def on_result(self, result: ExecuteAppFunctionResponse) -> None:
        if not isinstance(result, ExecuteAppFunctionResponse):
            result = ExecuteAppFunctionResponse.of(result)
        self._once(result)

    def on_error(self, error: AppFunctionException) -> None:
        if not isinstance(error, AppFunctionException):
            error = AppFunctionAppUnknownException(str(error))
        self._once(error)


class AppRuntime:
    def __init__(
        self,
        package_name: str,
        app_dir: Path,
        context_factory: Callable[[], Context | None],
        load_service_class: Callable[[Path, str], type[AppFunctionService]],
    ) -> None:
        self.package_name = package_name
        self.app_dir = app_dir
        self._context_factory = context_factory
        self._load_service_class = load_service_class
        self._services: dict[str, AppFunctionService] = {}
        self._context: Context | None = None

    def service(self, service_name: str) -> AppFunctionService:
        service = self._services.get(service_name)
        if service is None:
            cls = self._load_service_class(self.app_dir, service_name)
            service = cls()
            if self._context is None:
                self._context = self._context_factory()
            service.context = self._context
            service.on_create()
            self._services[service_name] = service
        return service

    def execute(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        service_name: str,
        signal: CancellationSignal,
        deliver: Callable[[Outcome], None],
    ) -> None:
        """Run on the app's main thread; ``deliver`` gets exactly one outcome."""
        callback = SafeOneTimeCallback(deliver, request.function_identifier)
        try:
            self.service(service_name).on_execute_function(request, calling_package, signal, callback)
        except AppFunctionException as error:
            callback.on_error(error)
        except IllegalArgumentException as error:
            callback.on_error(AppFunctionInvalidArgumentException(str(error)))
        except Exception as error:  # an app bug must not take the process down
            log.exception("%s raised", request.function_identifier)
            callback.on_error(AppFunctionAppUnknownException(f"{type(error).__name__}: {error}"))

    def shutdown(self) -> None:
        for service in self._services.values():
            try:
                service.on_destroy()
            except Exception:
                log.exception("on_destroy failed")
        self._services.clear()
        if self._context is not None:
            self._context.close()
