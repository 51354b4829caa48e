"""The agent allowlist: which packages may be agents at all.

As AppFunctionManagerServiceImpl (QPR2) builds it: the DeviceConfig list
``machine_learning/allowlisted_app_functions_agents``, plus the Secure setting
``app_function_additional_agent_allowlist`` that ``cmd app_function
set-additional-allowlisted-agents`` writes, plus the hard-coded ``com.android.shell``. The
resource default (``config_defaultAppFunctionAgentAllowlist``) is empty, as in AOSP.

Each list is SignedPackageParser's format, ``pkg;pkg:SHA256``, and every entry is bound to the
package it was given for, whoever wrote it (sim/pm/signed_packages.py): a name written for a
signed package installed now is stored with its signer's digest, a name waiting for its
first install is bound by it, and the entry of an unsigned package goes at its uninstall. The
droidsim verbs that add or remove agents edit the Secure list in one step here
(``edit_additional``), so two editors at once never undo each other.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Callable

from droid.os.binder import SHELL_PACKAGE
from droidsim.v1.allowlist_pb2 import AllowlistChange, AllowlistEdit, PackageLoss
from sim.data.settings import DEVICE_CONFIG, SECURE, SettingKey, SettingSpec, SettingsProvider
from sim.permissions.definitions import MANAGE_APP_FUNCTION_ACCESS
from sim.permissions.enforcement import require_shell_or_root
from sim.permissions.service import PermissionManagerService
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.pm.signed_packages import SignedPackage, bound, bound_to, edited, install_notes, parse_entry, without_install_of

log = logging.getLogger("droidsim.app_function")

DEVICE_CONFIG_AGENT_ALLOWLIST = (DEVICE_CONFIG, "machine_learning/allowlisted_app_functions_agents")
ADDITIONAL_AGENT_ALLOWLIST = (SECURE, "app_function_additional_agent_allowlist")
SYSTEM_AGENT_ALLOWLIST = (SignedPackage(SHELL_PACKAGE),)
LISTS = {DEVICE_CONFIG_AGENT_ALLOWLIST: "agent allowlist (DeviceConfig's list)",
         ADDITIONAL_AGENT_ALLOWLIST: "agent allowlist (the Secure additional list)"}

SEPARATOR = ";"

# Told the names on the allowlist after a change; answers what each agent it dropped lost.
AllowlistListener = Callable[[frozenset[str]], dict[str, list[str]]]


def parse_agent_list(value: str) -> list[SignedPackage]:
    """``pkg;pkg:SHA256``, as SignedPackageParser reads it, each entry checked."""
    return [parse_entry(entry) for entry in value.split(SEPARATOR)] if value else []


def serialize_agent_list(entries: list[SignedPackage] | tuple[SignedPackage, ...]) -> str | None:
    """The setting's value; None (no setting) for no entries."""
    return SEPARATOR.join(map(str, entries)) or None


@dataclass(frozen=True)
class _Reloaded:
    packages: frozenset[str]
    losses: dict[str, list[str]]  # each agent that left the allowlist, with the access it lost


