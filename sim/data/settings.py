"""SettingsProvider: the device settings system services read (Secure settings, DeviceConfig).

A key exists only once the service that reads it registers it, with a parser for its values;
writing an unknown key or a value its reader would refuse is an error naming the problem, so a
typo never silently does nothing. Writes need the shell or root (adb's ``settings put`` and
``device_config put``); a read needs what its registering service says (the agent allowlist
needs MANAGE_APP_FUNCTION_ACCESS, as getAgentAllowlist does); the registering service hears
about every change and reads values itself with ``value``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable

from droid.os.exceptions import IllegalArgumentException
from sim.data.store import DeviceStore
from sim.permissions.enforcement import require_shell_or_root

SECURE = "secure"
DEVICE_CONFIG = "device_config"
TABLES = (SECURE, DEVICE_CONFIG)

SettingKey = tuple[str, str]


@dataclass(frozen=True)
class SettingSpec:
    description: str
    # Raises IllegalArgumentException for a value the reading service would refuse.
    parse: Callable[[str], Any]
    on_change: Callable[[], Any]
    # Raises SecurityException when the calling identity may not read the value.
    check_read: Callable[[], None] = lambda: None
    # A value written whole (``settings put``) as it is stored, given the one stored before: the
    # agent allowlists bind each name to its package's signer, and refuse naming another signer's.
    canonical: Callable[[str, str | None], str] = lambda value, old: value


class SettingsProvider:
    def __init__(self, store: DeviceStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        # Held from a write's read of the old value to its reader being told: writes never
        # interleave, so an ``update`` never loses a change made meanwhile.
        self._writing = threading.RLock()
        self._specs: dict[SettingKey, SettingSpec] = {}

    def register(self, key: SettingKey, spec: SettingSpec) -> None:
        if key[0] not in TABLES:
            raise ValueError(f"settings table must be one of {TABLES}, not {key[0]!r}")
        with self._lock:
            self._specs[key] = spec

    def known(self) -> dict[SettingKey, str]:
        with self._lock:
            return {key: spec.description for key, spec in sorted(self._specs.items())}

    def get_setting(self, table: str, name: str) -> str | None:
        """The binder read: only for a caller the setting's reader allows."""
        self._spec(table, name).check_read()
        return self.value(table, name)

    def value(self, table: str, name: str) -> str | None:
        """The device's own read, whoever is calling."""
        self._spec(table, name)
        return self._store.setting(_storage_key(table, name))

    def put_setting(self, table: str, name: str, value: str | None) -> None:
        """Set (or with None, delete) a setting, then tell the service that reads it."""
        require_shell_or_root(f"write {table} settings")
        spec = self._spec(table, name)

        def written(old: str | None) -> str | None:
            if value is None:
                return None
            spec.parse(value)  # a value its reader would refuse is refused as written
            return spec.canonical(value, old)

        self.update(table, name, written)

    def update(self, table: str, name: str, change: Callable[[str | None], str | None]) -> Any:
        """The device's own read-change-write of a setting, in one step: ``change`` gets the value
        and returns the new one as it is to be stored (None deletes it), or raises, and nothing
        is written. Answers what the reading service answered when told."""
        spec = self._spec(table, name)
        with self._writing:
            old = self._store.setting(_storage_key(table, name))
            value = change(old)
            if value is not None:
                spec.parse(value)
            if value != old:
                self._store.put_setting(_storage_key(table, name), value)
            return spec.on_change()

    def delete_setting(self, table: str, name: str) -> None:
        self.put_setting(table, name, None)

    def _spec(self, table: str, name: str) -> SettingSpec:
        with self._lock:
            spec = self._specs.get((table, name))
        if spec is None:
            known = ", ".join(f"{t} {n}" for t, n in self.known()) or "none"
            raise IllegalArgumentException(f"unknown setting: {table} {name} (this device reads: {known})")
        return spec


def _storage_key(table: str, name: str) -> str:
    return f"{table}/{name}"
