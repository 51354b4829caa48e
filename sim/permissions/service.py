"""PermissionManagerService: which uid holds which permission, and the grants that change it.

Install-time grants follow from the manifest and the package's status, as Android recomputes
them at boot: normal permissions for whoever requests them, signature ones for the defining
package, privileged ones for privileged packages (system apps and the privileged allowlist).
Dangerous permissions are runtime grants, made with ``pm grant`` and kept in SQLite.
"""

from __future__ import annotations

import json
import logging
import threading

from droid.os.binder import ROOT_UID, SHELL_UID, SYSTEM_UID, Binder
from droid.os.exceptions import IllegalArgumentException, SecurityException
from droidsim.v1.allowlist_pb2 import AllowlistChange, PackageLoss
from sim.data.store import DeviceStore
from sim.permissions.definitions import (
    DANGEROUS,
    NORMAL,
    SHELL_PERMISSIONS,
    SIGNATURE,
    PermissionInfo,
    ProtectionLevel,
    platform_permissions,
)
from sim.permissions.enforcement import require_shell_or_root
from sim.platform_version import NEWEST, PlatformVersion
from sim.pm.install_error import InstallError
from sim.pm.registry import InstalledPackage, ManifestFacts, PackageRegistry
from sim.pm.signed_packages import SignedPackage, bound_to, edited, install_notes, parse_entry, without_install_of

log = logging.getLogger("droidsim.permissions")

PRIVILEGED_ALLOWLIST_KEY = "pm/privileged_allowlist"
PRIVILEGED_ALLOWLIST = "privileged allowlist"

PERMISSION_GRANTED = 0
PERMISSION_DENIED = -1


# Permission names only the platform may define (Android's lint: ReservedSystemPermission).
RESERVED_PREFIX = "android."

