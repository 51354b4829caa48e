"""Remote proxies: the system services' interfaces implemented over gRPC.

Every call presents the caller's credential; the device maps it to a uid and
package and runs the call as that identity.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Iterator

import grpc

from droid.appfunctions.access_flag_numbering import from_wire, refuse_unknown, to_wire, valid_flags
from droid.appfunctions.exceptions import AppFunctionCancelledException, AppFunctionException
from droid.appfunctions.metadata import AppFunctionMetadata
from droid.appfunctions.requests import (
    AppFunctionName,
    AppFunctionSearchSpec,
    AppFunctionState,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.binder import wire
from droid.binder.errors import from_rpc_error
from droid.os.cancellation import CancellationSignal
from droidsim.v1 import allowlist_pb2
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from droidsim.v1.app_function_observer_pb2 import AppFunctionChangeEvent
from droidsim.v1 import data_pb2
from droidsim.v1 import package_manager_pb2 as pm_pb2
from droidsim.v1 import package_manager_pb2_grpc as pm_grpc
from droidsim.v1 import service_manager_pb2_grpc as sm_grpc
from droidsim.v1 import settings_pb2
from droidsim.v1 import settings_pb2_grpc as settings_grpc

CREDENTIAL_KEY = "droidsim-credential"

log = logging.getLogger("droid.binder")


class RemoteBinder:
    """A channel plus the caller's credential; turns RPC failures into binder exceptions."""

    def __init__(self, channel: grpc.Channel, credential: str) -> None:
        self.channel = channel
        self.metadata = ((CREDENTIAL_KEY, credential),)
        # Who the device says the credential belongs to, once asked (WhoAmI); sent as the
        # claimed calling package of an execution, as Android's client sends opPackageName.
        self.package_name = ""

    def call(self, method: Callable[..., Any], request: Any) -> Any:
        try:
            return method(request, metadata=self.metadata)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None


