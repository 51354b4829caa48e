"""Reading a function's declared types: the shared types by name, an object's properties."""

from __future__ import annotations

from droid.appfunctions.metadata import AppFunctionDataTypeMetadata, AppFunctionPackageMetadata, DataType


def shared_types(metadata: AppFunctionPackageMetadata) -> dict[str, AppFunctionDataTypeMetadata]:
    return {named.name: named.data_type for named in metadata.components.data_types}


def resolved(data_type: AppFunctionDataTypeMetadata, shared: dict) -> AppFunctionDataTypeMetadata:
    """The type a reference stands for (itself when it is none, or a dangling or recursive one)."""
    seen: set[str] = set()
    while data_type.type == DataType.REFERENCE and data_type.data_type_reference in shared:
        if data_type.data_type_reference in seen:
            break
        seen.add(data_type.data_type_reference)
        data_type = shared[data_type.data_type_reference]
    return data_type


def object_properties(data_type: AppFunctionDataTypeMetadata, shared: dict) -> tuple[dict, set[str]]:
    """An object's properties by name and its required names, ALL_OF parents included."""
    properties: dict[str, AppFunctionDataTypeMetadata] = {}
    required: set[str] = set()
    for parent in data_type.all_of:
        parent_properties, parent_required = object_properties(resolved(parent, shared), shared)
        properties.update(parent_properties)
        required |= parent_required
    properties.update({p.name: p.data_type for p in data_type.properties})
    return properties, required | set(data_type.required)


def enum_values(data_type: AppFunctionDataTypeMetadata, shared: dict) -> list[str | int]:
    """The values a type allows (the XML's ``<enumValues>``), numbers for an int or long enum."""
    data_type = resolved(data_type, shared)
    if data_type.type in (DataType.INT, DataType.LONG):
        return [int(value) for value in data_type.enum_values]
    return list(data_type.enum_values)
