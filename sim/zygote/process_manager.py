"""ProcessManager ("zygote"): one host per app, started on first use, replaced after a crash."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from droid.appfunctions.loader import load_app_service_class
from droid.content.context import Context
from sim.zygote.hosts import AppHost, LocalAppHost, ProcessAppHost
from sim.zygote.runtime import AppRuntime

log = logging.getLogger("droidsim.zygote")

# DeviceConfig appfunctions/execute_app_function_cancellation_timeout_millis
DEFAULT_CANCELLATION_TIMEOUT = 5.0


@dataclass(frozen=True)
class AppLaunch:
    """What the zygote needs to start an app."""

    package_name: str
    app_dir: Path
    credential_file: Path


class ProcessManager:
    def __init__(
        self,
        *,
        isolated: bool,
        device_address: Callable[[], str | None],
        local_context: Callable[[str], Context | None],
        cancellation_timeout: float = DEFAULT_CANCELLATION_TIMEOUT,
    ) -> None:
        self.isolated = isolated
        self.cancellation_timeout = cancellation_timeout
        self._device_address = device_address
        self._local_context = local_context
        self._hosts: dict[str, AppHost] = {}
        self._lock = threading.Lock()

    def host_for(self, launch: AppLaunch) -> AppHost:
        with self._lock:
            host = self._hosts.get(launch.package_name)
            if host is None or not host.alive:
                host = self._start(launch)
                self._hosts[launch.package_name] = host
            return host

    def running(self) -> dict[str, AppHost]:
        with self._lock:
            return {name: host for name, host in self._hosts.items() if host.alive}

    def _start(self, launch: AppLaunch) -> AppHost:
        if not self.isolated:
            runtime = AppRuntime(
                launch.package_name,
                launch.app_dir,
                lambda: self._local_context(launch.package_name),
                load_app_service_class,
            )
            return LocalAppHost(runtime, self.cancellation_timeout)
        env = {"DROIDSIM_CREDENTIAL_FILE": str(launch.credential_file)}
        address = self._device_address()
        if address:
            env["DROIDSIM_DEVICE"] = address
        host = ProcessAppHost(
            launch.package_name, launch.app_dir, env, self.cancellation_timeout, self._exited
        )
        log.info("started %s as pid %d", launch.package_name, host.pid)
        return host

    def _exited(self, host: AppHost) -> None:
        with self._lock:
            if self._hosts.get(host.package_name) is host:
                del self._hosts[host.package_name]

    def stop(self, package_name: str) -> None:
        with self._lock:
            host = self._hosts.pop(package_name, None)
        if host is not None:
            host.stop()

    def stop_all(self) -> None:
        with self._lock:
            hosts, self._hosts = list(self._hosts.values()), {}
        for host in hosts:
            host.stop()