class RemoteAppFunctionManager:
    def __init__(self, binder: RemoteBinder) -> None:
        self._binder = binder
        self._stub = afm_grpc.AppFunctionManagerStub(binder.channel)
        self._sdk_int: int | None = None  # the device's, asked at the first access-flags call
        self._lock = threading.Lock()
        # Each access-changed listener's stream (WatchAccessChanges), cancelled to remove it.
        self._watches: dict[Callable[[int], None], grpc.Call] = {}

    def execute_app_function(
        self, request: ExecuteAppFunctionRequest, cancellation_signal: CancellationSignal | None
    ) -> ExecuteAppFunctionResponse:
        message = self._request_message(request)
        if cancellation_signal is None:
            result = self._binder.call(self._stub.ExecuteAppFunction, message)
        else:
            call = self._stub.ExecuteAppFunction.future(message, metadata=self._binder.metadata)
            cancellation_signal.set_on_cancel_listener(call.cancel)
            result = _result_of(call)
        return _outcome(result)

    async def execute_app_function_async(self, request: ExecuteAppFunctionRequest) -> ExecuteAppFunctionResponse:
        """Awaited on the caller's loop, which gRPC's completion thread wakes: no worker thread
        waits for the call (asyncio.to_thread would cost two thread hops more per call).
        Cancelling the awaiting task cancels the call on the device."""
        import asyncio  # as in AppFunctionManager: never on the device's boot path

        loop = asyncio.get_running_loop()
        finished = loop.create_future()

        def wake(_: grpc.Future) -> None:
            try:
                loop.call_soon_threadsafe(_settle, finished)
            except RuntimeError:  # the loop closed while the call was in flight: nobody waits
                pass

        call = self._stub.ExecuteAppFunction.future(self._request_message(request), metadata=self._binder.metadata)
        call.add_done_callback(wake)
        try:
            await finished
        except asyncio.CancelledError:
            call.cancel()
            raise
        return _outcome(_result_of(call))

    def _request_message(self, request: ExecuteAppFunctionRequest) -> afm_pb2.ExecuteAppFunctionRequest:
        message = wire.request_to_proto(request)
        message.calling_package = self._binder.package_name
        return message

    def is_app_function_enabled(self, function_identifier: str, target_package_name: str) -> bool:
        request = afm_pb2.IsAppFunctionEnabledRequest(
            function_identifier=function_identifier, target_package_name=target_package_name
        )
        return self._binder.call(self._stub.IsAppFunctionEnabled, request).enabled

    def set_app_function_enabled(
        self, function_identifier: str, state: int, target_package_name: str = ""
    ) -> None:
        request = afm_pb2.SetAppFunctionEnabledRequest(
            function_identifier=function_identifier, state=state, target_package_name=target_package_name
        )
        self._binder.call(self._stub.SetAppFunctionEnabled, request)

    def search_app_functions(self, spec: AppFunctionSearchSpec) -> list[AppFunctionMetadata]:
        response = self._binder.call(self._stub.SearchAppFunctions, wire.spec_to_proto(spec))
        return list(response.app_functions)

    def observe_app_functions(self, callback: Callable[[AppFunctionChangeEvent], None]) -> Callable[[], None]:
        """A server stream: its first, empty event says the device registered the observer, so
        this returns only once later changes are sure to arrive; a thread feeds the rest to
        ``callback`` until the stream is cancelled or the device goes away."""
        stream = self._stub.ObserveAppFunctions(data_pb2.Empty(), metadata=self._binder.metadata)
        try:
            next(stream)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None

        def pump() -> None:
            try:
                for event in stream:
                    callback(event)
            except grpc.RpcError:
                pass  # cancelled, or the device stopped: the observation is over either way

        threading.Thread(target=pump, name="app-function-observer", daemon=True).start()
        return stream.cancel

    def get_app_function_states(self, names: list[AppFunctionName]) -> list[AppFunctionState]:
        request = afm_pb2.AppFunctionNameList(names=wire.names_to_proto(names, sort=False))
        response = self._binder.call(self._stub.GetAppFunctionStates, request)
        return [
            AppFunctionState(wire.names_from_proto([s.function_name])[0], s.is_enabled) for s in response.states
        ]

    def add_on_access_changed_listener(self, listener: Callable[[int], None]) -> None:
        """One stream per listener; returns once the device has it in place (or refused it)."""
        with self._lock:
            if listener in self._watches:
                return
            call = self._stub.WatchAccessChanges(data_pb2.Empty(), metadata=self._binder.metadata)
            try:
                next(call)  # `registered`
            except grpc.RpcError as error:
                raise from_rpc_error(error) from None
            self._watches[listener] = call
        threading.Thread(target=_deliver, args=(call, listener), name="access-changed-listener", daemon=True).start()

    def remove_on_access_changed_listener(self, listener: Callable[[int], None]) -> None:
        with self._lock:
            call = self._watches.pop(listener, None)
        if call is not None:
            call.cancel()

    def get_access_request_state(self, agent_package_name: str, target_package_name: str) -> int:
        pair = afm_pb2.AccessPair(agent_package_name=agent_package_name, target_package_name=target_package_name)
        return self._binder.call(self._stub.GetAccessRequestState, pair).state

    # Flags cross the wire in the device's numbering (access_flag_numbering.py).
    def get_access_flags(self, agent_package_name: str, target_package_name: str) -> int:
        pair = afm_pb2.AccessPair(agent_package_name=agent_package_name, target_package_name=target_package_name)
        return from_wire(self._binder.call(self._stub.GetAccessFlags, pair).flags, self._device_sdk(), strict=False)

    def update_access_flags(
        self, agent_package_name: str, target_package_name: str, flag_mask: int, flags: int
    ) -> bool:
        sdk = self._device_sdk()
        refuse_unknown(flags, valid_flags(sdk))  # a bit the device's version lacks has no wire number
        request = afm_pb2.UpdateAccessFlagsRequest(
            agent_package_name=agent_package_name, target_package_name=target_package_name,
            flag_mask=to_wire(flag_mask, sdk), flags=to_wire(flags, sdk),
        )
        return self._binder.call(self._stub.UpdateAccessFlags, request).changed

    def _device_sdk(self) -> int:
        if self._sdk_int is None:
            self._sdk_int = self._binder.call(sm_grpc.ServiceManagerStub(self._binder.channel).GetBuildVersion,
                                              data_pb2.Empty()).sdk_int
        return self._sdk_int

    def revoke_self_access(self, target_package_name: str) -> None:
        request = afm_pb2.RevokeSelfAccessRequest(target_package_name=target_package_name)
        self._binder.call(self._stub.RevokeSelfAccess, request)

    def get_valid_agents(self) -> list[str]:
        return list(self._binder.call(self._stub.GetValidAgents, data_pb2.Empty()).package_names)

    def get_valid_targets(self) -> list[str]:
        return list(self._binder.call(self._stub.GetValidTargets, data_pb2.Empty()).package_names)

    def get_agent_allowlist(self) -> list[str]:
        return list(self._binder.call(self._stub.GetAgentAllowlist, data_pb2.Empty()).package_names)

    def edit_additional_agent_allowlist(self, operation: int, packages: list[str]) -> allowlist_pb2.AllowlistChange:
        request = allowlist_pb2.AllowlistEdit(operation=operation, packages=packages)
        return self._binder.call(self._stub.EditAdditionalAgentAllowlist, request)

    def get_access_history(self) -> list[afm_pb2.AccessHistoryEntry]:
        return list(self._binder.call(self._stub.GetAccessHistory, data_pb2.Empty()).entries)

    def clear_access_history(self) -> None:
        self._binder.call(self._stub.ClearAccessHistory, data_pb2.Empty())

    def dump(self) -> str:
        return self._binder.call(self._stub.Dump, data_pb2.Empty()).text


