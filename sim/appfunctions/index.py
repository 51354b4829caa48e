"""FunctionIndex: every installed function, its service and its enabled state.

The static side (what the XML declares) changes only on install and uninstall;
the runtime side (enabled overrides) is persisted in the DeviceStore and cached
here, mirroring AppSearch's static and runtime metadata documents.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Protocol

from droid.appfunctions.metadata import ACCESS_LEVEL_ANDROID_TRUSTED, AppFunctionMetadata, AppFunctionPackageMetadata
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionName,
    AppFunctionSearchSpec,
)
from droidsim.v1.app_function_manager_pb2 import SearchAppFunctionsResponse
from sim.data.store import DeviceStore
from sim.pm.installed_from import public

VALID_STATES = (APP_FUNCTION_STATE_DEFAULT, APP_FUNCTION_STATE_ENABLED, APP_FUNCTION_STATE_DISABLED)


class IndexListener(Protocol):
    """Told after each change, outside the index's lock (AppFunctionObservers)."""

    def packages_changed(self, package_names: Iterable[str]) -> None: ...

    def states_changed(self, functions: Iterable[tuple[str, str]]) -> None: ...


class _NoListener:
    def packages_changed(self, package_names: Iterable[str]) -> None:
        pass

    def states_changed(self, functions: Iterable[tuple[str, str]]) -> None:
        pass


@dataclass(frozen=True)
class IndexedFunction:
    metadata: AppFunctionMetadata
    service_name: str


@dataclass(frozen=True)
class SearchPage:
    """One package's matching functions as search hands them out: ``is_enabled`` filled in and
    each carrying the package's metadata (``package_metadata``, AppFunctionMetadata.getPackageMetadata).

    Pages are cached and shared between searches: read-only, copy before changing one.
    """

    package_name: str
    functions: tuple[AppFunctionMetadata, ...]
    # The function with the lowest access level (0 counts as ANDROID_TRUSTED, as in
    # CallerValidator.permits): a caller that may see it may see the whole page.
    most_restricted: AppFunctionMetadata

    @classmethod
    def of(cls, package_name: str, functions: Iterable[AppFunctionMetadata]) -> SearchPage:
        functions = tuple(functions)
        return cls(package_name, functions, min(functions, key=lambda f: f.access_level or ACCESS_LEVEL_ANDROID_TRUSTED))

    @cached_property
    def encoded(self) -> bytes:
        """The page's functions as part of a serialised SearchAppFunctionsResponse (a response is
        the concatenation of its entries), encoded on first use and kept with the cached page."""
        return SearchAppFunctionsResponse(app_functions=self.functions).SerializeToString()


