"""gRPC servicers: protobuf in, the same service objects local callers use, protobuf out.

Each call is authenticated from its credential and runs as that identity; a
binder exception travels back as a status plus a BinderException trailer.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import threading
from typing import Any, Callable

import grpc

from droid.appfunctions.access_flag_numbering import from_wire, to_wire
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException
from droid.binder import wire
from droid.binder.errors import to_status
from droid.binder.remote import CREDENTIAL_KEY
from droid.os.binder import Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import BINDER_EXCEPTIONS
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from droidsim.v1 import data_pb2
from droidsim.v1.app_function_observer_pb2 import AppFunctionChangeEvent
from droidsim.v1 import package_manager_pb2 as pm_pb2
from droidsim.v1 import package_manager_pb2_grpc as pm_grpc
from droidsim.v1 import service_manager_pb2 as sm_pb2
from droidsim.v1 import service_manager_pb2_grpc as sm_grpc
from droidsim.v1 import settings_pb2
from droidsim.v1 import settings_pb2_grpc as settings_grpc
from sim.identity import Authenticator
from sim.limits import CallLimits, oversized_request
from sim.platform_version import PlatformVersion
from sim.server.worker_budget import AppWorkerBudget

UNAUTHENTICATED = "missing or unknown credential: present the package's credential as 'droidsim-credential'"


def binder_call(method: Callable[..., Any]) -> Callable[..., Any]:
    """Authenticate, run as the caller, and turn binder exceptions into statuses."""

    @functools.wraps(method)
    def handler(self: "_Servicer", request: Any, context: grpc.ServicerContext) -> Any:
        identity = self.authenticate(context)
        try:
            with self.budget.hold(identity), Binder.calling_as(identity):
                return method(self, request, context)
        except Exception as error:
            _abort_with(error, context)

    return handler


def _abort_with(error: Exception, context: grpc.ServicerContext) -> None:
    """End the RPC with the status a binder exception parcels to; re-raise anything else."""
    parcelled = _as_parcelled(error)
    if parcelled is None:
        raise error
    code, details, trailers = to_status(parcelled)
    context.set_trailing_metadata(trailers)
    context.abort(code, details)


def _as_parcelled(error: Exception) -> Exception | None:
    """The exception a binder reply carries, as Parcel.writeException picks it by instanceof:
    an AppFunctionException as it is, a subclass of a platform exception as that platform
    class (an installer's InstallError is an IllegalArgumentException), anything else None."""
    if isinstance(error, AppFunctionException):
        return error
    for platform_class in BINDER_EXCEPTIONS.values():
        if isinstance(error, platform_class):
            return error if type(error) is platform_class else platform_class(str(error))
    return None


class _Servicer:
    def __init__(self, authenticator: Authenticator, budget: AppWorkerBudget) -> None:
        self._authenticator = authenticator
        self.budget = budget

    def authenticate(self, context: grpc.ServicerContext) -> CallingIdentity:
        secret = None
        for key, value in context.invocation_metadata():
            if key == CREDENTIAL_KEY:
                secret = value
                break
        identity = self._authenticator.identify(secret, context.peer)
        if identity is None:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, UNAUTHENTICATED)
        return identity


