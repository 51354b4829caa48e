"""PackageManagerService: install, uninstall, list and clear packages.

Only the shell and root may change what is installed, as on Android where apps
cannot install each other silently.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from droid.os.binder import Binder
from droid.os.exceptions import IllegalArgumentException, SecurityException
from droidsim.v1 import package_manager_pb2 as pm_pb2
from sim.appfunctions.index import FunctionIndex
from sim.identity import Authenticator, hash_secret
from sim.pm.installer import PackageInstaller, identity_of
from sim.pm.registry import InstalledPackage, PackageRegistry

log = logging.getLogger("droidsim.pm")


class PackageManagerService:
    def __init__(
        self,
        registry: PackageRegistry,
        index: FunctionIndex,
        installer: PackageInstaller,
        authenticator: Authenticator,
        stop_app: Callable[[str], None],
    ) -> None:
        self._registry = registry
        self._index = index
        self._installer = installer
        self._authenticator = authenticator
        self._stop_app = stop_app
        # Installs of one package never interleave; different packages may.
        self._install_lock = threading.Lock()

    # binder methods
    def install_package(self, app_dir: str, system: bool = False) -> pm_pb2.PackageInfo:
        self._require_shell()
        return package_info(self.install(Path(app_dir), system))

    def uninstall_package(self, package_name: str) -> None:
        self._require_shell()
        self.uninstall(package_name)

    def list_packages(self) -> list[pm_pb2.PackageInfo]:
        return [package_info(p) for p in self._registry.all()]

    def clear_package_data(self, package_name: str) -> None:
        self._require_shell()
        package = self._require_installed(package_name)
        self._stop_app(package_name)
        self._installer.clear_data(package)
        self._index.clear_overrides(package_name)

    # device-side API
    def install(self, app_dir: Path, system: bool = False) -> InstalledPackage:
        with self._install_lock:
            package, secret = self._installer.install(app_dir, system, self._registry.get)
            self._stop_app(package.package_name)
            self.adopt(package, hash_secret(secret))
            log.info("installed %s (uid %d, %d functions)", package.package_name, package.uid,
                     len(package.metadata.app_functions))
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
            log.info("uninstalled %s", package_name)

    def _require_installed(self, package_name: str) -> InstalledPackage:
        package = self._registry.get(package_name)
        if package is None:
            raise IllegalArgumentException(f"Unknown package: {package_name}")
        return package

    @staticmethod
    def _require_shell() -> None:
        caller = Binder.get_calling_identity()
        if not (caller.is_shell or caller.is_root or caller.uid == 1000):
            raise SecurityException(f"{caller.package_name} may not manage packages")


def package_info(package: InstalledPackage) -> pm_pb2.PackageInfo:
    return pm_pb2.PackageInfo(
        package_name=package.package_name,
        uid=package.uid,
        system=package.system,
        requested_permissions=package.manifest.uses_permissions,
        function_ids=[f.id for f in package.metadata.app_functions],
    )
