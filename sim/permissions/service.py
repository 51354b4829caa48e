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
from sim.pm.registry import InstalledPackage, ManifestFacts, PackageRegistry, require_package_names

log = logging.getLogger("droidsim.permissions")

PRIVILEGED_ALLOWLIST_KEY = "pm/privileged_allowlist"

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
        self._privileged = frozenset(json.loads(store.setting(PRIVILEGED_ALLOWLIST_KEY) or "[]"))

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
        return package.system or package.package_name in self._privileged

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
        return sorted(self._privileged)

    def set_privileged_allowlist(self, package_names: list[str]) -> None:
        """The device's privapp allowlist: listed packages count as privileged apps."""
        require_shell_or_root("change the privileged allowlist")
        names = require_package_names(package_names)
        before = {p.package_name: self.granted_permissions(p) for p in self._registry.all()}
        with self._store.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (PRIVILEGED_ALLOWLIST_KEY, json.dumps(names)))
            with self._lock:
                removed, self._privileged = sorted(self._privileged - set(names)), frozenset(names)
        log.info("privileged allowlist: %s", names)
        for name in removed:  # a replace that drops someone says so (docs/access-control.md)
            package = self._registry.get(name)
            lost = sorted(set(before.get(name, ())) - set(self.granted_permissions(package))) if package else []
            log.info("%s left the privileged allowlist%s", name,
                        f": it loses {', '.join(lost)}" if lost else " (it held no privileged permission)")

    # lifecycle
    def forget_package(self, package_name: str) -> None:
        """Uninstall: its runtime grants go with it (a reinstall starts from none)."""
        with self._store.transaction() as db:
            db.execute("DELETE FROM runtime_permissions WHERE package_name = ?", (package_name,))
            with self._lock:
                self._runtime.pop(package_name, None)


def _install_time_rule(level: ProtectionLevel) -> str:
    if level.is_privileged:
        return "granted at install to privileged packages only (system apps and the device's privileged allowlist)"
    if level.base == NORMAL:
        return "granted at install to every package that requests it"
    return "held only by the package that defines it"
