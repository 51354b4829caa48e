"""AppFunctionManager: the client API, the same over a local or a remote binder."""

from __future__ import annotations

from typing import Callable, Protocol

from droid.appfunctions.metadata import AppFunctionMetadata
from droid.appfunctions.observe import AppFunctionObservation, AppFunctionObserver, Executor, dispatcher
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionName,
    AppFunctionSearchSpec,
    AppFunctionState,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import IllegalArgumentException
from droidsim.v1.allowlist_pb2 import AllowlistChange
from droidsim.v1.app_function_manager_pb2 import AccessHistoryEntry
from droidsim.v1.app_function_observer_pb2 import AppFunctionChangeEvent

# Agent access (android.app.appfunctions.AppFunctionManager, the QPR2 access API). The flag
# values are droidsim's own: QPR2's, and UPGRADE_GRANTED (Android 17 only) on a bit QPR2 leaves
# free. Android 17 renumbers them all; the binder wire carries the device's numbering
# (access_flag_numbering.py), so code should use the names.
ACCESS_REQUEST_STATE_GRANTED = 0
ACCESS_REQUEST_STATE_DENIED = 1
ACCESS_REQUEST_STATE_UNREQUESTABLE = 2

ACCESS_FLAG_PREGRANTED = 1
ACCESS_FLAG_OTHER_GRANTED = 2
ACCESS_FLAG_OTHER_DENIED = 4
ACCESS_FLAG_USER_GRANTED = 8
ACCESS_FLAG_USER_DENIED = 16
ACCESS_FLAG_UPGRADE_GRANTED = 32  # Android 17: granted as part of a system upgrade
ACCESS_FLAG_MASK_OTHER = ACCESS_FLAG_OTHER_GRANTED | ACCESS_FLAG_OTHER_DENIED
ACCESS_FLAG_MASK_USER = ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_USER_DENIED
ACCESS_FLAG_MASK_ALL = (
    ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_UPGRADE_GRANTED | ACCESS_FLAG_MASK_OTHER | ACCESS_FLAG_MASK_USER
)

ACCESS_FLAG_NAMES = {
    ACCESS_FLAG_PREGRANTED: "PREGRANTED",
    ACCESS_FLAG_OTHER_GRANTED: "OTHER_GRANTED",
    ACCESS_FLAG_OTHER_DENIED: "OTHER_DENIED",
    ACCESS_FLAG_USER_GRANTED: "USER_GRANTED",
    ACCESS_FLAG_USER_DENIED: "USER_DENIED",
    ACCESS_FLAG_UPGRADE_GRANTED: "UPGRADE_GRANTED",
}
ACCESS_REQUEST_STATE_NAMES = {
    ACCESS_REQUEST_STATE_GRANTED: "GRANTED",
    ACCESS_REQUEST_STATE_DENIED: "DENIED",
    ACCESS_REQUEST_STATE_UNREQUESTABLE: "UNREQUESTABLE",
}


# OnAppFunctionAccessChangedListener.onAppFunctionAccessChanged(agentUid)
OnAppFunctionAccessChangedListener = Callable[[int], None]


def access_flag_names(flags: int) -> list[str]:
    """``PREGRANTED|USER_DENIED`` as ``["PREGRANTED", "USER_DENIED"]``; unknown bits as numbers."""
    names = [name for bit, name in ACCESS_FLAG_NAMES.items() if flags & bit]
    rest = flags & ~ACCESS_FLAG_MASK_ALL
    return names + ([str(rest)] if rest else [])


