"""A function as an MCP tool: its input schema keeps shared types as $defs, and arguments are
checked against it, references resolved, before the device is called."""

from __future__ import annotations

from droid.agent.appfunction_tools import AppFunctionAgentTool
from sim.mcp.conversion import JSON_SCHEMA_DIALECT, ToolShape
from tests.unit.agent.test_discovery_and_schema import NOTES, notes_package


def create_note_shape() -> ToolShape:
    package = notes_package()
    tool = AppFunctionAgentTool(None, package.app_functions[0], package.components)
    return ToolShape(tool, "createNote", destructive=False, components=package.components)


def test_the_input_schema_has_the_dialect_and_the_shared_types_as_defs():
    shape = create_note_shape()
    schema = shape.tool().input_schema
    assert schema["$schema"] == JSON_SCHEMA_DIALECT
    assert schema["properties"]["note"]["$ref"] == f"#/$defs/{NOTES}.Note"
    assert list(schema["$defs"]) == [f"{NOTES}.Note"]
    # The model still gets them inlined: one conversion, two ways of giving shared types.
    assert "$defs" not in shape.agent_tool.parameters


def test_a_bad_argument_deep_in_a_recursive_type_is_named_where_it_is():
    shape = create_note_shape()
    assert shape.schema_violation({"note": {"title": "a", "parent": {"title": "b", "parent": None}}}) is None
    assert shape.schema_violation({"note": {"title": "a", "parent": {"title": "b", "parent": {"title": 5}}}}) == (
        "Invalid arguments at note/parent/parent/title: 5 is not of type 'string'")
    assert shape.schema_violation({"note": {"title": "a", "parent": 3}}) == (
        "Invalid arguments at note/parent: 3 is not valid under any of the given schemas")
    # a key the function does not declare is named as the shell and agents name it (json_codec)
    assert shape.schema_violation({"note": {"title": "a"}, "extra": 1}) == (
        "Unknown parameter 'extra'; com.example.notes.NoteFunctions#createNote takes: "
        "note, colour, priority, due, attachment, weight")
    assert shape.schema_violation({"note": {"title": "a"}, "colour_": 1}).startswith(
        "Unknown parameter 'colour_' (did you mean colour?)")
