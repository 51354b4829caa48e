"""A recorded call's arguments as a function's parameters, read as τ²'s tools read them.

Recorded runs and gold actions name arguments as the benchmark does (``order_id``); the
apps' functions take them under the platform's wire names (``orderId``), which are the same
names in lowerCamelCase: either spelling is taken. τ²'s tools build their nested arguments
(a flight, a passenger, a payment) with pydantic models that ignore fields they do not
declare, so such a field is dropped here too; an argument the function does not take at all
stays, and the device refuses the call, as τ²'s tool raises on an unexpected argument.
Everything else is converted as for any caller (droid.appfunctions.json_codec).
"""

from __future__ import annotations

from typing import Any, Mapping

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.json_codec import parameters_from_json
from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    DataType,
)
from droid.appfunctions.typeref import wire_name


def call_parameters(function: AppFunctionMetadata, components: AppFunctionComponentsMetadata,
                    arguments: Mapping[str, Any]) -> AppFunctionData:
    """The parameters document; raises the platform's AppFunctionInvalidArgumentException."""
    return parameters_from_json(function, wire_arguments(function, components, arguments), components)


def wire_arguments(function: AppFunctionMetadata, components: AppFunctionComponentsMetadata,
                   arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as JSON under the function's wire names, nested fields it does not declare
    dropped; an argument it does not take at all kept, for the device to refuse."""
    types = {named.name: named.data_type for named in components.data_types}
    declared = {parameter.name: parameter.data_type for parameter in function.parameters}
    renamed = {}
    for name, value in arguments.items():
        wire = _declared_name(name, declared) or name
        renamed[wire] = _adapt(value, declared[wire], types) if wire in declared else value
    return renamed


def _declared_name(name: str, declared: Mapping[str, Any]) -> str | None:
    if name in declared:
        return name
    return wire_name(name) if wire_name(name) in declared else None


def _adapt(value: Any, data_type: AppFunctionDataTypeMetadata, types: Mapping[str, AppFunctionDataTypeMetadata]) -> Any:
    while data_type.type == DataType.REFERENCE and data_type.data_type_reference in types:
        data_type = types[data_type.data_type_reference]
    if data_type.type == DataType.ARRAY and isinstance(value, list):
        return [_adapt(item, data_type.item_type, types) for item in value]
    if data_type.type in (DataType.OBJECT, DataType.ALL_OF) and isinstance(value, Mapping):
        properties = _properties(data_type, types)
        adapted = {}
        for name, field in value.items():
            wire = _declared_name(name, properties)
            if wire is not None:
                adapted[wire] = _adapt(field, properties[wire], types)
        return adapted
    return value


def _properties(data_type: AppFunctionDataTypeMetadata,
                types: Mapping[str, AppFunctionDataTypeMetadata]) -> dict[str, AppFunctionDataTypeMetadata]:
    properties: dict[str, AppFunctionDataTypeMetadata] = {}
    for parent in data_type.all_of:
        resolved = types.get(parent.data_type_reference, parent)
        properties.update(_properties(resolved, types))
    properties.update({p.name: p.data_type for p in data_type.properties})
    return properties
