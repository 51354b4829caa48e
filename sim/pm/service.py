"""PackageManagerService: install, uninstall, list and clear packages, and their permissions.

Only the shell and root may change what is installed or granted, as on Android where apps
cannot install each other silently.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from pathlib import Path
from typing import Callable

from droid.os.binder import FIRST_APPLICATION_UID, Binder, CallingIdentity
from droid.os.exceptions import IllegalArgumentException
from droidsim.v1 import package_manager_pb2 as pm_pb2
from droidsim.v1.allowlist_pb2 import AllowlistChange
from sim.appfunctions.index import FunctionIndex
from sim.identity import Authenticator, hash_secret
from sim.permissions.definitions import QUERY_ALL_PACKAGES
from sim.permissions.enforcement import require_shell_or_root
from sim.permissions.service import PermissionManagerService
from sim.pm.installed_from import public
from sim.pm.installer import PackageInstaller, identity_of
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.responses.staging import ResponseOptions, response_options

log = logging.getLogger("droidsim.pm")


class PackageManagerService:
    def __init__(
        self,
        registry: PackageRegistry,
        index: FunctionIndex,
        installer: PackageInstaller,
        authenticator: Authenticator,
        permissions: PermissionManagerService,
        stop_app: Callable[[str], None],
        package_added: Callable[[InstalledPackage], list[str]],
        package_removed: Callable[[str], None],
        visible_function_ids: Callable[[CallingIdentity, InstalledPackage], list[str]],
    ) -> None:
        self._registry = registry
        self._index = index
        self._installer = installer
        self._authenticator = authenticator
        self._permissions = permissions
        self._stop_app = stop_app
        # Told after an install, so allowlist entries bind to it and pregranted agents reach a new
        # target; answers what the install's output should say of it besides.
        self._package_added = package_added
        # Told after an uninstall, so grants, flags and history of the package go too.
        self._package_removed = package_removed
        # A listing shows the caller only the function ids search would (the caller's reach).
        self._visible_function_ids = visible_function_ids
        # Installs of one package never interleave; different packages may.
        self._install_lock = threading.Lock()

    # binder methods
    def install_package(
        self, app_dir: str, system: bool = False, responses: pm_pb2.ResponseOptions | None = None,
    ) -> pm_pb2.PackageInfo:
        require_shell_or_root("manage packages")
        return self.package_info(self.install(Path(app_dir), system, response_options(responses)))

    def uninstall_package(self, package_name: str) -> None:
        require_shell_or_root("manage packages")
        self.uninstall(package_name)

    def list_packages(self) -> list[pm_pb2.PackageInfo]:
        """Package visibility, as on Android 11+: an app without QUERY_ALL_PACKAGES sees itself
        and the packages whose functions it may discover; the shell, root and system see all."""
        caller = Binder.get_calling_identity()
        sees_all = caller.uid < FIRST_APPLICATION_UID or self._permissions.check_permission(QUERY_ALL_PACKAGES, caller.uid)
        infos = [(p, self.package_info(p)) for p in self._registry.all()]
        return [info for p, info in infos if sees_all or p.uid == caller.uid or info.function_ids]

    def clear_package_data(self, package_name: str) -> None:
        """``pm clear``: the app stops, its files and its functions' enabled overrides go."""
        require_shell_or_root("manage packages")
        package = self._require_installed(package_name)
        self._stop_app(package_name)
        self._installer.clear_data(package)
        self._index.clear_overrides(package_name)

    def list_permissions(self) -> list[pm_pb2.PermissionInfo]:
        return [
            pm_pb2.PermissionInfo(name=p.name, protection_level=str(p.protection_level), package_name=p.package_name)
            for p in self._permissions.definitions()
        ]

    def check_permission(self, permission: str, package_name: str) -> int:
        return self._permissions.check_package_permission(permission, package_name)

    def grant_permission(self, package_name: str, permission: str) -> None:
        self._permissions.grant_runtime_permission(package_name, permission)

    def revoke_permission(self, package_name: str, permission: str) -> None:
        self._permissions.revoke_runtime_permission(package_name, permission)

    def get_privileged_allowlist(self) -> list[str]:
        return self._permissions.privileged_allowlist()

    def edit_privileged_allowlist(self, operation: int, packages: list[str]) -> AllowlistChange:
        return self._permissions.edit_privileged_allowlist(operation, packages)

    # device-side API
    def install(self, app_dir: Path, system: bool = False, responses: ResponseOptions = ResponseOptions()) -> InstalledPackage:
        """The package installed; what its developer should hear of it is ``install_notes``
        (also in logcat)."""
        with self._install_lock:
            package, secret = self._installer.install(
                app_dir, system, self._registry.get, self._permissions.check_new_definitions, responses
            )
            self._stop_app(package.package_name)
            self.adopt(package, hash_secret(secret))
            package = replace(package, install_notes=(*package.install_notes, *self._package_added(package)))
            log.info("installed %s (uid %d, %d functions)", package.package_name, package.uid,
                     len(package.metadata.app_functions))
            for warning in package.install_notes:
                log.warning("%s: %s", package.package_name, warning)
            return package

    def adopt(self, package: InstalledPackage, credential_hash: str) -> None:
        """Make an installed package live: registry, index, identity."""
        self._registry.put(package)
        self._index.add_package(package.metadata)
        self._authenticator.register(credential_hash, identity_of(package))

    def uninstall(self, package_name: str) -> None:
        with self._install_lock:
            package = self._require_installed(package_name)
            self._stop_app(package_name)
            self._installer.uninstall(package)
            self._registry.remove(package_name)
            self._index.remove_package(package_name)
            self._authenticator.forget(identity_of(package))
            self._package_removed(package_name)
            log.info("uninstalled %s", package_name)

    def _require_installed(self, package_name: str) -> InstalledPackage:
        package = self._registry.get(package_name)
        if package is None:
            raise IllegalArgumentException(f"Unknown package: {package_name}")
        return package

    def package_info(self, package: InstalledPackage) -> pm_pb2.PackageInfo:
        caller = Binder.get_calling_identity()
        own = caller.uid < FIRST_APPLICATION_UID or caller.uid == package.uid  # the shell, root, system, itself
        return pm_pb2.PackageInfo(
            package_name=package.package_name,
            uid=package.uid,
            system=package.system,
            requested_permissions=package.manifest.uses_permissions,
            function_ids=self._visible_function_ids(Binder.get_calling_identity(), package),
            privileged=self._permissions.is_privileged(package),
            granted_permissions=self._permissions.granted_permissions(package),
            installed_from=package.metadata.installed_from if own else public(package.metadata.installed_from),
            warnings=package.install_notes,
            code_path=str(package.app_dir),
            declared_function_count=len(package.metadata.app_functions),
            unindexed_functions=package.metadata.unindexed,
        )
