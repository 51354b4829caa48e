"""AppFunctionAccessService: agent access grants, per (agent, target) pair.

Modelled on QPR2's AppFunctionAccessService and AppIdAppFunctionAccessPolicy. A pair is valid
when the agent is installed, requests EXECUTE_APP_FUNCTIONS and is on the agent allowlist, and
the target is installed with an AppFunctionService; an invalid pair is UNREQUESTABLE, reads as
flags 0 and ignores updates. Flags live in SQLite; each update is one read-modify-write
transaction, so concurrent updates never lose each other.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Iterable

from droid.appfunctions import access_fixes
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_ALL,
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_REQUEST_STATE_DENIED,
    ACCESS_REQUEST_STATE_GRANTED,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
    access_flag_names,
)
from droid.appfunctions.service import SERVICE_INTERFACE
from droid.os.binder import Binder
from droidsim.v1.allowlist_pb2 import AllowlistChange
from sim.appfunctions.access_flags import apply_update, is_access_granted, validate_update
from sim.appfunctions.agent_allowlist import AgentAllowlist
from sim.data.store import DeviceStore
from sim.permissions.definitions import EXECUTE_APP_FUNCTIONS, MANAGE_APP_FUNCTION_ACCESS
from sim.permissions.service import PermissionManagerService
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.pm.signed_packages import SignedPackage

Pair = tuple[str, str]
# OnAppFunctionAccessChangedListener.onAppFunctionAccessChanged(agentUid)
AccessChangedListener = Callable[[int], None]

log = logging.getLogger("droidsim.app_function")


class AppFunctionAccessService:
    def __init__(
        self,
        store: DeviceStore,
        registry: PackageRegistry,
        permissions: PermissionManagerService,
        allowlist: AgentAllowlist,
        valid_flags: int = ACCESS_FLAG_MASK_ALL,
    ) -> None:
        self._store = store
        self._valid_flags = valid_flags  # the ACCESS_FLAG_* bits of the device's version
        self._registry = registry
        self._permissions = permissions
        self._allowlist = allowlist
        self._lock = threading.Lock()
        self._listeners: list[AccessChangedListener] = []
        self._flags: dict[Pair, int] = {
            (agent, target): flags
            for agent, target, flags in store.query("SELECT agent_package, target_package, flags FROM access_flags")
        }
        allowlist.add_listener(self._on_allowlist_changed)

    # validity
    def is_valid_agent(self, package: InstalledPackage) -> bool:
        return package.requests_permission(EXECUTE_APP_FUNCTIONS) and self._allowlist.allows(package)

    def allowlist_entries(self) -> tuple[SignedPackage, ...]:
        return self._allowlist.entries()

    @staticmethod
    def is_valid_target(package: InstalledPackage) -> bool:
        return any(SERVICE_INTERFACE in service.actions for service in package.manifest.services)

    def invalid_pair_reason(self, agent_name: str, target_name: str) -> str | None:
        """The rule of a valid pair that fails first, with its fix; None for a valid pair."""
        agent, target = self._registry.get(agent_name), self._registry.get(target_name)
        return access_fixes.invalid_pair(
            agent_name, target_name, agent_installed=agent is not None,
            agent_requests=agent is not None and agent.requests_permission(EXECUTE_APP_FUNCTIONS),
            agent_allowlisted=agent is not None and self._allowlist.allows(agent), target_installed=target is not None,
            target_has_service=target is not None and self.is_valid_target(target))

    def _valid_pair(self, agent_name: str, target_name: str) -> bool:
        agent, target = self._registry.get(agent_name), self._registry.get(target_name)
        return agent is not None and target is not None and self.is_valid_agent(agent) and self.is_valid_target(target)

    # state, unchecked: what the execution pipeline asks
    def access_request_state(self, agent_name: str, target_name: str) -> int:
        if not self._valid_pair(agent_name, target_name):
            return ACCESS_REQUEST_STATE_UNREQUESTABLE
        granted = is_access_granted(self._flags.get((agent_name, target_name), 0))
        return ACCESS_REQUEST_STATE_GRANTED if granted else ACCESS_REQUEST_STATE_DENIED

    def access_flags(self, agent_name: str, target_name: str) -> int:
        if self._registry.get(agent_name) is None or self._registry.get(target_name) is None:
            return 0
        return self._flags.get((agent_name, target_name), 0)

    def pairs(self) -> dict[Pair, int]:
        with self._lock:
            return dict(sorted(self._flags.items()))

    def _update(self, agent_name: str, target_name: str, flag_mask: int, flags: int) -> bool:
        validate_update(flag_mask, flags, self._valid_flags)
        why = self.invalid_pair_reason(agent_name, target_name)
        if why is not None:
            # updateAccessFlags returns false and the shell says only "Failed to ..."; say why.
            log.info("%s -> %s is not a valid pair, so its access flags stay as they are: %s", agent_name,
                     target_name, why)
            return False
        key = (agent_name, target_name)
        with self._store.transaction() as db:
            row = db.execute(
                "SELECT flags FROM access_flags WHERE agent_package = ? AND target_package = ?", key
            ).fetchone()
            old = row[0] if row else 0
            new = apply_update(old, flag_mask, flags)
            if new == old:
                log.info("%s -> %s already has the access flags asked for (%s): nothing changed", agent_name,
                         target_name, "|".join(access_flag_names(old)) or "none")
                return False
            if new:
                db.execute("INSERT OR REPLACE INTO access_flags VALUES (?, ?, ?)", (*key, new))
            else:
                db.execute("DELETE FROM access_flags WHERE agent_package = ? AND target_package = ?", key)
            with self._lock:
                if new:
                    self._flags[key] = new
                else:
                    self._flags.pop(key, None)
        self._changed([agent_name])
        return True

    # listeners
    def add_on_access_changed_listener(self, listener: AccessChangedListener) -> None:
        """addAccessChangedListener (@SystemApi, MANAGE_APP_FUNCTION_ACCESS); adding one twice
        does nothing."""
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "addAccessChangedListener")
        with self._lock:
            if listener not in self._listeners:
                self._listeners.append(listener)

    def remove_on_access_changed_listener(self, listener: AccessChangedListener) -> None:
        """Only the holder of a listener can name it, so removing needs no permission."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _changed(self, agent_names: Iterable[str]) -> None:
        """Tell every listener the uid of each agent whose access changed; called outside the
        lock and the transaction, so a listener may call back into the service."""
        uids = sorted({p.uid for name in set(agent_names) if (p := self._registry.get(name)) is not None})
        with self._lock:
            listeners = list(self._listeners)
        for uid in uids:
            for listener in listeners:
                try:
                    listener(uid)
                except Exception:  # one broken listener must not stop the others or the change
                    log.exception("an access-changed listener failed for agent uid %d", uid)

    # binder methods
    def get_access_request_state(self, agent_package_name: str, target_package_name: str) -> int:
        """An empty agent is the caller; naming another agent needs MANAGE_APP_FUNCTION_ACCESS,
        checked before anything is looked up, so the answer reveals nothing to others."""
        caller = Binder.get_calling_identity()
        agent = agent_package_name or caller.package_name
        if agent != caller.package_name:
            self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "getAccessRequestState")
        return self.access_request_state(agent, target_package_name)

    def get_access_flags(self, agent_package_name: str, target_package_name: str) -> int:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "getAccessFlags")
        return self.access_flags(agent_package_name, target_package_name)

    def update_access_flags(self, agent_package_name: str, target_package_name: str, flag_mask: int, flags: int) -> bool:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "updateAccessFlags")
        return self._update(agent_package_name, target_package_name, flag_mask, flags)

    def revoke_self_access(self, target_package_name: str) -> None:
        """OTHER_DENIED replaces every USER and OTHER flag, so a PREGRANTED one no longer
        counts; nothing happens for a pair without flags."""
        agent = Binder.get_calling_identity().package_name
        if self.access_flags(agent, target_package_name) == 0:
            return
        self._update(agent, target_package_name, ACCESS_FLAG_MASK_USER | ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_DENIED)

    def get_valid_agents(self) -> list[str]:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "getValidAgents")
        return [p.package_name for p in self._registry.all() if self.is_valid_agent(p)]

    def get_valid_targets(self) -> list[str]:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "getValidTargets")
        return [p.package_name for p in self._registry.all() if self.is_valid_target(p)]

    def get_agent_allowlist(self) -> list[str]:
        self._permissions.enforce_calling_permission(MANAGE_APP_FUNCTION_ACCESS, "getAgentAllowlist")
        return sorted(self._allowlist.packages())

    def edit_additional_agent_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange:
        return self._allowlist.edit_additional(operation, packages)

    # lifecycle
    def forget_package(self, package_name: str) -> None:
        """Uninstall: every pair it is part of goes, so a reinstall starts ungranted."""
        with self._store.transaction() as db:
            db.execute(
                "DELETE FROM access_flags WHERE agent_package = ? OR target_package = ?", (package_name, package_name)
            )
            with self._lock:
                dropped = [k for k in self._flags if package_name in k]
                for key in dropped:
                    del self._flags[key]
        self._changed(agent for agent, _ in dropped)

    def _on_allowlist_changed(self, allowlist: frozenset[str]) -> dict[str, list[str]]:
        """An agent taken off the allowlist loses its flags, as onAgentAllowlistChanged does;
        the log names each pair and the flags it had, and so does the answer, by agent."""
        with self._store.transaction() as db:
            with self._lock:
                dropped = {k: flags for k, flags in self._flags.items() if k[0] not in allowlist}
                for key in dropped:
                    db.execute("DELETE FROM access_flags WHERE agent_package = ? AND target_package = ?", key)
                    del self._flags[key]
        lost: dict[str, list[str]] = {}
        for (agent, target), flags in sorted(dropped.items()):
            lost.setdefault(agent, []).append(f"{target} ({'|'.join(access_flag_names(flags))})")
        for agent, pairs in lost.items():
            log.info("%s left the agent allowlist: its access to %s is dropped", agent, ", ".join(pairs))
        self._changed(lost)
        return lost
