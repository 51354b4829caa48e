"""Shared types as ``$defs`` (the MCP bridge's input schemas) against the inlined default."""

from __future__ import annotations

import json

import jsonschema
import pytest
from jsonschema.exceptions import best_match

from droid.agent.schema import parameters_schema
from droid.appfunctions.metadata import AppFunctionComponentsMetadata, AppFunctionDataTypeMetadata, AppFunctionMetadata, DataType

from .fakes import param, prop, ref, string
from .test_discovery_and_schema import NOTES, notes_package

NOTE = f"{NOTES}.Note"


def create_note_schema(shared_types: str) -> dict:
    package = notes_package()
    return parameters_schema(package.app_functions[0], package.components, shared_types=shared_types)


def test_defs_mode_refers_to_each_shared_type_once_recursion_included():
    schema = create_note_schema("defs")
    assert schema["properties"]["note"] == {"$ref": f"#/$defs/{NOTE}", "description": "The note to create"}
    # Base is an allOf parent: merged into Note, so it needs no definition of its own.
    assert list(schema["$defs"]) == [NOTE]
    note = schema["$defs"][NOTE]
    assert note["required"] == ["title"]
    assert note["properties"]["title"] == {"type": "string", "description": "The title"}
    assert note["properties"]["parent"] == {"anyOf": [{"$ref": f"#/$defs/{NOTE}"}, {"type": "null"}]}
    assert schema["additionalProperties"] is False and schema["required"] == ["note"]


def test_defs_schema_checks_a_recursive_value_at_every_depth():
    validator = jsonschema.Draft202012Validator(create_note_schema("defs"))
    good = {"note": {"title": "a", "parent": {"title": "b", "parent": None}}}
    assert list(validator.iter_errors(good)) == []
    deep = {"note": {"title": "a", "parent": {"title": "b", "parent": {"title": 5}}}}
    error = best_match(validator.iter_errors(deep))  # as the MCP bridge names it
    assert list(error.absolute_path) == ["note", "parent", "parent", "title"] and error.message == "5 is not of type 'string'"
    assert [e.message for e in validator.iter_errors({"note": {"parent": None}})] == ["'title' is a required property"]
    # Inlined, the same value passes: the recursion is cut off at the second level.
    assert list(jsonschema.Draft202012Validator(create_note_schema("inline")).iter_errors(deep)) == []


def test_inline_is_the_default_and_has_no_references():
    package = notes_package()
    default = parameters_schema(package.app_functions[0], package.components)
    assert default == create_note_schema("inline")
    assert "$defs" not in default and "$ref" not in json.dumps(default)
    assert default["properties"]["note"]["properties"]["title"] == {"type": "string", "description": "The title"}


def test_a_type_name_is_escaped_as_a_json_pointer_in_a_uri_fragment():
    name = "com.example.Box<a/b~c, kotlin.Int>"
    box = AppFunctionDataTypeMetadata(type=DataType.OBJECT, properties=[prop("label", string())], required=["label"])
    function = AppFunctionMetadata(id="com.example.F#put", package_name="com.example", parameters=[param("box", ref(name))])
    schema = parameters_schema(function, AppFunctionComponentsMetadata(data_types=[prop(name, box)]), shared_types="defs")
    assert schema["properties"]["box"] == {"$ref": "#/$defs/com.example.Box%3Ca~1b~0c,%20kotlin.Int%3E"}
    assert list(schema["$defs"]) == [name]
    (error,) = jsonschema.Draft202012Validator(schema).iter_errors({"box": {}})
    assert error.message == "'label' is a required property"


def test_an_unknown_mode_is_refused_by_name():
    with pytest.raises(ValueError, match="shared_types must be 'inline' or 'defs', not 'refs'"):
        create_note_schema("refs")