class AgentAllowlist:
    def __init__(self, settings: SettingsProvider, permissions: PermissionManagerService,
                 registry: PackageRegistry) -> None:
        self._settings = settings
        self._registry = registry
        self._lock = threading.Lock()
        self._listeners: list[AllowlistListener] = []

        def check_read() -> None:  # as getAgentAllowlist: not for every app to read
            permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "read the agent allowlist setting")

        for key, description in ((DEVICE_CONFIG_AGENT_ALLOWLIST, "the AppFunctions agent allowlist"),
                                 (ADDITIONAL_AGENT_ALLOWLIST, "agents allowlisted besides DeviceConfig's list")):
            settings.register(key, SettingSpec(f"{description}: package;package:SHA256", parse_agent_list,
                                               self._reload, check_read, canonical=self._written_whole(key)))
        self._entries = self._read()

    def packages(self) -> frozenset[str]:
        return frozenset(entry.package_name for entry in self._entries)

    def entries(self) -> tuple[SignedPackage, ...]:
        return self._entries

    def allows(self, package: InstalledPackage) -> bool:
        """On the allowlist, and by an entry its signer matches."""
        return any(entry.matches(package) for entry in self._entries)

    def add_listener(self, listener: AllowlistListener) -> None:
        self._listeners.append(listener)

    # edits
    def edit_additional(self, operation: int, packages: list[str]) -> AllowlistChange:
        """``cmd app_function``'s add-, remove-, set- and clear-additional-allowlisted-agents as
        one step: the Secure list is read, changed and written under the settings' write lock,
        with the access each agent leaving the allowlist loses."""
        require_shell_or_root("change the agent allowlist")
        result = {}

        def change(value: str | None) -> str | None:
            result["edit"] = edited(parse_agent_list(value or ""), operation, packages, self._registry.get,
                                    LISTS[ADDITIONAL_AGENT_ALLOWLIST], "an allowlisted agent")
            return serialize_agent_list(result["edit"].entries)

        reloaded = self._settings.update(*ADDITIONAL_AGENT_ALLOWLIST, change)
        edit = result["edit"]
        return AllowlistChange(
            entries=[e.to_proto() for e in edit.entries], removed=edit.removed, not_listed=edit.not_listed,
            losses=[PackageLoss(package_name=agent, lost=lost) for agent, lost in sorted(reloaded.losses.items())],
            allowlist=sorted(reloaded.packages))

    # lifecycle
    def package_added(self, package: InstalledPackage) -> list[str]:
        """After an install (and at boot): an entry awaiting its first install is bound to it; what
        its developer should hear when the entry of its name is another signer's."""
        notes = []
        for key, listed in LISTS.items():
            self._rewrite(key, lambda entries: bound_to(entries, package))
            notes += install_notes(parse_agent_list(self._settings.value(*key) or ""), package, listed,
                                   "an allowlisted agent")
        return notes

    def package_removed(self, package_name: str) -> None:
        """After an uninstall: an entry bound to that install (it had no signer to outlive it) goes."""
        for key in LISTS:
            self._rewrite(key, lambda entries: without_install_of(entries, package_name))

    def _rewrite(self, key: SettingKey, change: Callable[[list[SignedPackage]], tuple[SignedPackage, ...]]) -> None:
        def rewritten(value: str | None) -> str | None:
            return serialize_agent_list(change(parse_agent_list(value or "")))

        self._settings.update(*key, rewritten)

    def _written_whole(self, key: SettingKey) -> Callable[[str, str | None], str]:
        """A list written whole (``settings put``, ``device_config put``, a phone's
        set-additional-allowlisted-agents) as the edits write it: a name already on the list keeps
        its binding, and naming it while another signer's package of that name is installed is
        refused; a new name is bound to the package installed under it."""
        def canonical(value: str, old: str | None) -> str:
            edit = edited(parse_agent_list(old or ""), AllowlistEdit.SET, value.split(SEPARATOR) if value else [],
                          self._registry.get, LISTS[key], "an allowlisted agent")
            return serialize_agent_list(edit.entries) or ""

        return canonical

    def _read(self) -> tuple[SignedPackage, ...]:
        entries = set(SYSTEM_AGENT_ALLOWLIST)
        for key in LISTS:
            entries.update(parse_agent_list(self._settings.value(*key) or ""))
        return tuple(sorted(entries))

    def _reload(self) -> _Reloaded:
        with self._lock:
            entries, before = self._read(), self.packages()
            self._entries = entries
            packages = self.packages()
            losses: dict[str, list[str]] = {agent: [] for agent in before - packages}
            if packages != before:
                log.info("agent allowlist: %s%s", sorted(packages),
                         f" (removed: {', '.join(sorted(losses))})" if losses else "")
                for listener in self._listeners:
                    for agent, lost in listener(packages).items():
                        losses.setdefault(agent, []).extend(lost)
            return _Reloaded(packages, losses)
