"""AppFunctionManagerServiceImpl: the execution pipeline, in the platform's order.

spec/platform-android.md §2 "Execution pipeline", with access levels (docs/access-control.md):

0. an app may have only so many calls in flight, and the parameters and extras must fit the
   device's CallLimits (else ERROR_LIMIT_EXCEEDED);
1. the claimed calling package must belong to the caller's uid (else ERROR_DENIED, its reason);
2. (enterprise policy: this device has no device policy, so nothing to refuse);
3. an empty target package is ERROR_INVALID_ARGUMENT;
4. the caller must reach the target (CallerValidator), else ERROR_DENIED, with one message
   whether or not the package or function exists;
5. an unknown function is ERROR_FUNCTION_NOT_FOUND; one below the caller's reach is
   ERROR_DENIED; a disabled one is ERROR_DISABLED;
6. no service is ERROR_SYSTEM_ERROR; 7. bind; 8. call, ended by the device's execution
   timeout if one is set (docs/reliability.md).

Every ERROR_DENIED says, after the platform's text, who lacks what and the command that
fixes it (sim/appfunctions/denials.py). Every attempt, whatever its outcome, goes to the
access history.
"""

from __future__ import annotations

import logging
import operator
import threading
import time
from typing import Callable

from droid.appfunctions.exceptions import (
    AppFunctionDeniedException,
    AppFunctionCancelledException,
    AppFunctionDisabledException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionSystemUnknownException,
)
from droid.appfunctions.metadata import ACCESS_LEVEL_SELF, ACCESS_LEVEL_SYSTEM, AppFunctionMetadata
from droid.appfunctions.service import BIND_APP_FUNCTION_SERVICE, SERVICE_INTERFACE
from droid.appfunctions.requests import (
    AppFunctionName,
    AppFunctionSearchSpec,
    AppFunctionState,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.os.binder import SHELL_PACKAGE, SHELL_UID, SYSTEM_PACKAGE, SYSTEM_UID, Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import IllegalArgumentException, SecurityException
from droidsim.v1.allowlist_pb2 import AllowlistChange
from droidsim.v1.app_function_manager_pb2 import AccessHistoryEntry
from sim.appfunctions.access_history import AccessHistory
from sim.appfunctions.access_service import AccessChangedListener, AppFunctionAccessService
from sim.appfunctions.caller_validator import CallerValidator
from sim.appfunctions.calls_in_flight import CallsInFlight
from sim.appfunctions.denials import Denials
from sim.appfunctions.index import VALID_STATES, FunctionIndex, SearchPage
from sim.appfunctions.observers import AppFunctionObservers, Deliver
from sim.limits import CallLimits, shape_violation
from sim.permissions.definitions import MANAGE_APP_FUNCTION_ACCESS
from sim.permissions.enforcement import require_shell_or_root
from sim.permissions.service import PermissionManagerService
from sim.platform_version import NEWEST, PlatformVersion
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.zygote.hosts import AppHost
from sim.zygote.process_manager import AppLaunch, ProcessManager
from sim.zygote.runtime import Outcome

log = logging.getLogger("droidsim.app_function")

DENIED_MESSAGE = "Caller does not have permission to execute the appfunction"
NOT_FOUND_MESSAGE = "App function not found."
DISABLED_MESSAGE = "The app function is disabled"
# An application-level function runs only while an app process registers it
# (AppFunctionManager.registerAppFunction), which this device does not model.
NOT_REGISTERED_MESSAGE = "The app function is declared at application level and is not registered"
RUNTIME_REGISTERED_STATE_MESSAGE = ("setAppFunctionEnabled is not supported for runtime-registered functions. Use "
                                    "AppFunctionManager.registerAppFunction and AppFunctionRegistration.unregister instead.")
# androidx CallerAccessVerifier's refusals, by the level the caller lacks.
JETPACK_LEVEL_DENIALS = {
    ACCESS_LEVEL_SELF: "Execution denied: Caller UID does not match host application UID.",
    ACCESS_LEVEL_SYSTEM: "Execution denied: Caller lacks EXECUTE_APP_FUNCTIONS_SYSTEM.",
}

# Callers that are not installed packages, by the package name they go by.
_BUILT_IN_UIDS = {SHELL_PACKAGE: SHELL_UID, SYSTEM_PACKAGE: SYSTEM_UID}


class AppFunctionManagerServiceImpl:
    def __init__(
        self,
        packages: PackageRegistry,
        index: FunctionIndex,
        validator: CallerValidator,
        processes: ProcessManager,
        permissions: PermissionManagerService,
        access: AppFunctionAccessService,
        history: AccessHistory,
        dump: Callable[[], str],
        observers: AppFunctionObservers,
        limits: CallLimits = CallLimits(),
        version: PlatformVersion = NEWEST,
    ) -> None:
        self._packages = packages
        self._index = index
        self._validator = validator
        self._processes = processes
        self._permissions = permissions
        self._access = access
        self._history = history
        self._dump = dump
        self._observers = observers
        self._limits = limits
        self._version = version
        self._last_search: tuple[tuple[SearchPage, ...], bytes] = ((), b"")
        self._in_flight = CallsInFlight(limits.max_calls_in_flight)
        self._denials = Denials(packages, permissions, access)

    def execute_app_function(
        self,
        request: ExecuteAppFunctionRequest,
        cancellation_signal: CancellationSignal | None,
        calling_package: str = "",
    ) -> ExecuteAppFunctionResponse:
        caller = Binder.get_calling_identity()
        started_ms, clock = int(time.time() * 1000), time.monotonic()
        outcome: object = None
        try:
            with self._in_flight.slot(caller) as refusal:
                outcome = refusal or self._execute(caller, calling_package, request, cancellation_signal)
        finally:
            duration_ms = int((time.monotonic() - clock) * 1000)
            if outcome is None:  # the pipeline itself failed (the error propagates)
                outcome = AppFunctionSystemUnknownException("The device failed to run the call.")
            self._history.record(
                caller, request.target_package_name, request.function_identifier, started_ms, duration_ms, outcome
            )
        if isinstance(outcome, AppFunctionException):
            raise outcome
        return outcome

    def _execute(
        self,
        caller: CallingIdentity,
        calling_package: str,
        request: ExecuteAppFunctionRequest,
        signal: CancellationSignal | None,
    ) -> ExecuteAppFunctionResponse | AppFunctionException:
        refusal = shape_violation(request.parameters, self._limits, "parameters") or shape_violation(
            request.extras, self._limits, "extras"
        )
        if refusal is not None:
            return refusal
        try:
            self._validate_calling_package(caller, calling_package)
        except SecurityException as error:
            return AppFunctionDeniedException(str(error))
        target = request.target_package_name
        if not target:
            return AppFunctionInvalidArgumentException("Target package name cannot be empty.")
        reach = self._validator.execution_reach(caller, target)
        if reach is None:
            return AppFunctionDeniedException(f"{DENIED_MESSAGE}: {self._denials.no_reach(caller, target)}")
        indexed = self._index.lookup(target, request.function_identifier)
        if indexed is None:
            return AppFunctionFunctionNotFoundException(NOT_FOUND_MESSAGE)
        enforced_by_platform = self._version.platform_enforces_access_levels
        if enforced_by_platform and not self._validator.permits(reach, indexed.metadata):
            return AppFunctionDeniedException(f"{DENIED_MESSAGE}: {self._denials.below_level(caller, target, indexed.metadata)}")
        if not indexed.service_name:
            return AppFunctionDisabledException(f"{NOT_REGISTERED_MESSAGE}: {request.function_identifier}")
        if not self._index.is_enabled(target, indexed.metadata):
            return AppFunctionDisabledException(DISABLED_MESSAGE)
        if not enforced_by_platform and not self._validator.permits(reach, indexed.metadata):
            # Before Android 17.2 Jetpack's CallerAccessVerifier refuses, in the app, once the
            # platform has let the call through.
            reason = self._denials.below_level(caller, target, indexed.metadata)
            return AppFunctionDeniedException(f"{JETPACK_LEVEL_DENIALS[indexed.metadata.access_level]} {reason}")
        package = self._packages.get(target)
        service = None if package is None or not indexed.service_name else self._bound_service(package, indexed.service_name)
        if service is None:
            return AppFunctionSystemUnknownException("Cannot find the target service.")
        try:
            host = self._processes.host_for(
                AppLaunch(package.package_name, package.app_dir, package.credential_file, package.uid)
            )
        except OSError as error:
            log.error("binding %s failed: %s", target, error)
            return AppFunctionSystemUnknownException(f"Failed to bind the target service: {error}")
        return self._call(host, request, caller.package_name, service, signal)

    def _bound_service(self, package: InstalledPackage, declaring_service: str) -> str | None:
        """The service a call binds (PlatformVersion.binds_declaring_service): before Android 17,
        the package's first AppFunctionService, whichever declared the function; None when that
        one lacks BIND_APP_FUNCTION_SERVICE, which ServiceHelperImpl never binds."""
        if self._version.binds_declaring_service:
            return declaring_service
        first = next(s for s in package.manifest.services if SERVICE_INTERFACE in s.actions)
        return first.name if first.permission == BIND_APP_FUNCTION_SERVICE else None

    def _call(
        self, host: AppHost, request: ExecuteAppFunctionRequest, calling_package: str, service_name: str,
        signal: CancellationSignal | None,
    ) -> Outcome:
        """The app call; with an execution timeout, cancelled as if by the caller when it passes.
        ``signal`` None: nothing can cancel the call (the host may then skip a thread hop)."""
        timeout = self._limits.execution_timeout
        if timeout is None:
            return host.execute(request, calling_package, service_name, signal)
        call_signal = CancellationSignal()
        if signal is not None:
            signal.set_on_cancel_listener(call_signal.cancel)
        expired = threading.Event()

        def expire() -> None:
            if not call_signal.is_canceled:
                expired.set()
                call_signal.cancel()

        timer = threading.Timer(timeout, expire)
        timer.daemon = True
        timer.start()
        try:
            outcome = host.execute(request, calling_package, service_name, call_signal)
        finally:
            timer.cancel()
        if expired.is_set() and isinstance(outcome, AppFunctionCancelledException):
            return AppFunctionCancelledException(
                f"The call ran longer than this device's execution timeout of {timeout:g} s "
                "(droidsim device start --execution-timeout) and was cancelled."
            )
        return outcome

    def _validate_calling_package(self, caller: CallingIdentity, claimed: str) -> None:
        """validateCallingPackage: a claimed package must be the caller's own (root is exempt)."""
        if not claimed or caller.is_root:
            return
        package = self._packages.get(claimed)
        uid = package.uid if package is not None else _BUILT_IN_UIDS.get(claimed)
        if uid != caller.uid:
            raise SecurityException(f"Specified calling package [{claimed}] does not match the calling uid {caller.uid}")

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str) -> bool:
        """A function the caller may not see is as unknown as one that does not exist."""
        caller = Binder.get_calling_identity()
        target = target_package_name or caller.package_name
        indexed = self._index.lookup(target, function_identifier)
        if indexed is None or not self._validator.permits(self._validator.discovery_reach(caller, target), indexed.metadata):
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
        indexed = self._index.lookup(target, function_identifier)
        if indexed is None:
            raise IllegalArgumentException(f"Function {function_identifier} does not exist")
        if not indexed.service_name:  # AppFunctionManagerServiceImpl @f6328b66, setAppFunctionEnabledInternalLocked2
            raise IllegalArgumentException(RUNTIME_REGISTERED_STATE_MESSAGE)
        self._index.set_state(target, function_identifier, state)

    def search_app_functions(self, spec: AppFunctionSearchSpec) -> list[AppFunctionMetadata]:
        """Only what the caller may see: its own functions, and others' its reach allows; one
        flat list, as AppFunctionManager.searchAppFunctions returns.

        The functions are the caller's own to change: copies of the index's shared ones.
        """
        copies = []
        for page in self._visible_pages(spec):
            for function in page.functions:
                copy = AppFunctionMetadata()
                copy.CopyFrom(function)
                copies.append(copy)
        return copies

    def encoded_search_response(self, spec: AppFunctionSearchSpec) -> bytes:
        """``search_app_functions`` as the serialised SearchAppFunctionsResponse a remote caller
        gets: the pages' kept encodings joined, with no copy and no serialisation of the
        functions a cached page holds (5,000 functions cost about what sending them costs).

        The last answer is kept with its pages: a search that finds the very same page objects
        (a changed page is a new object, a partly visible one is new every time) gets the same
        bytes without joining them again (2 MB for 5,000 functions)."""
        pages = self._visible_pages(spec)
        last_pages, last_encoded = self._last_search
        if len(pages) == len(last_pages) and all(map(operator.is_, pages, last_pages)):
            return last_encoded
        encoded = b"".join(page.encoded for page in pages)
        self._last_search = (tuple(pages), encoded)
        return encoded

    def _visible_pages(self, spec: AppFunctionSearchSpec) -> list[SearchPage]:
        """The index's pages, shared and read-only: a page whose functions the caller may all see
        is the cached page itself, another a new page of the functions it may see."""
        caller = Binder.get_calling_identity()
        pages = []
        for page in self._index.search(spec):
            reach = self._validator.discovery_reach(caller, page.package_name)
            if self._validator.permits_all(reach, page.functions, page.most_restricted):
                pages.append(page)
                continue
            visible = [f for f in page.functions if self._validator.permits(reach, f)]
            if visible:
                pages.append(SearchPage.of(page.package_name, visible))
        return pages

    def observe_app_functions(self, callback: Deliver) -> Callable[[], None]:
        """observeAppFunctions: later changes the caller may see go to ``callback``, on the
        thread that made them (a binder transport queues them); returns the unregister."""
        return self._observers.register(Binder.get_calling_identity(), callback)

    def get_app_function_states(self, names: list[AppFunctionName]) -> list[AppFunctionState]:
        """The states of the named functions, in the order asked; a function that does not
        exist, or that the caller may not see, is left out (getAppFunctionStates)."""
        caller = Binder.get_calling_identity()
        states = []
        for name in names:
            indexed = self._index.lookup(name.package_name, name.function_identifier)
            if indexed is None:
                continue
            if self._validator.permits(self._validator.discovery_reach(caller, name.package_name), indexed.metadata):
                states.append(AppFunctionState(name, self._index.is_enabled(name.package_name, indexed.metadata)))
        return states

    # agent access: AppFunctionAccessService checks the caller's permissions
    def get_access_request_state(self, agent_package_name: str, target_package_name: str) -> int:
        return self._access.get_access_request_state(agent_package_name, target_package_name)

    def get_access_flags(self, agent_package_name: str, target_package_name: str) -> int:
        return self._access.get_access_flags(agent_package_name, target_package_name)

    def update_access_flags(self, agent_package_name: str, target_package_name: str, flag_mask: int, flags: int) -> bool:
        return self._access.update_access_flags(agent_package_name, target_package_name, flag_mask, flags)

    def revoke_self_access(self, target_package_name: str) -> None:
        self._access.revoke_self_access(target_package_name)

    def get_valid_agents(self) -> list[str]:
        return self._access.get_valid_agents()

    def get_valid_targets(self) -> list[str]:
        return self._access.get_valid_targets()

    def get_agent_allowlist(self) -> list[str]:
        return self._access.get_agent_allowlist()

    def edit_additional_agent_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange:
        return self._access.edit_additional_agent_allowlist(operation, packages)

    def add_on_access_changed_listener(self, listener: AccessChangedListener) -> None:
        self._access.add_on_access_changed_listener(listener)

    def remove_on_access_changed_listener(self, listener: AccessChangedListener) -> None:
        self._access.remove_on_access_changed_listener(listener)

    def get_access_history(self) -> list[AccessHistoryEntry]:
        caller = Binder.get_calling_identity()
        if self._permissions.check_permission(MANAGE_APP_FUNCTION_ACCESS, caller.uid):
            return self._history.entries()
        return self._history.entries(agent_uid=caller.uid)

    def clear_access_history(self) -> None:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "clearAccessHistory")
        self._history.clear()

    def dump(self) -> str:
        require_shell_or_root("dump the app_function service")
        return self._dump()