class PermissionManagerService:
    def __init__(self, store: DeviceStore, registry: PackageRegistry, version: PlatformVersion = NEWEST) -> None:
        self._store = store
        self._registry = registry
        self._platform = platform_permissions(version)
        self._lock = threading.RLock()
        self._runtime: dict[str, set[str]] = {}
        for package_name, permission in store.query("SELECT package_name, permission FROM runtime_permissions"):
            self._runtime.setdefault(package_name, set()).add(permission)
        # Entries as "pkg" or "pkg:SHA256" (sim/pm/signed_packages.py); the rows of data
        # directories from before the binding are plain names, which parse the same way.
        self._privileged = tuple(map(parse_entry, json.loads(store.setting(PRIVILEGED_ALLOWLIST_KEY) or "[]")))

    # definitions
    def definition(self, name: str) -> PermissionInfo | None:
        if name in self._platform:
            return self._platform[name]
        for package in self._registry.all():
            for declared in package.manifest.permissions:
                if declared.name == name:
                    return PermissionInfo(name, ProtectionLevel.parse(declared.protection_level), package.package_name)
        return None

    def definitions(self) -> list[PermissionInfo]:
        apps = [
            PermissionInfo(p.name, ProtectionLevel.parse(p.protection_level), package.package_name)
            for package in self._registry.all()
            for p in package.manifest.permissions
        ]
        return sorted([*self._platform.values(), *apps], key=lambda p: p.name)

    def check_new_definitions(self, manifest: ManifestFacts) -> None:
        """Refuse an install whose ``<permission>`` entries are malformed or taken, as Android
        refuses INSTALL_FAILED_DUPLICATE_PERMISSION: nobody may redefine what another owns. The
        whole ``android.`` namespace is the platform's, defined or not yet: an app that took a
        name there could own a permission the platform adds later, or pass for the platform's."""
        for declared in manifest.permissions:
            try:
                ProtectionLevel.parse(declared.protection_level)
            except ValueError as error:
                raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"<permission {declared.name}>: {error}") from None
            owner = self.definition(declared.name)
            if owner is not None and owner.package_name != manifest.package:
                raise InstallError(
                    "INSTALL_FAILED_DUPLICATE_PERMISSION",
                    f"Package {manifest.package} attempting to redeclare permission {declared.name} "
                    f"already owned by {owner.package_name}",
                )
            if declared.name.startswith(RESERVED_PREFIX):
                raise InstallError(
                    "INSTALL_FAILED_DUPLICATE_PERMISSION",
                    f"Package {manifest.package} attempting to declare permission {declared.name} in the "
                    f"{RESERVED_PREFIX}* namespace, which is reserved to the platform (android)",
                )

    # who holds what
    def is_privileged(self, package: InstalledPackage) -> bool:
        return package.system or any(entry.matches(package) for entry in self._privileged)

    def holds(self, package: InstalledPackage, permission: str) -> bool:
        if permission not in package.manifest.uses_permissions:
            return False
        info = self.definition(permission)
        if info is None:
            return False
        level = info.protection_level
        if level.base == NORMAL:
            return True
        if level.base == DANGEROUS:
            return permission in self._runtime.get(package.package_name, ())
        if level.base == SIGNATURE and info.package_name == package.package_name:
            return True
        return level.is_privileged and self.is_privileged(package)

    def granted_permissions(self, package: InstalledPackage) -> list[str]:
        return sorted(p for p in set(package.manifest.uses_permissions) if self.holds(package, p))

    def check_permission(self, permission: str, uid: int) -> bool:
        """``Context.checkPermission`` for a uid: root and system hold everything."""
        if uid in (ROOT_UID, SYSTEM_UID):
            return True
        if uid == SHELL_UID:
            return permission in SHELL_PERMISSIONS
        package = self._registry.by_uid(uid)
        return package is not None and self.holds(package, permission)

    def enforce_calling_permission(self, permission: str, method: str) -> None:
        caller = Binder.get_calling_identity()
        if not self.check_permission(permission, caller.uid):
            raise SecurityException(
                f"Permission Denial: {method} from uid {caller.uid} ({caller.package_name}) requires {permission}"
            )

    # binder methods (package service)
    def check_package_permission(self, permission: str, package_name: str) -> int:
        """``PackageManager.checkPermission(permName, pkgName)``."""
        package = self._registry.get(package_name)
        return PERMISSION_GRANTED if package is not None and self.holds(package, permission) else PERMISSION_DENIED

    def grant_runtime_permission(self, package_name: str, permission: str) -> None:
        require_shell_or_root("grant permissions")
        package = self._changeable(package_name, permission)
        with self._store.transaction() as db:
            db.execute("INSERT OR IGNORE INTO runtime_permissions VALUES (?, ?)", (package.package_name, permission))
            with self._lock:
                self._runtime.setdefault(package.package_name, set()).add(permission)
        log.info("granted %s to %s", permission, package_name)

    def revoke_runtime_permission(self, package_name: str, permission: str) -> None:
        require_shell_or_root("revoke permissions")
        package = self._changeable(package_name, permission)
        with self._store.transaction() as db:
            db.execute(
                "DELETE FROM runtime_permissions WHERE package_name = ? AND permission = ?",
                (package.package_name, permission),
            )
            with self._lock:
                self._runtime.get(package.package_name, set()).discard(permission)
        log.info("revoked %s from %s", permission, package_name)

    def _changeable(self, package_name: str, permission: str) -> InstalledPackage:
        """The checks of Android's grantRuntimePermission, in its order, with its messages."""
        package = self._registry.get(package_name)
        if package is None:
            raise IllegalArgumentException(f"Unknown package: {package_name}")
        info = self.definition(permission)
        if info is None:
            raise IllegalArgumentException(f"Unknown permission: {permission}")
        if permission not in package.manifest.uses_permissions:
            raise SecurityException(f"Package {package_name} has not requested permission {permission}")
        level = info.protection_level
        if not level.is_runtime:
            raise SecurityException(
                f"Permission {permission} requested by {package_name} is not a changeable permission type: "
                f"it is {level}, {_install_time_rule(level)}"
            )
        return package

    def privileged_allowlist(self) -> list[str]:
        return sorted(entry.package_name for entry in self._privileged)

    def privileged_entries(self) -> tuple[SignedPackage, ...]:
        return self._privileged

    def edit_privileged_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange:
        """The device's privapp allowlist, changed in one step (concurrent edits never undo each
        other): listed packages count as privileged apps, each bound to the package named
        (sim/pm/signed_packages.py). Says what each package taken off loses, in the log too."""
        require_shell_or_root("change the privileged allowlist")
        with self._store.transaction() as db, self._lock:  # the order every writer takes them in
            edit = edited(self._privileged, operation, packages, self._registry.get, PRIVILEGED_ALLOWLIST, "privileged")
            held = {name: self._granted_if_installed(name) for name in edit.removed}
            self._store_privileged(db, edit.entries)
            losses = [PackageLoss(package_name=name, lost=sorted(set(held[name]) - set(self._granted_if_installed(name))))
                      for name in edit.removed]
        log.info("privileged allowlist: %s", [str(entry) for entry in edit.entries])
        for loss in losses:  # a replace that drops someone says so (docs/access-control.md)
            log.info("%s left the privileged allowlist%s", loss.package_name,
                     f": it loses {', '.join(loss.lost)}" if loss.lost else " (it held no privileged permission)")
        return AllowlistChange(entries=[e.to_proto() for e in edit.entries], removed=edit.removed,
                               not_listed=edit.not_listed, losses=losses,
                               allowlist=sorted(e.package_name for e in edit.entries))

    def _granted_if_installed(self, package_name: str) -> list[str]:
        package = self._registry.get(package_name)
        return self.granted_permissions(package) if package is not None else []

    def _store_privileged(self, db, entries: tuple[SignedPackage, ...]) -> None:
        """Within the caller's transaction, holding the lock."""
        if entries != self._privileged:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)",
                       (PRIVILEGED_ALLOWLIST_KEY, json.dumps([str(entry) for entry in entries])))
            self._privileged = entries

    # lifecycle
    def package_added(self, package: InstalledPackage) -> list[str]:
        """After an install (and at boot): an entry awaiting its first install is bound to it; what
        its developer should hear when the entry of its name is another signer's."""
        if bound_to(self._privileged, package) != self._privileged:  # else no write at all
            with self._store.transaction() as db, self._lock:
                self._store_privileged(db, bound_to(self._privileged, package))
        return install_notes(self._privileged, package, PRIVILEGED_ALLOWLIST, "privileged")

    def forget_package(self, package_name: str) -> None:
        """Uninstall: its runtime grants go with it (a reinstall starts from none), and so does a
        privileged allowlist entry bound to this install (it had no signer to outlive it)."""
        with self._store.transaction() as db:
            db.execute("DELETE FROM runtime_permissions WHERE package_name = ?", (package_name,))
            with self._lock:
                self._runtime.pop(package_name, None)
                self._store_privileged(db, without_install_of(self._privileged, package_name))


def _install_time_rule(level: ProtectionLevel) -> str:
    if level.is_privileged:
        return "granted at install to privileged packages only (system apps and the device's privileged allowlist)"
    if level.base == NORMAL:
        return "granted at install to every package that requests it"
    return "held only by the package that defines it"