class AppFunctionManagerServicer(_Servicer, afm_grpc.AppFunctionManagerServicer):
    def __init__(
        self, authenticator: Authenticator, budget: AppWorkerBudget, service: Any, limits: CallLimits, sdk_int: int
    ) -> None:
        super().__init__(authenticator, budget)
        self._service = service
        self._limits = limits
        self._sdk_int = sdk_int

    @binder_call
    def ExecuteAppFunction(self, request, context):  # noqa: N802 - gRPC's name
        # Refused before decoding: an oversized or malformed request costs the device nothing more.
        refusal = oversized_request(request, self._limits)
        if refusal is not None:
            return wire.result_to_proto(refusal)
        try:
            # Checked, not decoded: the device forwards the documents to the app as they came.
            received = wire.request_from_proto(request, encoded=True)
        except wire.MalformedDataError as error:
            return wire.result_to_proto(AppFunctionInvalidArgumentException(f"Malformed request: {error}"))
        signal = CancellationSignal()
        finished: list[bool] = []  # a flag: an Event costs a condition variable per call
        # Fires when the RPC ends for any reason; only a caller that left cancels.
        context.add_callback(lambda: finished or signal.cancel())
        try:
            outcome = self._service.execute_app_function(received, signal, request.calling_package)
        except AppFunctionException as error:
            outcome = error
        finally:
            finished.append(True)
        return wire.result_to_proto(outcome)

    @binder_call
    def IsAppFunctionEnabled(self, request, context):  # noqa: N802
        enabled = self._service.is_app_function_enabled(request.function_identifier, request.target_package_name)
        return afm_pb2.IsAppFunctionEnabledResponse(enabled=enabled)

    @binder_call
    def SetAppFunctionEnabled(self, request, context):  # noqa: N802
        self._service.set_app_function_enabled(request.function_identifier, request.state, request.target_package_name)
        return data_pb2.Empty()

    @binder_call
    def SearchAppFunctions(self, request, context):  # noqa: N802
        # Already serialised (the server registers this method without a serializer).
        return self._service.encoded_search_response(wire.spec_from_proto(request))

    def ObserveAppFunctions(self, request, context):  # noqa: N802
        """A stream of change events: first an empty one once the observer is registered,
        then each change, until the caller cancels or the device stops."""
        identity = self.authenticate(context)
        events: queue.Queue[AppFunctionChangeEvent | None] = queue.Queue()
        with contextlib.ExitStack() as held:  # a worker, for as long as the stream is open
            try:
                held.enter_context(self.budget.hold(identity))
                with Binder.calling_as(identity):
                    unregister = self._service.observe_app_functions(events.put)
            except Exception as error:
                _abort_with(error, context)
            context.add_callback(lambda: events.put(None))  # the RPC ended: stop waiting
            try:
                yield AppFunctionChangeEvent()
                while (event := events.get()) is not None:
                    yield event
            finally:
                unregister()

    @binder_call
    def GetAppFunctionStates(self, request, context):  # noqa: N802
        states = self._service.get_app_function_states(wire.names_from_proto(request.names))
        return afm_pb2.AppFunctionStateList(states=[
            afm_pb2.AppFunctionState(function_name=name, is_enabled=state.is_enabled)
            for state, name in zip(states, wire.names_to_proto([s.function_name for s in states], sort=False))
        ])

    def WatchAccessChanges(self, request, context):  # noqa: N802
        """A stream, so not a binder_call: the listener goes in as the caller, then each change
        is sent until the client cancels (or goes), which takes the listener out again."""
        identity = self.authenticate(context)
        changes: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        with contextlib.ExitStack() as held:  # a worker, for as long as the stream is open
            try:
                held.enter_context(self.budget.hold(identity))
                with Binder.calling_as(identity):
                    self._service.add_on_access_changed_listener(changes.put)
            except Exception as error:
                _abort_with(error, context)

            def stop() -> None:
                with Binder.calling_as(identity):
                    self._service.remove_on_access_changed_listener(changes.put)
                changes.put(None)

            context.add_callback(stop)
            yield afm_pb2.AccessChangeEvent(registered=data_pb2.Empty())
            while (agent_uid := changes.get()) is not None:
                yield afm_pb2.AccessChangeEvent(agent_uid=agent_uid)

    @binder_call
    def GetAccessRequestState(self, request, context):  # noqa: N802
        state = self._service.get_access_request_state(request.agent_package_name, request.target_package_name)
        return afm_pb2.AccessRequestState(state=state)

    # Flags cross the wire in the numbering of the device's version (access_flag_numbering.py).
    @binder_call
    def GetAccessFlags(self, request, context):  # noqa: N802
        flags = self._service.get_access_flags(request.agent_package_name, request.target_package_name)
        return afm_pb2.AccessFlags(flags=to_wire(flags, self._sdk_int))

    @binder_call
    def UpdateAccessFlags(self, request, context):  # noqa: N802
        changed = self._service.update_access_flags(
            request.agent_package_name, request.target_package_name,
            from_wire(request.flag_mask, self._sdk_int, strict=False), from_wire(request.flags, self._sdk_int, strict=True),
        )
        return afm_pb2.UpdateAccessFlagsResponse(changed=changed)

    @binder_call
    def RevokeSelfAccess(self, request, context):  # noqa: N802
        self._service.revoke_self_access(request.target_package_name)
        return data_pb2.Empty()

    @binder_call
    def GetValidAgents(self, request, context):  # noqa: N802
        return afm_pb2.PackageNameList(package_names=self._service.get_valid_agents())

    @binder_call
    def GetValidTargets(self, request, context):  # noqa: N802
        return afm_pb2.PackageNameList(package_names=self._service.get_valid_targets())

    @binder_call
    def GetAgentAllowlist(self, request, context):  # noqa: N802
        return afm_pb2.PackageNameList(package_names=self._service.get_agent_allowlist())

    @binder_call
    def EditAdditionalAgentAllowlist(self, request, context):  # noqa: N802
        return self._service.edit_additional_agent_allowlist(request.operation, list(request.packages))

    @binder_call
    def GetAccessHistory(self, request, context):  # noqa: N802
        return afm_pb2.AccessHistory(entries=self._service.get_access_history())

    @binder_call
    def ClearAccessHistory(self, request, context):  # noqa: N802
        self._service.clear_access_history()
        return data_pb2.Empty()

    @binder_call
    def Dump(self, request, context):  # noqa: N802
        return afm_pb2.DumpResponse(text=self._service.dump())


