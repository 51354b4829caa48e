"""A function's signature as install compares it: what a caller relies on, nothing else.

Names, types, nullability, required-ness and the response, with every shared type
reference resolved, so that a dataclass whose field changed makes the signatures of the
functions that use it differ. Descriptions are compared on their own (sim/pm/descriptions.py),
so that a refusal can say which text is stale.
"""

from __future__ import annotations

from typing import Any

from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    DataType,
    short_type_name,
)

# The Kotlin names of the primitive type codes, as a developer wrote them.
_KOTLIN = {DataType.UNIT: "Unit", DataType.BOOLEAN: "Boolean", DataType.BYTES: "ByteArray", DataType.DOUBLE: "Double",
           DataType.FLOAT: "Float", DataType.LONG: "Long", DataType.INT: "Int", DataType.STRING: "String"}


def function_signature(function: AppFunctionMetadata, components: AppFunctionComponentsMetadata) -> dict:
    shared = {named.name: named.data_type for named in components.data_types}
    return {
        "parameters": [
            {"name": p.name, "required": p.is_required, "type": _type(p.data_type, shared, set())}
            for p in function.parameters
        ],
        "response": _type(function.response.value_type, shared, set()) if function.HasField("response") else None,
    }


def _type(data_type: AppFunctionDataTypeMetadata, shared: dict, seen: set[str]) -> Any:
    reference = data_type.data_type_reference
    if reference:
        if reference in seen or reference not in shared:  # recursive or dangling: compare by name
            return {"reference": reference, "nullable": data_type.is_nullable}
        resolved = _type(shared[reference], shared, seen | {reference})
        return {**resolved, "nullable": data_type.is_nullable}
    described: dict[str, Any] = {"type": data_type.type, "nullable": data_type.is_nullable}
    if data_type.HasField("item_type"):
        described["item"] = _type(data_type.item_type, shared, seen)
    if data_type.properties:
        described["properties"] = {p.name: _type(p.data_type, shared, seen) for p in data_type.properties}
        described["required"] = sorted(data_type.required)
    if data_type.object_qualified_name:
        described["class"] = data_type.object_qualified_name
    for key, values in (("all_of", data_type.all_of), ("one_of", data_type.one_of)):
        if values:
            described[key] = [_type(v, shared, seen) for v in values]
    if data_type.enum_values:
        described["enum"] = list(data_type.enum_values)
    return described


def signature_difference(xml: dict, code: dict) -> str | None:
    """The first way the XML's signature differs from the code's, in words; None if equal."""
    xml_params = {p["name"]: p for p in xml["parameters"]}
    code_params = {p["name"]: p for p in code["parameters"]}
    for name in code_params.keys() - xml_params.keys():
        return f"the code has parameter {name!r}, the XML does not"
    for name in xml_params.keys() - code_params.keys():
        return f"the XML has parameter {name!r}, the code does not"
    for name, param in code_params.items():
        old = xml_params[name]
        if old["required"] != param["required"]:
            return f"parameter {name!r} is {_required(param)} in the code but {_required(old)} in the XML"
        if old["type"] != param["type"]:
            return f"parameter {name!r} has a different type in the code than in the XML: {_types(old['type'], param['type'])}"
    if [p["name"] for p in xml["parameters"]] != [p["name"] for p in code["parameters"]]:
        return "the parameters are in a different order in the code than in the XML"
    if xml["response"] != code["response"]:
        return f"the response type differs between the code and the XML: {_types(xml['response'], code['response'])}"
    return None


def _types(xml: Any, code: Any, where: str = "") -> str:
    """Both types in words, at the first place they differ (a property of an object, an item)."""
    if xml is None or code is None:
        side, described = ("the code", code) if xml is None else ("the XML", xml)
        return f"{where}only {side} has it ({type_words(described)})"
    if type_words(xml) != type_words(code):
        return f"{where}the XML has {type_words(xml)}, the code {type_words(code)}"
    for key in ("item", "properties"):
        xml_part, code_part = xml.get(key), code.get(key)
        if key == "item" and xml_part != code_part:
            return _types(xml_part, code_part, f"{where}its items: ")
        if key == "properties" and xml_part != code_part:
            xml_props, code_props = xml_part or {}, code_part or {}
            for name in [*xml_props, *(n for n in code_props if n not in xml_props)]:
                if xml_props.get(name) != code_props.get(name):
                    owner = f" of {short_type_name(xml['class'])}" if xml.get("class") else ""
                    return _types(xml_props.get(name), code_props.get(name), f"{where}property {name!r}{owner}: ")
    if xml.get("required") != code.get("required"):
        return (f"{where}its required properties: the XML has {', '.join(xml.get('required') or []) or 'none'}, "
                f"the code {', '.join(code.get('required') or []) or 'none'}")
    return f"{where}the XML has {type_words(xml)}, the code {type_words(code)} (their definitions differ)"


def type_words(described: Any) -> str:
    """A compared type as a developer writes it: ``SetField<String>?``, ``List<Booking>``, ``String (A|B)``."""
    if described is None:
        return "no such thing"
    mark = "?" if described.get("nullable") else ""
    if "reference" in described:
        return short_type_name(described["reference"]) + mark
    kind = described.get("type")
    if "class" in described:
        name = short_type_name(described["class"])
    elif kind == DataType.ARRAY:
        name = f"List<{type_words(described.get('item'))}>"
    else:
        name = _KOTLIN.get(kind, DataType(kind).name if kind in DataType._value2member_map_ else f"type {kind}")
    enum = f" ({'|'.join(str(v) for v in described['enum'])})" if described.get("enum") else ""
    return f"{name}{mark}{enum}"


def _required(parameter: dict) -> str:
    return "required" if parameter["required"] else "optional"
