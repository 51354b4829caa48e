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
class AppFunctionSearchSpec:
    """None means "no filter"; an empty package set or a negative version is refused."""

    package_names: frozenset[str] | None = None
    schema_category: str | None = None
    schema_name: str | None = None
    min_schema_version: int = 0

    def __post_init__(self) -> None:
        if self.package_names is not None:
            if not self.package_names:
                raise IllegalArgumentException("package_names must not be empty; use None for all")
            object.__setattr__(self, "package_names", frozenset(self.package_names))
        if self.min_schema_version < 0:
            raise IllegalArgumentException("min_schema_version must not be negative")
