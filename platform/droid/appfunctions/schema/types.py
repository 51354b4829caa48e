"""androidx.appfunctions.schema.types: shared serializable types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from droid.appfunctions.declarations import app_function_serializable

T = TypeVar("T")


# Declare an update parameter as ``SetField[T] | None = None``: an omitted (or
# null) SetField means "leave the field unchanged", while ``SetField(None)`` (for
# ``SetField[T | None]``) means "set the field to null". On the wire it is a
# document ``{"value": ...}`` named with its type argument, e.g.
# ``androidx.appfunctions.schema.types.SetField<kotlin.String>``. The docstring
# below is what agents read.
@app_function_serializable(
    described_by_docstring=True,
    qualified_name="androidx.appfunctions.schema.types.SetField",
)
@dataclass(frozen=True)
class SetField(Generic[T]):
    """A new value for a field of an existing item.

    Attributes:
        value: The new value of the field.
    """

    value: T
