"""DeviceServer: the device on a Unix socket (default) or TCP, with reflection and health."""

from __future__ import annotations

import ipaddress
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from droid.binder.channel import CHANNEL_OPTIONS
from droidsim.v1 import app_function_manager_pb2, package_manager_pb2, service_manager_pb2, settings_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from droidsim.v1 import package_manager_pb2_grpc as pm_grpc
from droidsim.v1 import service_manager_pb2_grpc as sm_grpc
from droidsim.v1 import settings_pb2_grpc as settings_grpc
from sim.server.app_socket import INTERNAL_SOCKET_NAME, AppSocket
from sim.server.decode_guard import UndecodableRequestGuard
from sim.server.tcp_peers import loopback_peer_uid
from sim.server.servicers import (
    AppFunctionManagerServicer,
    PackageManagerServicer,
    ServiceManagerServicer,
    SettingsServicer,
)

if TYPE_CHECKING:
    from sim.device import Device

log = logging.getLogger("droidsim.server")

SERVICE_NAMES = {
    "app_function": app_function_manager_pb2.DESCRIPTOR.services_by_name["AppFunctionManager"].full_name,
    "package": package_manager_pb2.DESCRIPTOR.services_by_name["PackageManager"].full_name,
    "settings": settings_pb2.DESCRIPTOR.services_by_name["Settings"].full_name,
}
SERVICE_MANAGER = service_manager_pb2.DESCRIPTOR.services_by_name["ServiceManager"].full_name

# Enough workers that 64 concurrent callers, some blocked in slow apps, all progress.
MAX_WORKERS = 128


def parse_listen(listen: str) -> tuple[str, bool]:
    """The gRPC bind address, and whether it is reachable beyond this machine."""
    if listen.startswith("unix:"):
        return listen, False
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--listen takes unix:PATH or HOST:PORT, not {listen!r}")
    bare = host.strip("[]")
    try:
        public = not ipaddress.ip_address(bare).is_loopback
    except ValueError:
        public = bare != "localhost"
    return listen, public


def _uid_identity(device: "Device", os_uid: int | None):
    """The installed app that runs as ``os_uid`` on this device, if any."""
    app_uid = None if os_uid is None else device.os_user.app_uid(os_uid)
    return None if app_uid is None else device.authenticator.app_identity_of_uid(app_uid)


class DeviceServer:
    def __init__(self, device: "Device", listen: str) -> None:
        address, public = parse_listen(listen)
        if public:
            log.warning("listening on %s: reachable from other machines, not only this one", address)
        self._server = grpc.server(
            ThreadPoolExecutor(max_workers=MAX_WORKERS), interceptors=[UndecodableRequestGuard()], options=CHANNEL_OPTIONS
        )
        auth = device.authenticator
        app_functions = AppFunctionManagerServicer(auth, device.app_functions, device.limits, device.version.sdk_int)
        afm_grpc.add_AppFunctionManagerServicer_to_server(app_functions, self._server)
        # SearchAppFunctions answers with its response already serialised (each package's page
        # is encoded once, docs/performance.md): the same method again, without a serializer.
        self._server.add_registered_method_handlers(SERVICE_NAMES["app_function"], {
            "SearchAppFunctions": grpc.unary_unary_rpc_method_handler(
                app_functions.SearchAppFunctions,
                request_deserializer=app_function_manager_pb2.AppFunctionSearchSpec.FromString,
            ),
        })
        pm_grpc.add_PackageManagerServicer_to_server(PackageManagerServicer(auth, device.package_manager), self._server)
        settings_grpc.add_SettingsServicer_to_server(SettingsServicer(auth, device.settings), self._server)
        sm_grpc.add_ServiceManagerServicer_to_server(ServiceManagerServicer(auth, SERVICE_NAMES, device.version), self._server)
        self._health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self._health, self._server)
        names = [*SERVICE_NAMES.values(), SERVICE_MANAGER, health.SERVICE_NAME, reflection.SERVICE_NAME]
        reflection.enable_server_reflection(names, self._server)
        port = self._server.add_insecure_port(address)
        if port == 0:
            raise OSError(f"cannot listen on {address}")
        self.address = address if address.startswith("unix:") else f"{address.rpartition(':')[0]}:{port}"
        self.public = public
        self._app_socket = self._app_socket_for(device) if device.processes.os_isolation else None
        # Where the device's own app processes connect: named by the kernel when they run as their uids.
        self.app_address = self._app_socket.address if self._app_socket else self.address

    def _app_socket_for(self, device: "Device") -> AppSocket:
        internal = device.data_dir / INTERNAL_SOCKET_NAME
        internal.unlink(missing_ok=True)
        if self._server.add_insecure_port(f"unix:{internal}") == 0:
            raise OSError(f"cannot listen on {internal}")
        os.chmod(internal, 0o600)
        auth = device.authenticator
        if not self.address.startswith("unix:"):  # a loopback TCP peer is named by the kernel too
            auth.identify_peer = lambda peer: _uid_identity(device, loopback_peer_uid(peer))
        return AppSocket(internal, lambda uid: _uid_identity(device, uid), auth.bind_peer, auth.unbind_peer)

    def start(self) -> None:
        self._server.start()
        if self.address.startswith("unix:") and self._app_socket is not None:
            os.chmod(self.address.removeprefix("unix:"), 0o600)  # the device's user, and no app
        if self._app_socket is not None:
            self._app_socket.start()
        for name in [*SERVICE_NAMES.values(), SERVICE_MANAGER, ""]:
            self._health.set(name, health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace: float = 1.0) -> None:
        self._health.enter_graceful_shutdown()
        if self._app_socket is not None:
            self._app_socket.close()
        self._server.stop(grace).wait()