class RemotePackageManager:
    def __init__(self, binder: RemoteBinder) -> None:
        self._binder = binder
        self._stub = pm_grpc.PackageManagerStub(binder.channel)

    def install_package(
        self, app_dir: str, system: bool = False, responses: pm_pb2.ResponseOptions | None = None,
    ) -> pm_pb2.PackageInfo:
        request = pm_pb2.InstallPackageRequest(app_dir=app_dir, system=system, responses=responses)
        return self._binder.call(self._stub.InstallPackage, request)

    def uninstall_package(self, package_name: str) -> None:
        request = pm_pb2.UninstallPackageRequest(package_name=package_name)
        self._binder.call(self._stub.UninstallPackage, request)

    def list_packages(self) -> list[pm_pb2.PackageInfo]:
        return list(self._binder.call(self._stub.ListPackages, data_pb2.Empty()).packages)

    def clear_package_data(self, package_name: str) -> None:
        request = pm_pb2.ClearPackageDataRequest(package_name=package_name)
        self._binder.call(self._stub.ClearPackageData, request)

    def list_permissions(self) -> list[pm_pb2.PermissionInfo]:
        return list(self._binder.call(self._stub.ListPermissions, data_pb2.Empty()).permissions)

    def check_permission(self, permission: str, package_name: str) -> int:
        request = pm_pb2.PermissionRequest(package_name=package_name, permission=permission)
        return self._binder.call(self._stub.CheckPermission, request).result

    def grant_permission(self, package_name: str, permission: str) -> None:
        request = pm_pb2.PermissionRequest(package_name=package_name, permission=permission)
        self._binder.call(self._stub.GrantPermission, request)

    def revoke_permission(self, package_name: str, permission: str) -> None:
        request = pm_pb2.PermissionRequest(package_name=package_name, permission=permission)
        self._binder.call(self._stub.RevokePermission, request)

    def get_privileged_allowlist(self) -> list[str]:
        return list(self._binder.call(self._stub.GetPrivilegedAllowlist, data_pb2.Empty()).package_names)

    def edit_privileged_allowlist(self, operation: int, packages: list[str]) -> allowlist_pb2.AllowlistChange:
        request = allowlist_pb2.AllowlistEdit(operation=operation, packages=packages)
        return self._binder.call(self._stub.EditPrivilegedAllowlist, request)


