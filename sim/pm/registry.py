"""PackageRegistry: the installed packages as the running device sees them."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droid.os.exceptions import IllegalArgumentException

# The manifest schema's PackageName pattern (schemas/android_manifest.xsd).
PACKAGE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def require_package_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Names for an allowlist: each a well-formed package name, duplicates dropped, sorted."""
    bad = [n for n in names if not PACKAGE_NAME.fullmatch(n)]
    if bad:
        raise IllegalArgumentException(f"not a package name: {bad[0]!r}")
    return sorted(set(names))


class ServiceFacts(BaseModel):
    name: str
    permission: str | None = None
    exported: bool = False
    actions: list[str] = []


class PermissionFacts(BaseModel):
    name: str
    protection_level: str = "normal"


class ManifestFacts(BaseModel):
    """What the device keeps of a manifest after install (stored as JSON)."""

    package: str
    uses_permissions: list[str] = []
    permissions: list[PermissionFacts] = []
    services: list[ServiceFacts] = []


@dataclass(frozen=True)
class InstalledPackage:
    package_name: str
    uid: int
    app_dir: Path
    data_dir: Path
    system: bool
    manifest: ManifestFacts
    metadata: AppFunctionPackageMetadata
    source_hash: str

    @property
    def credential_file(self) -> Path:
        return self.data_dir / "credential"

    def requests_permission(self, permission: str) -> bool:
        return permission in self.manifest.uses_permissions


class PackageRegistry:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._by_name: dict[str, InstalledPackage] = {}
        self._by_uid: dict[int, InstalledPackage] = {}

    def put(self, package: InstalledPackage) -> None:
        with self._lock:
            self.remove(package.package_name)
            self._by_name[package.package_name] = package
            self._by_uid[package.uid] = package

    def remove(self, package_name: str) -> InstalledPackage | None:
        with self._lock:
            package = self._by_name.pop(package_name, None)
            if package is not None:
                self._by_uid.pop(package.uid, None)
            return package

    def get(self, package_name: str) -> InstalledPackage | None:
        return self._by_name.get(package_name)

    def by_uid(self, uid: int) -> InstalledPackage | None:
        return self._by_uid.get(uid)

    def all(self) -> list[InstalledPackage]:
        with self._lock:
            return [self._by_name[name] for name in sorted(self._by_name)]
