"""Discovery (id filter, full and short ids) and the JSON Schema built from metadata."""

from __future__ import annotations

import asyncio
import logging

import pytest

from droid.agent import AppFunctionAgentTools
from droid.appfunctions.exceptions import AppFunctionElementNotFoundException, AppFunctionInvalidArgumentException
from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    AppFunctionPackageMetadata,
    AppFunctionResponseMetadata,
    DataType,
)

from .fakes import CANCEL, FETCH, FakeContext, param, prop, ref, string

NOTES = "com.example.notes"


def notes_package() -> AppFunctionPackageMetadata:
    base = AppFunctionDataTypeMetadata(
        type=DataType.OBJECT, properties=[prop("title", string("The title"))], required=["title"]
    )
    note = AppFunctionDataTypeMetadata(
        type=DataType.ALL_OF,
        all_of=[ref(f"{NOTES}.Base")],
        properties=[
            prop("tags", AppFunctionDataTypeMetadata(type=DataType.ARRAY, item_type=string())),
            prop("parent", AppFunctionDataTypeMetadata(type=DataType.REFERENCE, data_type_reference=f"{NOTES}.Note",
                                                       is_nullable=True)),
        ],
    )
    create = AppFunctionMetadata(
        id=f"{NOTES}.NoteFunctions#createNote", package_name=NOTES, is_enabled=True,
        description="Creates a note.",
        parameters=[
            param("note", ref(f"{NOTES}.Note"), description="The note to create"),
            param("colour", string(enum_values=["RED", "GREEN"]), required=False),
            param("priority", AppFunctionDataTypeMetadata(type=DataType.INT, enum_values=["1", "2", "3"]), required=False),
            param("due", string(format="date", nullable=True), required=False, description="Due date"),
            param("attachment", AppFunctionDataTypeMetadata(type=DataType.BYTES), required=False),
            param("weight", AppFunctionDataTypeMetadata(type=DataType.DOUBLE), required=False),
        ],
        response=AppFunctionResponseMetadata(value_type=AppFunctionDataTypeMetadata(type=DataType.UNIT)),
    )
    duplicate_name = AppFunctionMetadata(
        id=f"{NOTES}.NoteFunctions#fetch_order_details", package_name=NOTES, is_enabled=True,
        description="A same-named function in another app.",
    )
    disabled = AppFunctionMetadata(id=f"{NOTES}.NoteFunctions#deleteAll", package_name=NOTES, is_enabled=False)
    return AppFunctionPackageMetadata(
        package_name=NOTES,
        app_functions=[create, duplicate_name, disabled],
        components=AppFunctionComponentsMetadata(data_types=[prop(f"{NOTES}.Base", base), prop(f"{NOTES}.Note", note)]),
    )


def test_discover_returns_inspectable_tools(manager):
    fetch, cancel = AppFunctionAgentTools.discover(manager)
    assert (fetch.name, fetch.function_id, fetch.package_name) == ("fetch_order_details", FETCH, "com.example.orders")
    assert fetch.description.startswith("Fetches details and delivery status")
    assert "Returns: The order's details." in fetch.description
    assert fetch.parameters == {
        "type": "object",
        "properties": {"orderId": {"type": "string", "description": "The alphanumeric order identifier (for example, ORD-8492)"}},
        "required": ["orderId"],
        "additionalProperties": False,
    }
    assert cancel.parameters["required"] == ["orderId"]
    assert cancel.parameters["properties"]["reason"]["type"] == ["string", "null"]
    assert fetch.metadata.id == FETCH


def test_discover_accepts_a_context(context):
    assert [t.name for t in AppFunctionAgentTools.discover(context)] == ["fetch_order_details", "cancel_order"]


@pytest.mark.parametrize("ids, expected", [
    ([FETCH], [FETCH]),
    (["fetch_order_details"], [FETCH]),
    (["cancel_order", FETCH], [FETCH, CANCEL]),
    ([], []),
])
def test_discover_filters_by_full_or_short_id(manager, ids, expected):
    assert [t.function_id for t in AppFunctionAgentTools.discover(manager, ids)] == expected


def test_unknown_ids_in_the_filter_are_reported(manager, caplog):
    with caplog.at_level(logging.WARNING, logger="droid.agent"):
        assert AppFunctionAgentTools.discover(manager, ["track_parcel"]) == []
    assert "track_parcel" in caplog.text


def test_short_ids_shared_by_two_apps_get_unique_names_and_disabled_are_skipped(service, manager):
    service.packages.append(notes_package())
    tools = AppFunctionAgentTools.discover(manager)
    names = {t.function_id: t.name for t in tools}
    assert names[FETCH] == "orders_fetch_order_details"
    assert names[f"{NOTES}.NoteFunctions#fetch_order_details"] == "notes_fetch_order_details"
    assert f"{NOTES}.NoteFunctions#deleteAll" not in names
    assert f"{NOTES}.NoteFunctions#deleteAll" in {
        t.function_id for t in AppFunctionAgentTools.discover(manager, include_disabled=True)
    }
    # A short id matches it in every app.
    assert len(AppFunctionAgentTools.discover(manager, ["fetch_order_details"])) == 2
    assert [t.function_id for t in AppFunctionAgentTools.discover(manager, package_names=[NOTES])] == [
        f"{NOTES}.NoteFunctions#createNote", f"{NOTES}.NoteFunctions#fetch_order_details"]


def test_schema_covers_nested_objects_enums_arrays_and_formats(service, manager):
    service.packages.append(notes_package())
    (create,) = AppFunctionAgentTools.discover(manager, ["createNote"])
    props = create.parameters["properties"]
    note = props["note"]
    assert note["type"] == "object" and note["description"] == "The note to create"
    assert note["required"] == ["title"]  # from the allOf parent
    assert note["properties"]["title"] == {"type": "string", "description": "The title"}
    assert note["properties"]["tags"] == {"type": "array", "items": {"type": "string"}}
    # A type that contains itself is cut off instead of recursing forever.
    assert note["properties"]["parent"]["type"] in ("object", ["object", "null"])
    assert props["colour"] == {"type": "string", "enum": ["RED", "GREEN"]}
    assert props["priority"] == {"type": "integer", "enum": [1, 2, 3]}
    assert props["due"] == {"type": ["string", "null"], "format": "date", "description": "Due date"}
    assert props["attachment"] == {"type": "string", "contentEncoding": "base64"}
    assert props["weight"] == {"type": "number"}
    assert create.parameters["required"] == ["note"]


def test_executing_a_tool_converts_arguments_and_results(manager, service):
    fetch, _ = AppFunctionAgentTools.discover(manager)
    result = asyncio.run(fetch.execute({"orderId": "ORD-8492"}))
    assert result == {"orderId": "ORD-8492", "status": "SHIPPED", "estimatedDelivery": "2025-06-03", "itemCount": 2}
    with pytest.raises(AppFunctionElementNotFoundException):
        asyncio.run(fetch.execute({"orderId": "ORD-1"}))
    with pytest.raises(AppFunctionInvalidArgumentException, match="orderId"):
        asyncio.run(fetch.execute({}))
    assert service.calls == [(FETCH, {"orderId": "ORD-8492"}), (FETCH, {"orderId": "ORD-1"})]


def test_fake_context_is_enough_for_agents(service):
    assert FakeContext(service).app_function_manager.search_app_functions()[0].package_name == "com.example.orders"
