"""Requests, responses and the search spec of android.app.appfunctions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from droid.appfunctions.data import PROPERTY_RETURN_VALUE, AppFunctionData
from droid.os.exceptions import IllegalArgumentException

APP_FUNCTION_STATE_DEFAULT = 0
APP_FUNCTION_STATE_ENABLED = 1
APP_FUNCTION_STATE_DISABLED = 2


@dataclass(frozen=True)
class ExecuteAppFunctionRequest:
    target_package_name: str
    function_identifier: str
    parameters: AppFunctionData = field(default_factory=lambda: AppFunctionData.EMPTY)
    extras: AppFunctionData = field(default_factory=lambda: AppFunctionData.EMPTY)

    def __post_init__(self) -> None:
        if isinstance(self.parameters, dict):
            object.__setattr__(self, "parameters", AppFunctionData(self.parameters))


@dataclass(frozen=True)
class ExecuteAppFunctionResponse:
    result_document: AppFunctionData
    extras: AppFunctionData = field(default_factory=lambda: AppFunctionData.EMPTY)

    PROPERTY_RETURN_VALUE = PROPERTY_RETURN_VALUE

    @classmethod
    def of(cls, return_value: Any) -> "ExecuteAppFunctionResponse":
        """A response whose document holds ``return_value`` (absent for None)."""
        values = {} if return_value is None else {PROPERTY_RETURN_VALUE: return_value}
        return cls(AppFunctionData(values))

    @property
    def return_value(self) -> Any:
        return self.result_document.get(PROPERTY_RETURN_VALUE)


@dataclass(frozen=True)
class AppFunctionName:
    """android.app.appfunctions.AppFunctionName: one function of one package."""

    package_name: str
    function_identifier: str


@dataclass(frozen=True)
class AppFunctionState:
    """android.app.appfunctions.AppFunctionState: what getAppFunctionStates says of a function
    (droidsim has no activities, so no activity ids)."""

    function_name: AppFunctionName
    is_enabled: bool


@dataclass(frozen=True)
class AppFunctionSearchSpec:
    """android.app.appfunctions.AppFunctionSearchSpec: every filter given must match (AND).

    None means "no filter"; an empty set of package or function names, as the platform's
    Builder, and a negative version, as androidx's spec, are refused. An empty set of scopes
    is no filter, as on Android.
    """

    package_names: frozenset[str] | None = None
    schema_category: str | None = None
    schema_name: str | None = None
    min_schema_version: int = 0
    function_names: frozenset[AppFunctionName] | None = None
    scopes: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.package_names is not None:
            if not self.package_names:
                raise IllegalArgumentException("Package names can not be an empty list.")
            object.__setattr__(self, "package_names", frozenset(self.package_names))
        if self.function_names is not None:
            if not self.function_names:
                raise IllegalArgumentException("AppFunction names can not be an empty list.")
            names = frozenset(self.function_names)
            if not all(isinstance(name, AppFunctionName) for name in names):
                raise IllegalArgumentException("function_names must hold AppFunctionName values")
            object.__setattr__(self, "function_names", names)
        if self.scopes is not None:
            scopes = frozenset(self.scopes)
            unknown = sorted(scope for scope in scopes if scope not in _SCOPES)
            if unknown:
                raise IllegalArgumentException(f"Unknown scope {unknown[0]}: SCOPE_GLOBAL (0) or SCOPE_ACTIVITY (1)")
            object.__setattr__(self, "scopes", scopes or None)
        if self.min_schema_version < 0:
            raise IllegalArgumentException("min_schema_version must not be negative")


_SCOPES = (0, 1)  # AppFunctionMetadata.SCOPE_GLOBAL, SCOPE_ACTIVITY
