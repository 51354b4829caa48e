"""PackageRegistry: the installed packages as the running device sees them."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from droid.appfunctions.metadata import AppFunctionPackageMetadata

# The manifest schema's PackageName pattern (schemas/android_manifest.xsd).
PACKAGE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


# The manifest facts are plain dataclasses with a hand-written JSON form, not pydantic models:
# importing pydantic was a sixth of the device's boot (docs/performance.md). The JSON shape is
# the one pydantic wrote (field names as keys, compact), so existing data directories load.


@dataclass(frozen=True)
class ServiceFacts:
    name: str
    permission: str | None = None
    exported: bool = False
    actions: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"name": self.name, "permission": self.permission, "exported": self.exported, "actions": list(self.actions)}

    @classmethod
    def from_dict(cls, data: dict) -> ServiceFacts:
        return cls(data["name"], data.get("permission"), data.get("exported", False), tuple(data.get("actions", ())))


@dataclass(frozen=True)
class PermissionFacts:
    name: str
    protection_level: str = "normal"

    def to_dict(self) -> dict:
        return {"name": self.name, "protection_level": self.protection_level}

    @classmethod
    def from_dict(cls, data: dict) -> PermissionFacts:
        return cls(data["name"], data.get("protection_level", "normal"))


@dataclass(frozen=True)
class ManifestFacts:
    """What the device keeps of a manifest after install (stored as JSON)."""

    package: str
    uses_permissions: tuple[str, ...] = ()
    permissions: tuple[PermissionFacts, ...] = ()
    services: tuple[ServiceFacts, ...] = ()

    def to_json(self) -> str:
        return json.dumps(
            {
                "package": self.package,
                "uses_permissions": list(self.uses_permissions),
                "permissions": [p.to_dict() for p in self.permissions],
                "services": [s.to_dict() for s in self.services],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> ManifestFacts:
        """The stored form; a row that is not it is a corrupt data directory, named as such."""
        try:
            data = json.loads(text)
            return cls(
                data["package"],
                tuple(data.get("uses_permissions", ())),
                tuple(PermissionFacts.from_dict(p) for p in data.get("permissions", ())),
                tuple(ServiceFacts.from_dict(s) for s in data.get("services", ())),
            )
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise ValueError(f"stored manifest facts are not valid: {error!r}") from None


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
    # What the indexer left out at this install (sim/pm/index_notes.py); not stored.
    install_notes: tuple[str, ...] = field(default=(), compare=False)

    @cached_property
    def credential_file(self) -> Path:
        # Kept: every call to the package names it (the zygote needs it to start the app).
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
