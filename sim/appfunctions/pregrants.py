"""Pregranted agents: the preinstalled agent a system image ships, with its access given.

On Android 17 a system image pregrants agent access in ``etc/app-function-access-pregrants/*.xml``
(``<pregrants><agent package><target package/>``); the permission service sets
``ACCESS_FLAG_PREGRANTED`` on each pair with ``updateAccessFlags`` (AppFunctionAccessPregrant),
for system agents only, and the agent allowlist comes from DeviceConfig. Here the agents are
named at boot (``droidsim device start --pregrant-agent PKG``) and each is pregranted every
valid target, those installed later included: the targets on a development device are the
apps under test, which no system image can list in advance. Everything goes through the
services, as system_server, so the usual rules hold: PREGRANTED ranks below any USER or
OTHER flag, so a denial still stands, and an agent taken off the allowlist loses its flags.
"""

from __future__ import annotations

import logging
import threading

from droid.appfunctions.manager import ACCESS_FLAG_PREGRANTED
from droid.os.binder import SYSTEM, Binder
from droid.os.exceptions import IllegalArgumentException
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.appfunctions.agent_allowlist import DEVICE_CONFIG_AGENT_ALLOWLIST, parse_agent_list, serialize_agent_list
from sim.pm.signed_packages import SignedPackage, bound
from sim.data.settings import SettingsProvider
from sim.permissions.definitions import EXECUTE_APP_FUNCTIONS
from sim.pm.registry import InstalledPackage, PackageRegistry

log = logging.getLogger("droidsim.app_function")


class AgentPregrants:
    def __init__(
        self, registry: PackageRegistry, access: AppFunctionAccessService, settings: SettingsProvider
    ) -> None:
        self._registry = registry
        self._access = access
        self._settings = settings
        self._lock = threading.Lock()
        self._agents: set[str] = set()

    def agents(self) -> list[str]:
        with self._lock:
            return sorted(self._agents)

    def pregrant_agent(self, agent_name: str) -> list[str]:
        """Allowlist ``agent_name`` in DeviceConfig and pregrant it every valid target, now and
        on each later install; returns the targets pregranted now. Only an installed system
        app that requests EXECUTE_APP_FUNCTIONS qualifies, as only system apps are pregranted
        on Android."""
        agent = self._registry.get(agent_name)
        if agent is None:
            raise IllegalArgumentException(
                f"cannot pregrant {agent_name}: it is not installed (install it as a system app: --system-apps DIR)"
            )
        _require_pregrantable(agent)
        with self._lock:
            self._agents.add(agent_name)
        with Binder.calling_as(SYSTEM):
            self._allowlist_in_device_config(agent_name)
            targets = [t for t in self._access.get_valid_targets() if t != agent_name]
            for target in targets:
                self._pregrant(agent_name, target)
        log.info("pregranted agent %s: %s", agent_name, ", ".join(targets) or "no targets yet")
        return targets

    def package_added(self, package: InstalledPackage) -> None:
        """After an install: a new target is pregranted to every agent, and a reinstalled
        agent (which an uninstall stripped of its flags, and of its allowlist entry if it has no
        signer) is allowlisted again and gets every target back."""
        agents = self.agents()
        if not agents:
            return
        with Binder.calling_as(SYSTEM):
            if package.package_name in agents:
                try:
                    _require_pregrantable(package)
                except IllegalArgumentException as error:
                    log.warning("%s", error)
                else:
                    self._allowlist_in_device_config(package.package_name)
                    for target in self._access.get_valid_targets():
                        if target != package.package_name:
                            self._pregrant(package.package_name, target)
            if self._access.is_valid_target(package):
                for agent in agents:
                    if agent != package.package_name:
                        self._pregrant(agent, package.package_name)

    def _pregrant(self, agent_name: str, target_name: str) -> None:
        self._access.update_access_flags(agent_name, target_name, ACCESS_FLAG_PREGRANTED, ACCESS_FLAG_PREGRANTED)

    def _allowlist_in_device_config(self, agent_name: str) -> None:
        """Add to DeviceConfig's list, keeping what is there, as a preinstalled agent's
        server-pushed allowlist entry would be, bound to the agent installed (sim/pm/signed_packages.py)."""
        def added(value: str | None) -> str | None:
            current = parse_agent_list(value or "")
            if any(entry.package_name == agent_name for entry in current):
                return value
            return serialize_agent_list([*current, bound(SignedPackage(agent_name), self._registry.get)])

        self._settings.update(*DEVICE_CONFIG_AGENT_ALLOWLIST, added)


def _require_pregrantable(agent: InstalledPackage) -> None:
    if not agent.system:
        raise IllegalArgumentException(
            f"cannot pregrant {agent.package_name}: only system apps can be pregranted agent access "
            "(install it as a system app: --system-apps DIR)"
        )
    if not agent.requests_permission(EXECUTE_APP_FUNCTIONS):
        raise IllegalArgumentException(
            f"cannot pregrant {agent.package_name}: it does not request {EXECUTE_APP_FUNCTIONS}, so it cannot be an agent"
        )
