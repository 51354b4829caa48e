"""Values generated from a function's declared response type, for ``--on-miss schema`` only.

Such an answer measures nothing about the app (an agent evaluated against it is evaluated
against droidsim's placeholders), so each one says so: GENERATED_EXTRA in the response extras,
and a warning in logcat. The values are the plainest the type allows, the same every time:
false, 0, 0.0, the first enum value, "", an empty list, null where null is allowed, every
required property of an object, and 1970-01-01 (UTC) for dates and times.
"""

from __future__ import annotations

from typing import Any

from droid.appfunctions.json_codec import value_from_json
from droid.appfunctions.metadata import (
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    AppFunctionPackageMetadata,
    DataType,
)
from droid.appfunctions.requests import ExecuteAppFunctionResponse
from sim.responses.types import object_properties, shared_types

GENERATED_EXTRA = "droidsimGeneratedFromSchema"
GENERATED_NOTE = "generated from the schema (--on-miss schema), not recorded: an eval against it measures nothing"

_TEXT_FORMS = {
    "java.time.LocalDate": "1970-01-01",
    "java.time.LocalTime": "00:00",
    "java.time.LocalDateTime": "1970-01-01T00:00",
    "java.time.Instant": "1970-01-01T00:00:00Z",
    "java.time.ZoneId": "UTC",
}
_PLAIN = {
    DataType.BOOLEAN: False, DataType.INT: 0, DataType.LONG: 0, DataType.FLOAT: 0.0, DataType.DOUBLE: 0.0,
    DataType.STRING: "", DataType.BYTES: "",
}


def generated_response(function: AppFunctionMetadata, metadata: AppFunctionPackageMetadata) -> ExecuteAppFunctionResponse:
    if not function.HasField("response"):
        return ExecuteAppFunctionResponse.of(None)
    value_type = function.response.value_type
    value = generated_json(value_type, shared_types(metadata), frozenset())
    return ExecuteAppFunctionResponse.of(value_from_json(value, value_type, metadata.components, "response"))


def generated_json(data_type: AppFunctionDataTypeMetadata, shared: dict, seen: frozenset[str]) -> Any:
    """The JSON the codec turns into the type's plainest value."""
    reference = data_type.data_type_reference
    if data_type.type == DataType.REFERENCE:
        if reference in seen or reference not in shared:  # recursive (or dangling): stop where null may
            return None
        return generated_json(shared[reference], shared, seen | {reference})
    if data_type.object_qualified_name in _TEXT_FORMS:
        return _TEXT_FORMS[data_type.object_qualified_name]
    if data_type.enum_values:
        first = data_type.enum_values[0]
        return int(first) if data_type.type in (DataType.INT, DataType.LONG) else first
    if data_type.type in _PLAIN:
        return _PLAIN[data_type.type]
    if data_type.type == DataType.ARRAY:
        return []
    if data_type.type in (DataType.OBJECT, DataType.ALL_OF):
        return _object(data_type, shared, seen)
    if data_type.type == DataType.ONE_OF and data_type.one_of:
        return generated_json(data_type.one_of[0], shared, seen)
    return None  # UNIT, PARCELABLE: nothing to say


def _object(data_type: AppFunctionDataTypeMetadata, shared: dict, seen: frozenset[str]) -> dict:
    properties, required = object_properties(data_type, shared)
    return {
        name: None if prop.is_nullable else generated_json(prop, shared, seen)
        for name, prop in properties.items()
        if name in required
    }
