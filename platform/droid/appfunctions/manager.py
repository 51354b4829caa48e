"""AppFunctionManager: the client API, the same over a local or a remote binder."""

from __future__ import annotations

import asyncio
from typing import Protocol

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.os.cancellation import CancellationSignal


class IAppFunctionManager(Protocol):
    """The binder interface of the "app_function" service; both transports implement it."""

    def execute_app_function(
        self, request: ExecuteAppFunctionRequest, cancellation_signal: CancellationSignal | None
    ) -> ExecuteAppFunctionResponse: ...

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str) -> bool: ...

    def set_app_function_enabled(
        self, function_identifier: str, state: int, target_package_name: str = ""
    ) -> None: ...

    def search_app_functions(self, spec: AppFunctionSearchSpec) -> list[AppFunctionPackageMetadata]: ...


class AppFunctionManager:
    """Execute, enable and discover AppFunctions as the calling package.

    Android delivers results to an OutcomeReceiver; here a call returns the
    response or raises ``AppFunctionException``, and ``*_async`` variants await.
    """

    APP_FUNCTION_STATE_DEFAULT = APP_FUNCTION_STATE_DEFAULT
    APP_FUNCTION_STATE_ENABLED = APP_FUNCTION_STATE_ENABLED
    APP_FUNCTION_STATE_DISABLED = APP_FUNCTION_STATE_DISABLED

    def __init__(self, service: IAppFunctionManager) -> None:
        self._service = service

    def execute_app_function(
        self,
        request: ExecuteAppFunctionRequest,
        cancellation_signal: CancellationSignal | None = None,
    ) -> ExecuteAppFunctionResponse:
        return self._service.execute_app_function(request, cancellation_signal)

    async def execute_app_function_async(
        self, request: ExecuteAppFunctionRequest
    ) -> ExecuteAppFunctionResponse:
        """Await a call; cancelling the awaiting task cancels the call on the device."""
        signal = CancellationSignal()
        call = asyncio.ensure_future(asyncio.to_thread(self._service.execute_app_function, request, signal))
        try:
            return await asyncio.shield(call)
        except asyncio.CancelledError:
            signal.cancel()
            raise

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str = "") -> bool:
        """Raises IllegalArgumentException for a function the caller cannot see."""
        return self._service.is_app_function_enabled(function_identifier, target_package_name)

    def set_app_function_enabled(
        self, function_identifier: str, state: int, target_package_name: str = ""
    ) -> None:
        """Own package only (the shell may name another, as ``cmd app_function
        set-enabled`` does); IllegalArgumentException for an unknown id or state."""
        self._service.set_app_function_enabled(function_identifier, state, target_package_name)

    def search_app_functions(
        self, spec: AppFunctionSearchSpec | None = None
    ) -> list[AppFunctionPackageMetadata]:
        return self._service.search_app_functions(spec or AppFunctionSearchSpec())