class FunctionIndex:
    def __init__(self, store: DeviceStore) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._packages: dict[str, AppFunctionPackageMetadata] = {}
        self._functions: dict[tuple[str, str], IndexedFunction] = {}
        self._overrides = store.enabled_overrides()
        # Each package's whole search page, built on first search; dropped whenever the package
        # or the enabled state of one of its functions changes (search of 5,000 functions spent
        # 11 ms copying functions and filling in is_enabled on every call: docs/performance.md).
        self._pages: dict[str, SearchPage] = {}
        self.listener: IndexListener = _NoListener()

    def add_package(self, metadata: AppFunctionPackageMetadata) -> None:
        with self._lock:
            self._drop(metadata.package_name)
            self._packages[metadata.package_name] = metadata
            for function in metadata.app_functions:
                key = (metadata.package_name, function.id)
                self._functions[key] = IndexedFunction(function, function.service_name)
            # Overrides of functions the new version no longer declares go away.
            stale = [k for k in self._overrides if k[0] == metadata.package_name and k not in self._functions]
            for key in stale:
                del self._overrides[key]
        self.listener.packages_changed([metadata.package_name])

    def remove_package(self, package_name: str) -> None:
        with self._lock:
            self._drop(package_name)
            for key in [k for k in self._overrides if k[0] == package_name]:
                del self._overrides[key]
        self.listener.packages_changed([package_name])

    def _drop(self, package_name: str) -> None:
        """Forget the package's functions and page; called with the lock held."""
        old = self._packages.pop(package_name, None)
        self._pages.pop(package_name, None)
        if old is not None:
            for function in old.app_functions:
                self._functions.pop((package_name, function.id), None)

    def lookup(self, package_name: str, function_id: str) -> IndexedFunction | None:
        return self._functions.get((package_name, function_id))

    def has_package(self, package_name: str) -> bool:
        return package_name in self._packages

    def is_enabled(self, package_name: str, function: AppFunctionMetadata) -> bool:
        """The runtime override if present, else enabledByDefault. An application-level function
        (no service runs it) is enabled only while registered at runtime (AppFunctionState), and
        this device has no runtime registration."""
        if not function.service_name:
            return False
        state = self._overrides.get((package_name, function.id), APP_FUNCTION_STATE_DEFAULT)
        if state == APP_FUNCTION_STATE_DEFAULT:
            return function.enabled_by_default
        return state == APP_FUNCTION_STATE_ENABLED

    def set_state(self, package_name: str, function_id: str, state: int) -> None:
        key = (package_name, function_id)
        was_enabled = self._effective(key)
        with self._store.transaction() as db:
            if state == APP_FUNCTION_STATE_DEFAULT:
                db.execute(
                    "DELETE FROM enabled_overrides WHERE package_name = ? AND function_id = ?", key
                )
            else:
                db.execute("INSERT OR REPLACE INTO enabled_overrides VALUES (?, ?, ?)", (*key, state))
            with self._lock:
                if state == APP_FUNCTION_STATE_DEFAULT:
                    self._overrides.pop(key, None)
                else:
                    self._overrides[key] = state
                self._pages.pop(package_name, None)
        if self._effective(key) != was_enabled:
            self.listener.states_changed([key])

    def clear_overrides(self, package_name: str) -> None:
        """``pm clear``: back to the XML's defaults."""
        with self._store.transaction() as db:
            db.execute("DELETE FROM enabled_overrides WHERE package_name = ?", (package_name,))
        with self._lock:
            keys = [k for k in self._overrides if k[0] == package_name]
            flipping = [k for k in keys if self._effective(k) is not None and self._effective(k) != self._default(k)]
            for key in keys:
                del self._overrides[key]
            self._pages.pop(package_name, None)
        if flipping:
            self.listener.states_changed(flipping)

    def _effective(self, key: tuple[str, str]) -> bool | None:
        indexed = self._functions.get(key)
        return None if indexed is None else self.is_enabled(key[0], indexed.metadata)

    def _default(self, key: tuple[str, str]) -> bool:
        return self._functions[key].metadata.enabled_by_default

    def packages(self) -> list[AppFunctionPackageMetadata]:
        with self._lock:
            return [self._packages[name] for name in sorted(self._packages)]

    def search(self, spec: AppFunctionSearchSpec) -> list[SearchPage]:
        """Matching functions per package, in package order; the cached page itself when every
        function of the package matches, else a new page of those that do."""
        filters_functions = (
            spec.schema_name is not None or spec.schema_category is not None or bool(spec.min_schema_version)
            or spec.function_names is not None or spec.scopes is not None
        )
        packages = _searched_packages(spec)
        results = []
        with self._lock:
            for name in sorted(self._packages if packages is None else packages & self._packages.keys()):
                package = self._packages[name]
                if not package.app_functions:
                    continue
                page = self._pages.get(name) or self._build_page(package)
                if not filters_functions:
                    results.append(page)
                    continue
                matching = [f for f in page.functions if _matches(f, spec)]
                if len(matching) == len(page.functions):
                    results.append(page)
                elif matching:
                    results.append(SearchPage.of(name, matching))
        return results

    def _build_page(self, package: AppFunctionPackageMetadata) -> SearchPage:
        """The package's page, cached; called with the lock held."""
        package_only = AppFunctionPackageMetadata(
            package_name=package.package_name, components=package.components,
            answers=package.answers, installed_from=public(package.installed_from),
        )
        if package.HasField("app_metadata"):  # whether the app names one is what read-app-description tells
            package_only.app_metadata.CopyFrom(package.app_metadata)
        functions = []
        for declared in package.app_functions:
            function = AppFunctionMetadata()
            function.CopyFrom(declared)
            function.is_enabled = self.is_enabled(package.package_name, function)
            function.package_metadata.CopyFrom(package_only)
            functions.append(function)
        page = self._pages[package.package_name] = SearchPage.of(package.package_name, functions)
        return page


def _searched_packages(spec: AppFunctionSearchSpec) -> frozenset[str] | None:
    """The packages a spec can match, None for all: its package names, narrowed to the
    packages of its function names when it has both."""
    by_name = None if spec.function_names is None else frozenset(n.package_name for n in spec.function_names)
    if spec.package_names is None:
        return by_name
    return spec.package_names if by_name is None else spec.package_names & by_name


def _matches(function: AppFunctionMetadata, spec: AppFunctionSearchSpec) -> bool:
    if spec.function_names is not None and AppFunctionName(function.package_name, function.id) not in spec.function_names:
        return False
    if spec.scopes is not None and function.scope not in spec.scopes:
        return False
    schema = function.schema if function.HasField("schema") else None
    if spec.schema_name is not None and (schema is None or schema.name != spec.schema_name):
        return False
    if spec.schema_category is not None and (schema is None or schema.category != spec.schema_category):
        return False
    if spec.min_schema_version and (schema is None or schema.version < spec.min_schema_version):
        return False
    return True
