"""JSON Schema for a tool, built from AppFunction metadata.

What the model sees for each parameter: its JSON type, its description, enum
values, a ``format`` where the metadata has one, nested objects with their own
properties and required lists (shared types from the package's components are
inlined, ``allOf`` parents merged), lists with their item type, and ``null``
allowed where the type is nullable.

Shared types are inlined by default because small local models handle flat
schemas better; a type that refers to itself is cut off as a plain
``{"type": "object"}`` at the second level. ``shared_types="defs"`` gives
clients that resolve references (MCP) each shared type once, under the root's
``$defs`` as JSON Schema 2020-12 has it, recursion included, keyed by the
type's qualified name.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import quote

from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    DataType,
)

_SCALARS = {
    DataType.BOOLEAN: {"type": "boolean"},
    DataType.INT: {"type": "integer"},
    DataType.LONG: {"type": "integer"},
    DataType.FLOAT: {"type": "number"},
    DataType.DOUBLE: {"type": "number"},
    DataType.STRING: {"type": "string"},
    DataType.BYTES: {"type": "string", "contentEncoding": "base64"},
    DataType.UNIT: {"type": "null"},
}


SharedTypes = Literal["inline", "defs"]


class _Builder:
    def __init__(self, components: AppFunctionComponentsMetadata | None, shared_types: SharedTypes) -> None:
        if shared_types not in ("inline", "defs"):
            raise ValueError(f"shared_types must be 'inline' or 'defs', not {shared_types!r}")
        self._types = {t.name: t.data_type for t in components.data_types} if components else {}
        self._use_defs = shared_types == "defs"
        self.defs: dict[str, dict[str, Any]] = {}

    def schema(self, data_type: AppFunctionDataTypeMetadata, seen: tuple[str, ...] = ()) -> dict[str, Any]:
        kind = data_type.type
        if kind == DataType.REFERENCE:
            name = data_type.data_type_reference
            target = self._types.get(name)
            if target is None or name in seen:
                result = {"type": "object"}
            elif self._use_defs:
                result = self._ref(name, target)
                if data_type.is_nullable:
                    result = {"anyOf": [result, {"type": "null"}]}
            else:
                result = self.schema(target, seen + (name,))
                if data_type.is_nullable:
                    result = _nullable(result)
            return _describe(result, data_type.description)
        if kind in _SCALARS:
            result = dict(_SCALARS[kind])
            if data_type.enum_values:
                if kind in (DataType.INT, DataType.LONG):
                    result["enum"] = [int(v) for v in data_type.enum_values if _is_int(v)]
                else:
                    result["enum"] = list(data_type.enum_values)
            if data_type.format:
                result["format"] = data_type.format
        elif kind == DataType.ARRAY:
            result = {"type": "array"}
            if data_type.HasField("item_type"):
                result["items"] = self.schema(data_type.item_type, seen)
        elif kind in (DataType.OBJECT, DataType.ALL_OF):
            result = self._object(data_type, seen)
        elif kind == DataType.ONE_OF:
            result = {"anyOf": [self.schema(option, seen) for option in data_type.one_of]}
        else:  # PARCELABLE and anything unknown: an object of any shape
            result = {"type": "object"}
        if data_type.is_nullable:
            result = _nullable(result)
        return _describe(result, data_type.description)

    def _ref(self, name: str, target: AppFunctionDataTypeMetadata) -> dict[str, Any]:
        """A reference to the shared type's one definition, built on first use."""
        if name not in self.defs:
            self.defs[name] = {}  # claimed first, so a type that refers to itself stops here
            self.defs[name] = self.schema(target)
        # A JSON pointer (RFC 6901) in a URI fragment: a generic's <, > and spaces percent-encoded.
        pointer = name.replace("~", "~0").replace("/", "~1")
        return {"$ref": "#/$defs/" + quote(pointer, safe="!$&'()*+,;=:@")}

    def _parent(self, parent: AppFunctionDataTypeMetadata, seen: tuple[str, ...]) -> dict[str, Any]:
        """An ``allOf`` parent's own schema, never a ``$ref``, so its properties can be merged."""
        name = parent.data_type_reference
        if parent.type == DataType.REFERENCE and name in self._types and name not in seen:
            return self.schema(self._types[name], seen + (name,))
        return self.schema(parent, seen)

    def with_defs(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` as a root: with the definitions its references point to."""
        return {**schema, "$defs": dict(self.defs)} if self.defs else schema

    def _object(self, data_type: AppFunctionDataTypeMetadata, seen: tuple[str, ...]) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for parent in data_type.all_of:
            parent_schema = self._parent(parent, seen)
            properties.update(parent_schema.get("properties", {}))
            required += [r for r in parent_schema.get("required", []) if r not in required]
        for prop in data_type.properties:
            properties[prop.name] = self.schema(prop.data_type, seen)
        required += [r for r in data_type.required if r not in required]
        result: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            result["required"] = required
        return result


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "null":
        schema = {**schema, "type": [kind, "null"]}
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema


def _describe(schema: dict[str, Any], description: str) -> dict[str, Any]:
    if description and "description" not in schema:
        schema = {**schema, "description": description}
    return schema


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def parameters_schema(
    function: AppFunctionMetadata,
    components: AppFunctionComponentsMetadata | None = None,
    shared_types: SharedTypes = "inline",
) -> dict[str, Any]:
    """The tool's input schema: a JSON object with one property per parameter."""
    builder = _Builder(components, shared_types)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for parameter in function.parameters:
        schema = builder.schema(parameter.data_type)
        if parameter.description:
            schema = {**schema, "description": parameter.description}
        properties[parameter.name] = schema
        if parameter.is_required:
            required.append(parameter.name)
    result: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    if function.parameters or function.HasField("response"):
        # A v2 function declares its whole signature; v1 (legacy) functions take anything.
        result["additionalProperties"] = False
    return builder.with_defs(result)


def response_schema(
    function: AppFunctionMetadata, components: AppFunctionComponentsMetadata | None = None
) -> dict[str, Any] | None:
    """The return value's schema, shared types inlined (MCP wants a typed object at its root)."""
    if not function.HasField("response"):
        return None
    schema = _Builder(components, "inline").schema(function.response.value_type)
    return _describe(schema, function.response.description)


def tool_description(function: AppFunctionMetadata) -> str:
    """The function's description, plus what it returns when the metadata says so."""
    description = function.description.strip()
    returns = function.response.description.strip() if function.HasField("response") else ""
    if returns and returns not in description:
        description = f"{description}\nReturns: {returns}" if description else f"Returns: {returns}"
    return description
