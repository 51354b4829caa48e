"""AppFunction metadata: the typed description of every function a device knows.

The classes are the binder's protobuf messages (proto/droidsim/v1/metadata.proto),
re-exported under Android's names, so the same objects serve in-process callers
and cross the wire without a conversion step.
"""

from __future__ import annotations

import re

from enum import IntEnum

from droidsim.v1.metadata_pb2 import (
    AppFunctionAppMetadata,
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionDeprecationMetadata,
    AppFunctionMetadata,
    AppFunctionNamedDataTypeMetadata,
    AppFunctionPackageMetadata,
    AppFunctionParameterMetadata,
    AppFunctionResponseMetadata,
    AppFunctionSchemaMetadata,
    AppFunctionStringPattern,
)

ACCESS_LEVEL_SELF = 100
ACCESS_LEVEL_SYSTEM = 200
ACCESS_LEVEL_ANDROID_TRUSTED = 300

# The XML spelling of each access level (androidx golden my_access_level_service.xml).
ACCESS_LEVEL_XML = {
    ACCESS_LEVEL_SELF: "self",
    ACCESS_LEVEL_SYSTEM: "system",
    ACCESS_LEVEL_ANDROID_TRUSTED: "androidTrusted",
}

# AppFunctionStringTypeMetadata.FORMAT_URI: an android.net.Uri is a STRING of this format.
FORMAT_URI = "uri"

# droidsim's own function XML properties live in this namespace (schemas/droidsim_appfunctions.xsd):
# no platform reader takes them for its own, and the platform's skips them.
DROIDSIM_XML_NAMESPACE = "urn:droidsim:appfunctions"
IS_DESTRUCTIVE_TAG = f"{{{DROIDSIM_XML_NAMESPACE}}}isDestructive"

SCOPE_GLOBAL = 0
SCOPE_ACTIVITY = 1


class DataType(IntEnum):
    """Type codes of AppFunctionDataTypeMetadata (androidx, 9 unused)."""

    UNIT = 0
    BOOLEAN = 1
    BYTES = 2
    OBJECT = 3
    DOUBLE = 4
    FLOAT = 5
    LONG = 6
    INT = 7
    STRING = 8
    ARRAY = 10
    REFERENCE = 11
    ALL_OF = 12
    PARCELABLE = 13
    ONE_OF = 14


def function_name(metadata: AppFunctionMetadata) -> str:
    """The short name an agent may use: the method after '#', else the whole id."""
    return metadata.id.rsplit("#", 1)[-1]


# androidx.appfunctions.schema.types.SetField<T>: an update's "set this field" (droid's SetField[T]).
SET_FIELD = "androidx.appfunctions.schema.types.SetField"
_PACKAGE = re.compile(r"\b(?:[a-z_]\w*\.)+(?=[A-Za-z_])")


def short_type_name(qualified: str) -> str:
    """A qualified type as a Kotlin developer writes it in code:
    ``androidx.appfunctions.schema.types.SetField<kotlin.String?>`` -> ``SetField<String?>``."""
    return _PACKAGE.sub("", qualified)


def type_label(data_type: AppFunctionDataTypeMetadata) -> str:
    """A short human name for a type: ``string``, ``list<long>``, ``com.example.Order?``."""
    kind = data_type.type
    if kind == DataType.ARRAY:
        label = f"list<{type_label(data_type.item_type)}>"
    elif kind == DataType.REFERENCE:
        label = data_type.data_type_reference
    elif kind in (DataType.OBJECT, DataType.ALL_OF):
        label = data_type.object_qualified_name or "object"
    else:
        label = DataType(kind).name.lower() if kind in DataType._value2member_map_ else f"type{kind}"
    return f"{label}?" if data_type.is_nullable and kind != DataType.UNIT else label


__all__ = [
    "SET_FIELD",
    "short_type_name",
    "ACCESS_LEVEL_ANDROID_TRUSTED",
    "ACCESS_LEVEL_SELF",
    "ACCESS_LEVEL_SYSTEM",
    "ACCESS_LEVEL_XML",
    "AppFunctionAppMetadata",
    "AppFunctionComponentsMetadata",
    "AppFunctionDataTypeMetadata",
    "AppFunctionDeprecationMetadata",
    "AppFunctionMetadata",
    "AppFunctionNamedDataTypeMetadata",
    "AppFunctionPackageMetadata",
    "AppFunctionParameterMetadata",
    "AppFunctionResponseMetadata",
    "AppFunctionSchemaMetadata",
    "AppFunctionStringPattern",
    "DROIDSIM_XML_NAMESPACE",
    "DataType",
    "FORMAT_URI",
    "IS_DESTRUCTIVE_TAG",
    "SCOPE_ACTIVITY",
    "SCOPE_GLOBAL",
    "function_name",
    "type_label",
]
