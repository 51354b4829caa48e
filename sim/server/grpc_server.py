"""DeviceServer: the device on a Unix socket (default) or TCP, with reflection and health."""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
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
from sim.server.app_socket import INTERNAL_SOCKET_NAME, app_socket
from sim.server.decode_guard import UndecodableRequestGuard
from sim.server.peer_relay import ConnectionCaps, PeerRelay
from sim.server.tcp_peers import connection_owner
from sim.server.worker_budget import AppWorkerBudget
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

# Enough workers that 64 concurrent callers, some blocked in slow apps, all progress; apps
# together hold at most all but the reserved ones (sim/server/worker_budget.py).
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
        auth, budget = device.authenticator, AppWorkerBudget(MAX_WORKERS)
        app_functions = AppFunctionManagerServicer(
            auth, budget, device.app_functions, device.limits, device.version.sdk_int)
        afm_grpc.add_AppFunctionManagerServicer_to_server(app_functions, self._server)
        # SearchAppFunctions answers with its response already serialised (each package's page
        # is encoded once, docs/performance.md): the same method again, without a serializer.
        self._server.add_registered_method_handlers(SERVICE_NAMES["app_function"], {
            "SearchAppFunctions": grpc.unary_unary_rpc_method_handler(
                app_functions.SearchAppFunctions,
                request_deserializer=app_function_manager_pb2.AppFunctionSearchSpec.FromString,
            ),
        })
        pm_grpc.add_PackageManagerServicer_to_server(PackageManagerServicer(auth, budget, device.package_manager), self._server)
        settings_grpc.add_SettingsServicer_to_server(SettingsServicer(auth, budget, device.settings), self._server)
        sm_grpc.add_ServiceManagerServicer_to_server(ServiceManagerServicer(auth, budget, SERVICE_NAMES, device.version), self._server)
        self._health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self._health, self._server)
        names = [*SERVICE_NAMES.values(), SERVICE_MANAGER, health.SERVICE_NAME, reflection.SERVICE_NAME]
        reflection.enable_server_reflection(names, self._server)
        self.public = public
        self._relays: list[PeerRelay] = []
        if device.processes.os_isolation:
            self._serve_named_peers(device, address)
        else:
            self.address = self.app_address = self._listen(address)

    def _listen(self, address: str) -> str:
        port = self._server.add_insecure_port(address)
        if port == 0:
            raise OSError(f"cannot listen on {address}")
        return address if address.startswith("unix:") else f"{address.rpartition(':')[0]}:{port}"

    def _serve_named_peers(self, device: "Device", address: str) -> None:
        """An isolating device: app processes reach it on the app socket, and a TCP listener
        is a relay that names each connection (sim/server/peer_relay.py); both relay to an
        internal socket that only the device's user may connect to."""
        internal = device.data_dir / INTERNAL_SOCKET_NAME
        internal.unlink(missing_ok=True)
        self._listen(f"unix:{internal}")
        os.chmod(internal, 0o600)
        auth, caps = device.authenticator, ConnectionCaps()
        relay, self.app_address = app_socket(internal, lambda uid: _uid_identity(device, uid),
                                             auth.bind_peer, auth.unbind_peer, caps)
        self._relays.append(relay)
        if address.startswith("unix:"):
            self.address = self._listen(address)
            return
        listener, self.address = _tcp_listener(address)
        name_peer = lambda connection: _uid_identity(device, connection_owner(connection))  # noqa: E731
        self._relays.append(PeerRelay(listener, internal, name_peer, auth.bind_peer, auth.unbind_peer, caps, "tcp"))

    def start(self) -> None:
        self._server.start()
        if self.address.startswith("unix:") and self._relays:
            os.chmod(self.address.removeprefix("unix:"), 0o600)  # the device's user, and no app
        for relay in self._relays:
            relay.start()
        for name in [*SERVICE_NAMES.values(), SERVICE_MANAGER, ""]:
            self._health.set(name, health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace: float = 1.0) -> None:
        self._health.enter_graceful_shutdown()
        for relay in self._relays:
            relay.close()
        self._server.stop(grace).wait()


def _tcp_listener(address: str) -> tuple[socket.socket, str]:
    """A listening socket for HOST:PORT (port 0: any free one), and its address as bound."""
    host, _, port = address.rpartition(":")
    bare = host.strip("[]")
    listener = socket.socket(socket.AF_INET6 if ":" in bare else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((bare, int(port)))
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise OSError(f"cannot listen on {address}: {error.strerror}") from None
    return listener, f"{host}:{listener.getsockname()[1]}"
