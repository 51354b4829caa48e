"""A function as an MCP tool: its input schema keeps shared types as $defs, and arguments are
checked against it, references resolved, before the device is called; what it refuses is said as
the shell says it."""

from __future__ import annotations

from droid.agent.appfunction_tools import AppFunctionAgentTool
from sim.mcp.conversion import JSON_SCHEMA_DIALECT, ToolShape
from tests.helpers import REPO
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
        "Parameter note.parent.parent.title: expected a string, got the number 5")
    assert shape.schema_violation({"note": {"title": "a", "parent": 3}}) == (
        "Parameter note.parent: expected an object {title, tags, parent} (a document), got the number 3")
    # a key the function does not declare is named as the shell and agents name it (json_codec)
    assert shape.schema_violation({"note": {"title": "a"}, "extra": 1}) == (
        "Unknown parameter 'extra'; com.example.notes.NoteFunctions#createNote takes: "
        "note, colour, priority, due, attachment, weight")
    assert shape.schema_violation({"note": {"title": "a"}, "colour_": 1}).startswith(
        "Unknown parameter 'colour_' (did you mean colour?)")


def _travel_shape(tmp_path, name: str) -> ToolShape:
    from sim.device import Device

    with Device(tmp_path / "data", isolated_apps=False) as device:
        package = device.install(REPO / "tests" / "apks" / "travel-signed.apk").metadata
    function = next(f for f in package.app_functions if f.id.endswith(f"#{name}"))
    return ToolShape(AppFunctionAgentTool(None, function, package.components), name, destructive=False,
                     components=package.components)


def test_arguments_are_read_and_refused_as_the_shell_reads_them(tmp_path):
    """What the schema refuses is said in the shell's words, and what the shell takes is taken."""
    hotels = _travel_shape(tmp_path / "a", "findHotels")
    assert hotels.schema_violation({"city": "Lisbon", "checkIn": "2026-03-14", "nights": 2}) is None  # ISO text
    assert hotels.schema_violation({"city": "Lisbon", "checkIn": "14/03/2026", "nights": 2}).startswith(
        "Parameter checkIn: '14/03/2026' is not a LocalDate (e.g. 2025-06-14)")
    assert hotels.schema_violation({"city": "Lisbon", "checkIn": {"year": 2026}, "nights": 2}) == (
        "Parameter checkIn.dayOfMonth is required; checkIn is text (e.g. 2025-06-14) or an object "
        "{year, month, dayOfMonth}")
    update = _travel_shape(tmp_path / "b", "updateBooking")
    assert update.schema_violation({"bookingId": "BK-1", "seat": {"value": "14C"}}) is None
    assert update.schema_violation({"bookingId": "BK-1", "seat": "14C"}) == (
        'Parameter seat: expected a SetField<String>, written {"value": ...} (a bare value is no SetField; leave the '
        "parameter out to keep the field as it is), got a string")
    assert update.schema_violation({"booking_id": "BK-1"}) == (
        "Unknown parameter 'booking_id' (did you mean bookingId?); "
        "com.example.travel.bookings.BookingFunctions#updateBooking takes: bookingId, seat, mealPreference, "
        "returnDate, travellers, checkedBags")


def test_an_unknown_tool_is_said_declared_but_not_indexed_or_close_to_a_listed_one(tmp_path):
    from sim.device import Device
    from sim.mcp.catalog import Catalog

    with Device(tmp_path / "data", isolated_apps=False, sdk=36) as device:
        device.install(REPO / "apps" / "system" / "assistant", system=True)
        device.pregrant_agent("com.example.assistant")
        device.install(REPO / "tests" / "apks" / "travel-signed.apk")
        catalog = Catalog(device.create_context("com.example.assistant"))
        catalog.refresh()
        assert catalog.unknown("checkIn") == (
            "com.example.travel declares com.example.travel.checkin.CheckInFunctions#checkIn, but this device does "
            "not index it: its service com.example.travel.CheckInService is disabled on Android 16 (SDK 36) "
            "(android:enabled is false there; a device of another SDK may index it)")
        assert catalog.unknown("findHotel") == "did you mean findHotels?"
        assert catalog.unknown("zzz") is None