class RemoteSettings:
    """The device's Secure settings and DeviceConfig, as ``settings`` and ``device_config`` see them."""

    def __init__(self, binder: RemoteBinder) -> None:
        self._binder = binder
        self._stub = settings_grpc.SettingsStub(binder.channel)

    def known(self) -> dict[tuple[str, str], str]:
        response = self._binder.call(self._stub.ListSettings, data_pb2.Empty())
        return {(s.key.table, s.key.name): s.description for s in response.settings}

    def get_setting(self, table: str, name: str) -> str | None:
        value = self._binder.call(self._stub.GetSetting, settings_pb2.SettingKey(table=table, name=name))
        return value.value if value.present else None

    def put_setting(self, table: str, name: str, value: str | None) -> None:
        if value is None:
            self.delete_setting(table, name)
            return
        key = settings_pb2.SettingKey(table=table, name=name)
        self._binder.call(self._stub.PutSetting, settings_pb2.SettingValue(key=key, present=True, value=value))

    def delete_setting(self, table: str, name: str) -> None:
        self._binder.call(self._stub.DeleteSetting, settings_pb2.SettingKey(table=table, name=name))


def _deliver(events: Iterator[afm_pb2.AccessChangeEvent], listener: Callable[[int], None]) -> None:
    """Hand each change to the listener until the stream ends (removed, or the channel closed)."""
    try:
        for event in events:
            try:
                listener(event.agent_uid)
            except Exception:  # the listener's own failure must not end its stream
                log.exception("an access-changed listener failed")
    except grpc.RpcError:
        pass


class RemoteServiceManager:
    """``ServiceManager.get_service(name)`` for a device in another process."""

    PROXIES: dict[str, Callable[[RemoteBinder], Any]] = {
        "app_function": RemoteAppFunctionManager,
        "package": RemotePackageManager,
        "settings": RemoteSettings,
    }

    def __init__(self, channel: grpc.Channel, credential: str) -> None:
        self._binder = RemoteBinder(channel, credential)
        self._proxies: dict[str, Any] = {}

    def get_service(self, name: str) -> Any:
        if name not in self._proxies:
            if name not in self.PROXIES:
                raise KeyError(f"no system service named {name!r}")
            self._proxies[name] = self.PROXIES[name](self._binder)
        return self._proxies[name]

    def who_am_i(self) -> tuple[int, str]:
        stub = sm_grpc.ServiceManagerStub(self._binder.channel)
        info = self._binder.call(stub.WhoAmI, data_pb2.Empty())
        self._binder.package_name = info.package_name
        return info.uid, info.package_name

    def sdk_int(self) -> int:
        stub = sm_grpc.ServiceManagerStub(self._binder.channel)
        return self._binder.call(stub.GetBuildVersion, data_pb2.Empty()).sdk_int

    def close(self) -> None:
        self._binder.channel.close()


def _settle(finished: Any) -> None:
    if not finished.done():
        finished.set_result(None)


def _result_of(call: grpc.Future) -> afm_pb2.ExecuteAppFunctionResult:
    """A finished (or finishing) call's result; cancelled is ERROR_CANCELLED."""
    try:
        return call.result()
    except grpc.FutureCancelledError:
        # Android sends a cancelled caller nothing at all; a blocking Python
        # call must end somehow, so it raises ERROR_CANCELLED (docs/differences.md).
        raise AppFunctionCancelledException("The call was cancelled by the caller.") from None
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.CANCELLED:
            raise AppFunctionCancelledException("The call was cancelled by the caller.") from None
        raise from_rpc_error(error) from None


def _outcome(result: afm_pb2.ExecuteAppFunctionResult) -> ExecuteAppFunctionResponse:
    outcome = wire.result_from_proto(result)
    if isinstance(outcome, AppFunctionException):
        raise outcome
    return outcome
