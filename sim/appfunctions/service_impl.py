"""AppFunctionManagerServiceImpl: the execution pipeline, in the platform's order.

spec/platform-android.md §2 "Execution pipeline": identity, empty target, caller
permission, function lookup and enabled state, service resolution, bind, call.
Each step fails with the platform's code and message.
"""

from __future__ import annotations

import logging

from droid.appfunctions.exceptions import (
    AppFunctionDeniedException,
    AppFunctionDisabledException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionSystemUnknownException,
)
from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droid.appfunctions.requests import (
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.os.binder import Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import IllegalArgumentException, SecurityException
from sim.appfunctions.caller_validator import CallerValidator
from sim.appfunctions.index import VALID_STATES, FunctionIndex
from sim.pm.registry import PackageRegistry
from sim.zygote.process_manager import AppLaunch, ProcessManager

log = logging.getLogger("droidsim.app_function")

DENIED_MESSAGE = "Caller does not have permission to execute the appfunction"
NOT_FOUND_MESSAGE = "App function not found."


class AppFunctionManagerServiceImpl:
    def __init__(
        self,
        packages: PackageRegistry,
        index: FunctionIndex,
        validator: CallerValidator,
        processes: ProcessManager,
    ) -> None:
        self._packages = packages
        self._index = index
        self._validator = validator
        self._processes = processes

    def execute_app_function(
        self, request: ExecuteAppFunctionRequest, cancellation_signal: CancellationSignal | None
    ) -> ExecuteAppFunctionResponse:
        caller = Binder.get_calling_identity()
        outcome = self._execute(caller, request, cancellation_signal or CancellationSignal())
        if isinstance(outcome, AppFunctionException):
            raise outcome
        return outcome

    def _execute(
        self, caller: CallingIdentity, request: ExecuteAppFunctionRequest, signal: CancellationSignal
    ) -> ExecuteAppFunctionResponse | AppFunctionException:
        target = request.target_package_name
        if not target:
            return AppFunctionInvalidArgumentException("Target package name cannot be empty.")
        if not self._validator.can_execute(caller, target):
            return AppFunctionDeniedException(DENIED_MESSAGE)
        indexed = self._index.lookup(target, request.function_identifier)
        if indexed is None:
            return AppFunctionFunctionNotFoundException(NOT_FOUND_MESSAGE)
        if not self._index.is_enabled(target, indexed.metadata):
            return AppFunctionDisabledException("The app function is disabled.")
        package = self._packages.get(target)
        if package is None or not indexed.service_name:
            return AppFunctionSystemUnknownException("Cannot find the target service.")
        try:
            host = self._processes.host_for(
                AppLaunch(package.package_name, package.app_dir, package.credential_file)
            )
        except OSError as error:
            log.error("binding %s failed: %s", target, error)
            return AppFunctionSystemUnknownException(f"Failed to bind the target service: {error}")
        return host.execute(request, caller.package_name, indexed.service_name, signal)

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str) -> bool:
        caller = Binder.get_calling_identity()
        target = target_package_name or caller.package_name
        if target != caller.package_name and not self._validator.can_execute(caller, target):
            raise IllegalArgumentException(NOT_FOUND_MESSAGE)
        indexed = self._index.lookup(target, function_identifier)
        if indexed is None:
            raise IllegalArgumentException(NOT_FOUND_MESSAGE)
        return self._index.is_enabled(target, indexed.metadata)

    def set_app_function_enabled(
        self, function_identifier: str, state: int, target_package_name: str = ""
    ) -> None:
        caller = Binder.get_calling_identity()
        target = target_package_name or caller.package_name
        if target != caller.package_name and not (caller.is_shell or caller.is_root):
            raise SecurityException("An app can set the enabled state of its own functions only")
        if state not in VALID_STATES:
            raise IllegalArgumentException(f"Invalid state: {state}")
        if self._index.lookup(target, function_identifier) is None:
            raise IllegalArgumentException(f"Function {function_identifier} does not exist")
        self._index.set_state(target, function_identifier, state)

    def search_app_functions(self, spec: AppFunctionSearchSpec) -> list[AppFunctionPackageMetadata]:
        caller = Binder.get_calling_identity()
        return [
            page
            for page in self._index.search(spec)
            if page.package_name == caller.package_name
            or self._validator.can_execute(caller, page.package_name)
        ]