class PackageManagerServicer(_Servicer, pm_grpc.PackageManagerServicer):
    def __init__(self, authenticator: Authenticator, budget: AppWorkerBudget, service: Any) -> None:
        super().__init__(authenticator, budget)
        self._service = service

    @binder_call
    def InstallPackage(self, request, context):  # noqa: N802
        responses = request.responses if request.HasField("responses") else None
        return self._service.install_package(request.app_dir, request.system, responses)

    @binder_call
    def UninstallPackage(self, request, context):  # noqa: N802
        self._service.uninstall_package(request.package_name)
        return data_pb2.Empty()

    @binder_call
    def ListPackages(self, request, context):  # noqa: N802
        return pm_pb2.ListPackagesResponse(packages=self._service.list_packages())

    @binder_call
    def ClearPackageData(self, request, context):  # noqa: N802
        self._service.clear_package_data(request.package_name)
        return data_pb2.Empty()

    @binder_call
    def ListPermissions(self, request, context):  # noqa: N802
        return pm_pb2.ListPermissionsResponse(permissions=self._service.list_permissions())

    @binder_call
    def CheckPermission(self, request, context):  # noqa: N802
        return pm_pb2.CheckPermissionResponse(result=self._service.check_permission(request.permission, request.package_name))

    @binder_call
    def GrantPermission(self, request, context):  # noqa: N802
        self._service.grant_permission(request.package_name, request.permission)
        return data_pb2.Empty()

    @binder_call
    def RevokePermission(self, request, context):  # noqa: N802
        self._service.revoke_permission(request.package_name, request.permission)
        return data_pb2.Empty()

    @binder_call
    def GetPrivilegedAllowlist(self, request, context):  # noqa: N802
        return pm_pb2.PrivilegedAllowlist(package_names=self._service.get_privileged_allowlist())

    @binder_call
    def EditPrivilegedAllowlist(self, request, context):  # noqa: N802
        return self._service.edit_privileged_allowlist(request.operation, list(request.packages))


class SettingsServicer(_Servicer, settings_grpc.SettingsServicer):
    def __init__(self, authenticator: Authenticator, budget: AppWorkerBudget, service: Any) -> None:
        super().__init__(authenticator, budget)
        self._service = service

    @binder_call
    def ListSettings(self, request, context):  # noqa: N802
        return settings_pb2.ListSettingsResponse(
            settings=[
                settings_pb2.SettingDescription(key=settings_pb2.SettingKey(table=table, name=name), description=text)
                for (table, name), text in self._service.known().items()
            ]
        )

    @binder_call
    def GetSetting(self, request, context):  # noqa: N802
        value = self._service.get_setting(request.table, request.name)
        return settings_pb2.SettingValue(key=request, present=value is not None, value=value or "")

    @binder_call
    def PutSetting(self, request, context):  # noqa: N802
        self._service.put_setting(request.key.table, request.key.name, request.value)
        return data_pb2.Empty()

    @binder_call
    def DeleteSetting(self, request, context):  # noqa: N802
        self._service.delete_setting(request.table, request.name)
        return data_pb2.Empty()


class ServiceManagerServicer(_Servicer, sm_grpc.ServiceManagerServicer):
    def __init__(self, authenticator: Authenticator, budget: AppWorkerBudget, services: dict[str, str],
                 version: PlatformVersion) -> None:
        super().__init__(authenticator, budget)
        self._services = services
        self._version = version

    @binder_call
    def ListServices(self, request, context):  # noqa: N802
        return sm_pb2.ListServicesResponse(
            services=[sm_pb2.ServiceInfo(name=n, grpc_service=g) for n, g in sorted(self._services.items())]
        )

    @binder_call
    def WhoAmI(self, request, context):  # noqa: N802
        caller = Binder.get_calling_identity()
        return sm_pb2.CallerInfo(uid=caller.uid, package_name=caller.package_name)

    @binder_call
    def GetBuildVersion(self, request, context):  # noqa: N802
        return sm_pb2.BuildVersion(sdk_int=self._version.sdk_int, release=self._version.release)