class IAppFunctionManager(Protocol):
    """The binder interface of the "app_function" service; both transports implement it."""

    def execute_app_function(
        self, request: ExecuteAppFunctionRequest, cancellation_signal: CancellationSignal | None
    ) -> ExecuteAppFunctionResponse: ...

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str) -> bool: ...

    def set_app_function_enabled(
        self, function_identifier: str, state: int, target_package_name: str = ""
    ) -> None: ...

    def search_app_functions(self, spec: AppFunctionSearchSpec) -> list[AppFunctionMetadata]: ...

    def observe_app_functions(self, callback: Callable[[AppFunctionChangeEvent], None]) -> Callable[[], None]:
        """Registered when it returns; the returned callable unregisters."""
        ...
    def get_app_function_states(self, names: list[AppFunctionName]) -> list[AppFunctionState]: ...

    def get_access_request_state(self, agent_package_name: str, target_package_name: str) -> int: ...

    def get_access_flags(self, agent_package_name: str, target_package_name: str) -> int: ...

    def update_access_flags(
        self, agent_package_name: str, target_package_name: str, flag_mask: int, flags: int
    ) -> bool: ...

    def revoke_self_access(self, target_package_name: str) -> None: ...

    def get_valid_agents(self) -> list[str]: ...

    def get_valid_targets(self) -> list[str]: ...

    def get_agent_allowlist(self) -> list[str]: ...

    def edit_additional_agent_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange: ...

    def get_access_history(self) -> list[AccessHistoryEntry]: ...

    def add_on_access_changed_listener(self, listener: OnAppFunctionAccessChangedListener) -> None: ...

    def remove_on_access_changed_listener(self, listener: OnAppFunctionAccessChangedListener) -> None: ...

    def clear_access_history(self) -> None: ...

    def dump(self) -> str: ...


