"""The agent allowlist: which packages may be agents at all.

As AppFunctionManagerServiceImpl (QPR2) builds it: the DeviceConfig list
``machine_learning/allowlisted_app_functions_agents``, plus the Secure setting
``app_function_additional_agent_allowlist`` that ``cmd app_function
set-additional-allowlisted-agents`` writes, plus the hard-coded ``com.android.shell``. The
resource default (``config_defaultAppFunctionAgentAllowlist``) is empty, as in AOSP.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from droid.os.binder import SHELL_PACKAGE
from droid.os.exceptions import IllegalArgumentException
from sim.data.settings import DEVICE_CONFIG, SECURE, SettingSpec, SettingsProvider
from sim.permissions.definitions import MANAGE_APP_FUNCTION_ACCESS
from sim.permissions.service import PermissionManagerService
from sim.pm.registry import require_package_names

log = logging.getLogger("droidsim.app_function")

DEVICE_CONFIG_AGENT_ALLOWLIST = (DEVICE_CONFIG, "machine_learning/allowlisted_app_functions_agents")
ADDITIONAL_AGENT_ALLOWLIST = (SECURE, "app_function_additional_agent_allowlist")
SYSTEM_AGENT_ALLOWLIST = frozenset({SHELL_PACKAGE})

SEPARATOR = ";"


def parse_agent_list(value: str) -> list[str]:
    """SignedPackageParser's format, ``pkg;pkg``; a ``pkg:certificate`` entry is refused, as
    packages on this device are not signed."""
    entries = value.split(SEPARATOR) if value else []
    for entry in entries:
        if ":" in entry:
            raise IllegalArgumentException(
                f"{entry!r}: certificate digests are not supported (packages on this device are not "
                "signed); list package names only"
            )
    return require_package_names(entries)


def serialize_agent_list(packages: list[str]) -> str:
    return SEPARATOR.join(packages)


class AgentAllowlist:
    def __init__(self, settings: SettingsProvider, permissions: PermissionManagerService) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._listeners: list[Callable[[frozenset[str]], None]] = []

        def check_read() -> None:  # as getAgentAllowlist: not for every app to read
            permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "read the agent allowlist setting")

        settings.register(
            DEVICE_CONFIG_AGENT_ALLOWLIST,
            SettingSpec("the AppFunctions agent allowlist: package;package", parse_agent_list, self._reload, check_read),
        )
        settings.register(
            ADDITIONAL_AGENT_ALLOWLIST,
            SettingSpec("agents allowlisted besides DeviceConfig's list: package;package", parse_agent_list,
                        self._reload, check_read),
        )
        self._packages = self._read()

    def packages(self) -> frozenset[str]:
        return self._packages

    def add_listener(self, listener: Callable[[frozenset[str]], None]) -> None:
        """Told the new allowlist after every change."""
        self._listeners.append(listener)

    def _read(self) -> frozenset[str]:
        agents = set(SYSTEM_AGENT_ALLOWLIST)
        for key in (DEVICE_CONFIG_AGENT_ALLOWLIST, ADDITIONAL_AGENT_ALLOWLIST):
            agents.update(parse_agent_list(self._settings.value(*key) or ""))
        return frozenset(agents)

    def _reload(self) -> None:
        with self._lock:
            packages, before = self._read(), self._packages
            self._packages = packages
            if packages != before:
                removed = sorted(before - packages)
                log.info("agent allowlist: %s%s", sorted(packages), f" (removed: {', '.join(removed)})" if removed else "")
                for listener in self._listeners:
                    listener(packages)
