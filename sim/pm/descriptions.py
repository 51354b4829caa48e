"""A function's descriptions as install compares them: every text an agent reads.

The function's, each parameter's, the response's, and those of the shared types it uses
(each type and each of its properties). A docstring edited without regenerating the XML
would otherwise install, and agents would keep reading the old text.
"""

from __future__ import annotations

from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
)


def function_descriptions(function: AppFunctionMetadata, components: AppFunctionComponentsMetadata) -> dict[str, str]:
    """Where each description is (``parameter 'title'``, ``type com.example.Task property 'due'``)
    mapped to its text."""
    shared = {named.name: named.data_type for named in components.data_types}
    found = {"the function": function.description}
    for parameter in function.parameters:
        found[f"parameter {parameter.name!r}"] = parameter.description
        _types(parameter.data_type, shared, found)
    if function.HasField("response"):
        found["the response"] = function.response.description
        _types(function.response.value_type, shared, found)
    return found


def _types(data_type: AppFunctionDataTypeMetadata, shared: dict, found: dict[str, str]) -> None:
    reference = data_type.data_type_reference
    if reference:
        where = f"type {reference}"
        if where in found or reference not in shared:
            return
        found[where] = shared[reference].description
        data_type = shared[reference]
        for prop in data_type.properties:
            found[f"{where} property {prop.name!r}"] = prop.data_type.description
    if data_type.HasField("item_type"):
        _types(data_type.item_type, shared, found)
    for nested in [*(p.data_type for p in data_type.properties), *data_type.all_of, *data_type.one_of]:
        _types(nested, shared, found)


def description_difference(xml: dict[str, str], code: dict[str, str]) -> str | None:
    """The first description that differs between the XML and the code, in words; None if all agree."""
    for where in code:
        if xml.get(where, "") != code[where]:
            return f"the description of {where} differs (the code: {code[where]!r}; the XML: {xml.get(where, '')!r})"
    return None
