"""ProcessManager ("zygote"): one host per app, started on first use, replaced after a crash."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from droid.content.context import Context
from sim.zygote.hosts import AppHost, LocalAppHost, ProcessAppHost
from sim.zygote.runtime import AppRuntime
from sim.zygote import landlock
from sim.zygote.child_start import start_environment
from sim.zygote.specialize import own_for_app, reclaim_for_app

log = logging.getLogger("droidsim.zygote")

# DeviceConfig appfunctions/execute_app_function_cancellation_timeout_millis
DEFAULT_CANCELLATION_TIMEOUT = 5.0


@dataclass(frozen=True)
class AppLaunch:
    """What the zygote needs to start an app."""

    package_name: str
    app_dir: Path
    credential_file: Path
    uid: int


class ProcessManager:
    """``isolated``: each app in its own process; ``os_isolation``: under its own uid too
    (needs root). ``device_address`` is where an app process reaches the device."""

    def __init__(
        self,
        *,
        isolated: bool,
        device_address: Callable[[], str | None],
        local_context: Callable[[str], Context | None],
        cancellation_timeout: float = DEFAULT_CANCELLATION_TIMEOUT,
        os_isolation: bool = False,
        os_uid: Callable[[int], int] = lambda uid: uid,
    ) -> None:
        self.isolated = isolated
        self.os_isolation = os_isolation and isolated
        # Without root, app processes confine themselves with Landlock where the kernel has it.
        self.landlock_abi = landlock.abi_version() if isolated and not self.os_isolation else 0
        self._os_uid = os_uid
        self.cancellation_timeout = cancellation_timeout
        self._device_address = device_address
        self._local_context = local_context
        self._hosts: dict[str, AppHost] = {}
        self._lock = threading.Lock()
        # One app's start, stop and clean-up never interleave: the processes a dead app left
        # are killed (by its uid) before its next process runs under that uid.
        self._app_locks: dict[str, threading.Lock] = {}

    def _app_lock(self, package_name: str) -> threading.Lock:
        with self._lock:
            return self._app_locks.setdefault(package_name, threading.Lock())

    def host_for(self, launch: AppLaunch) -> AppHost:
        with self._app_lock(launch.package_name):
            with self._lock:
                host = self._hosts.get(launch.package_name)
            if host is None or not host.alive:
                if host is not None:
                    host.stop()
                host = self._start(launch)
                with self._lock:
                    self._hosts[launch.package_name] = host
            return host

    def running(self) -> dict[str, AppHost]:
        with self._lock:
            return {name: host for name, host in self._hosts.items() if host.alive}

    def _start(self, launch: AppLaunch) -> AppHost:
        if not self.isolated:
            from sim.responses.loader import load_service_class  # only apps on threads load here

            runtime = AppRuntime(
                launch.package_name,
                launch.app_dir,
                lambda: self._local_context(launch.package_name),
                load_service_class,
            )
            return LocalAppHost(runtime, self.cancellation_timeout)
        # The app's folder is its own (0700, its uid's), and its working folder and HOME.
        home = launch.credential_file.parent
        home.mkdir(parents=True, exist_ok=True)
        os_uid = self._os_uid(launch.uid)
        reclaim_for_app(home, os_uid)
        own_for_app(home, os_uid, 0o700)
        try:  # a link or hard link the app put in its place is refused, never followed
            own_for_app(launch.credential_file, os_uid, 0o600)
        except FileNotFoundError:
            pass
        address = self._device_address()
        env = start_environment({"DROIDSIM_DEVICE": address} if address else {})
        host = ProcessAppHost(
            launch.package_name, launch.app_dir, env, self.cancellation_timeout, self._exited,
            os_uid=os_uid if self.os_isolation else None, home=home, confine=bool(self.landlock_abi),
        )
        log.info("started %s as pid %d%s", launch.package_name, host.pid,
                 f" (OS uid {os_uid})" if self.os_isolation else " (device's uid: no OS isolation)")
        return host

    def _exited(self, host: ProcessAppHost) -> None:
        """A crashed app: what it left behind dies now, unless a new process replaced it
        (whose start already did that)."""
        with self._app_lock(host.package_name):
            with self._lock:
                current = self._hosts.get(host.package_name) is host
                if current:
                    del self._hosts[host.package_name]
            if current:
                host.kill_children()

    def stop(self, package_name: str) -> None:
        with self._app_lock(package_name):
            with self._lock:
                host = self._hosts.pop(package_name, None)
            if host is not None:
                host.stop()

    def stop_all(self) -> None:
        with self._lock:
            names = list(self._hosts)
        for name in names:
            self.stop(name)