class AppFunctionManager:
    """Execute, enable and discover AppFunctions as the calling package.

    Android delivers results to an OutcomeReceiver; here a call returns the
    response or raises ``AppFunctionException``, and ``*_async`` variants await.
    """

    APP_FUNCTION_STATE_DEFAULT = APP_FUNCTION_STATE_DEFAULT
    APP_FUNCTION_STATE_ENABLED = APP_FUNCTION_STATE_ENABLED
    APP_FUNCTION_STATE_DISABLED = APP_FUNCTION_STATE_DISABLED

    ACCESS_REQUEST_STATE_GRANTED = ACCESS_REQUEST_STATE_GRANTED
    ACCESS_REQUEST_STATE_DENIED = ACCESS_REQUEST_STATE_DENIED
    ACCESS_REQUEST_STATE_UNREQUESTABLE = ACCESS_REQUEST_STATE_UNREQUESTABLE
    ACCESS_FLAG_PREGRANTED = ACCESS_FLAG_PREGRANTED
    ACCESS_FLAG_OTHER_GRANTED = ACCESS_FLAG_OTHER_GRANTED
    ACCESS_FLAG_OTHER_DENIED = ACCESS_FLAG_OTHER_DENIED
    ACCESS_FLAG_USER_GRANTED = ACCESS_FLAG_USER_GRANTED
    ACCESS_FLAG_USER_DENIED = ACCESS_FLAG_USER_DENIED
    ACCESS_FLAG_UPGRADE_GRANTED = ACCESS_FLAG_UPGRADE_GRANTED
    ACCESS_FLAG_MASK_OTHER = ACCESS_FLAG_MASK_OTHER
    ACCESS_FLAG_MASK_USER = ACCESS_FLAG_MASK_USER
    ACCESS_FLAG_MASK_ALL = ACCESS_FLAG_MASK_ALL

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
        awaitable = getattr(self._service, "execute_app_function_async", None)
        if awaitable is not None:  # a remote device: awaited without a thread (binder/remote.py)
            return await awaitable(request)
        import asyncio  # here, not at the top: asyncio is a large import the device's boot never needs

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

    def search_app_functions(self, spec: AppFunctionSearchSpec | None = None) -> list[AppFunctionMetadata]:
        """The functions the caller may call, one flat list in package order: its own, and
        others' allowed by its permissions and by each function's access level (a grant is
        checked when executing). Each carries its package's metadata in ``package_metadata``."""
        return self._service.search_app_functions(spec or AppFunctionSearchSpec())

    def observe_app_functions(self, executor: Executor, observer: AppFunctionObserver) -> AppFunctionObservation:
        """Tell ``observer``, on ``executor``, about later changes to what the caller may see
        (droid.appfunctions.observe). Keep the observation and ``cancel()`` it when done; a
        caller may hold a few at once (IllegalStateException beyond the device's limit)."""
        return AppFunctionObservation(self._service.observe_app_functions(dispatcher(executor, observer)))
    def get_app_function_states(self, names: list[AppFunctionName]) -> list[AppFunctionState]:
        """The runtime state of each named function, in the order asked; one that does not exist
        or that the caller may not see is silently left out. The same rules as search."""
        names = list(names)
        if not all(isinstance(name, AppFunctionName) for name in names):
            raise IllegalArgumentException("get_app_function_states takes AppFunctionName values")
        return self._service.get_app_function_states(names)

    # agent access
    def get_access_request_state(self, *packages: str) -> int:
        """``get_access_request_state(target)`` for the caller as agent, or, as on Android,
        ``get_access_request_state(agent, target)``, which needs MANAGE_APP_FUNCTION_ACCESS
        when the agent is another package. GRANTED, DENIED or UNREQUESTABLE."""
        if len(packages) == 1:
            return self._service.get_access_request_state("", packages[0])
        if len(packages) == 2:
            return self._service.get_access_request_state(packages[0], packages[1])
        raise TypeError("get_access_request_state(target) or get_access_request_state(agent, target)")

    def get_access_flags(self, agent_package_name: str, target_package_name: str) -> int:
        """Needs MANAGE_APP_FUNCTION_ACCESS; 0 for a package that is not installed."""
        return self._service.get_access_flags(agent_package_name, target_package_name)

    def update_access_flags(
        self, agent_package_name: str, target_package_name: str, flag_mask: int, flags: int
    ) -> bool:
        """Set the ``flag_mask`` bits to ``flags``; True if anything changed. Needs
        MANAGE_APP_FUNCTION_ACCESS; IllegalArgumentException for an unknown bit, a flag outside
        the mask, or a GRANTED/DENIED pair set together or without both halves in the mask."""
        return self._service.update_access_flags(agent_package_name, target_package_name, flag_mask, flags)

    def revoke_self_access(self, target_package_name: str) -> None:
        """The caller gives up its access to the target (leaves OTHER_DENIED if any flag was set)."""
        self._service.revoke_self_access(target_package_name)

    def get_valid_agents(self) -> list[str]:
        """Installed packages that request EXECUTE_APP_FUNCTIONS and are on the agent allowlist."""
        return self._service.get_valid_agents()

    def get_valid_targets(self) -> list[str]:
        """Installed packages with an AppFunctionService."""
        return self._service.get_valid_targets()

    def get_agent_allowlist(self) -> list[str]:
        return self._service.get_agent_allowlist()

    def edit_additional_agent_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange:
        """droidsim's ``cmd app_function`` allowlist verbs as one step in the device (shell and
        root only): ``operation`` is ``droidsim.v1.allowlist_pb2.AllowlistEdit.SET``, ``ADD`` or
        ``REMOVE`` of the Secure list; answers what the edit did (docs/access-control.md). Two
        editors at once never undo each other's change."""
        return self._service.edit_additional_agent_allowlist(operation, packages)

    def get_access_history(self) -> list[AccessHistoryEntry]:
        """Every execution attempt the caller made, oldest first (all callers' with
        MANAGE_APP_FUNCTION_ACCESS)."""
        return self._service.get_access_history()

    def clear_access_history(self) -> None:
        self._service.clear_access_history()

    def add_access_changed_listener(self, listener: OnAppFunctionAccessChangedListener) -> None:
        """Call ``listener(agent_uid)`` whenever an agent's access changes (a grant, a revoke,
        the agent leaving the allowlist or a package going). Needs MANAGE_APP_FUNCTION_ACCESS;
        adding a listener twice does nothing. It runs on a device thread: keep it short."""
        self._service.add_on_access_changed_listener(listener)

    def remove_access_changed_listener(self, listener: OnAppFunctionAccessChangedListener) -> None:
        """Stop calling ``listener``; nothing happens for one that was never added."""
        self._service.remove_on_access_changed_listener(listener)

    def dump(self) -> str:
        """The service's state as ``dumpsys app_function`` prints it (IBinder.dump; shell and
        root only, as dumpsys needs android.permission.DUMP)."""
        return self._service.dump()
