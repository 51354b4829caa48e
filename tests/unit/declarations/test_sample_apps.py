"""The sample apps' functions, called as the device calls them (up to on_execute_function)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from droid.appfunctions import (
    AppFunctionData,
    AppFunctionElementAlreadyExistsException,
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionLimitExceededException,
    load_app_service_class,
)
from droid.appfunctions.compiler import build_metadata

from .calls import fails, returns

APPS = Path(__file__).resolve().parents[3] / "apps"


def service(app: str, name: str):
    return load_app_service_class(APPS / app, name)()


def run(coro):
    return asyncio.run(coro)


# --------------------------------------------------------------------------- orders
ORDERS = "com.example.orders.OrderFunctionService"


def test_fetch_order_details_by_order_id():
    details = run(returns(service("orders", ORDERS), f"{ORDERS}#fetch_order_details", {"orderId": "ORD-8492"}))
    assert details.qualified_name == "com.example.orders.OrderDetails"
    value = details.to_python()
    assert value["orderId"] == "ORD-8492"
    assert value["status"] == "SHIPPED"
    assert value["carrier"] == "UPS"
    assert value["estimatedDelivery"] == {"year": 2025, "month": 6, "dayOfMonth": 14}
    assert value["itemCount"] == sum(i["quantity"] for i in value["items"]) == 3
    assert value["canCancel"] is False


def test_an_unknown_order_is_element_not_found():
    error = run(fails(service("orders", ORDERS), f"{ORDERS}#fetch_order_details", {"orderId": "ORD-0000"}))
    assert type(error) is AppFunctionElementNotFoundException
    assert "ORD-0000" in error.error_message


def test_cancel_order_cancels_once_and_refuses_shipped_orders():
    orders = service("orders", ORDERS)

    async def scenario():
        first = await returns(orders, f"{ORDERS}#cancel_order", {"orderId": "ORD-7310", "reason": "Changed my mind"})
        again = await returns(orders, f"{ORDERS}#cancel_order", {"orderId": "ORD-7310"})
        shipped = await returns(orders, f"{ORDERS}#cancel_order", {"orderId": "ORD-8492"})
        after = await returns(orders, f"{ORDERS}#fetch_order_details", {"orderId": "ORD-7310"})
        return first, again, shipped, after

    first, again, shipped, after = run(scenario())
    assert (first["cancelled"], first["status"]) == (True, "CANCELLED")
    assert (again["cancelled"], again["message"]) == (False, "The order was already cancelled.")
    assert (shipped["cancelled"], shipped["status"]) == (False, "SHIPPED")
    assert after["status"] == "CANCELLED"


def test_cancel_order_is_marked_destructive_and_fetch_is_not():
    functions, _ = build_metadata(load_app_service_class(APPS / "orders", ORDERS))
    destructive = {f.id.rsplit("#", 1)[1]: f.is_destructive for f in functions}
    assert destructive == {"fetch_order_details": False, "cancel_order": True}


# --------------------------------------------------------------------------- notes (seeds/002)
NOTES = "com.example.notes.NoteFunctionService"


def test_create_note_resolves_omitted_optionals_in_the_body():
    note = run(returns(service("notes", NOTES), f"{NOTES}#create_note", {"title": "Groceries"})).to_python()
    assert note["title"] == "Groceries"
    assert note["content"] is None
    assert note["attachments"] == []
    assert note["owner"] == "me"


def test_create_note_with_attachments():
    attachment = AppFunctionData(uri="content://files/7", mimeType="image/png")
    note = run(
        returns(service("notes", NOTES), f"{NOTES}#create_note", {"title": "Trip", "attachments": [attachment], "owner": "ana"})
    )
    # A Uri is a string of format uri (androidx AppFunctionUriValueConstraint.kt).
    assert note["attachments"][0].to_python() == {"uri": "content://files/7", "mimeType": "image/png"}
    assert note["owner"] == "ana"


def test_update_note_absent_fields_stay_and_set_field_none_sets_null():
    notes = service("notes", NOTES)
    update = f"{NOTES}#update_note"

    async def scenario():
        created = await returns(notes, f"{NOTES}#create_note", {"title": "Draft", "content": "Body"})
        note_id = created["noteId"]
        # Only the title changes: content is absent, so it keeps its value.
        retitled = await returns(notes, update, {"noteId": note_id, "title": AppFunctionData(value="Final")})
        # A null SetField also means "unchanged".
        untouched = await returns(notes, update, {"noteId": note_id, "title": None, "content": None})
        # SetField(None): the content becomes null.
        cleared = await returns(notes, update, {"noteId": note_id, "content": AppFunctionData(value=None)})
        # SetField("...") sets it again.
        refilled = await returns(notes, update, {"noteId": note_id, "content": AppFunctionData(value="New body")})
        return retitled, untouched, cleared, refilled

    retitled, untouched, cleared, refilled = run(scenario())
    assert (retitled["title"], retitled["content"]) == ("Final", "Body")
    assert (untouched["title"], untouched["content"]) == ("Final", "Body")
    assert (cleared["title"], cleared["content"]) == ("Final", None)
    assert cleared.is_null("content")
    assert refilled["content"] == "New body"


def test_update_note_title_cannot_be_set_to_null():
    error = run(
        fails(service("notes", NOTES), f"{NOTES}#update_note", {"noteId": "note-1", "title": AppFunctionData(value=None)})
    )
    assert type(error) is AppFunctionInvalidArgumentException
    assert "Parameter title.value must not be null" in error.error_message


def test_update_note_of_an_unknown_note_is_element_not_found():
    error = run(fails(service("notes", NOTES), f"{NOTES}#update_note", {"noteId": "note-99"}))
    assert type(error) is AppFunctionElementNotFoundException
    assert error.error_message == "No note found with ID note-99"


# --------------------------------------------------------------------------- lights
LIGHTS = "com.example.smarthome.LightFunctionService"


def test_lights_list_switch_and_dim():
    lights = service("lights", LIGHTS)

    async def scenario():
        kitchen = await returns(lights, f"{LIGHTS}#list_lights", {"room": "kitchen"})
        on = await returns(lights, f"{LIGHTS}#set_light_power", {"lightId": "kitchen-pendant", "power": "ON"})
        dimmed = await returns(lights, f"{LIGHTS}#dim_light", {"lightId": "bedroom-lamp", "brightness": 10})
        everything = await returns(lights, f"{LIGHTS}#list_lights")
        return kitchen, on, dimmed, everything

    kitchen, on, dimmed, everything = run(scenario())
    assert [light["lightId"] for light in kitchen] == ["kitchen-pendant"]
    assert on["isOn"] is True
    assert (dimmed["isOn"], dimmed["brightness"]) == (True, 10)
    assert len(everything) == 5


@pytest.mark.parametrize(
    ("function", "params", "error_type", "text"),
    [
        ("set_light_power", {"lightId": "kitchen-pendant", "power": "DIM"}, AppFunctionInvalidArgumentException, "ON, OFF"),
        ("dim_light", {"lightId": "porch", "brightness": 0}, AppFunctionInvalidArgumentException, "from 1 to 100"),
        ("dim_light", {"lightId": "garage", "brightness": 50}, AppFunctionElementNotFoundException, "garage"),
    ],
)
def test_lights_errors(function, params, error_type, text):
    error = run(fails(service("lights", LIGHTS), f"{LIGHTS}#{function}", params))
    assert type(error) is error_type and text in error.error_message


# --------------------------------------------------------------------------- booking
BOOKING = "com.example.booking.BookingFunctionService"
JUNE_14 = AppFunctionData(year=2025, month=6, dayOfMonth=14)


def at(hour: int, minute: int = 0) -> AppFunctionData:
    return AppFunctionData(hour=hour, minute=minute, second=0, nanoOfSecond=0)


def test_search_book_and_cancel_a_table():
    booking = service("booking", BOOKING)

    async def scenario():
        options = await returns(
            booking, f"{BOOKING}#search_tables", {"date": JUNE_14, "time": at(19), "partySize": 2, "cuisine": "Italian"}
        )
        booked = await returns(
            booking,
            f"{BOOKING}#book_table",
            {"restaurantId": "trattoria-roma", "date": JUNE_14, "time": at(19), "partySize": 2, "guestName": "Sam"},
        )
        duplicate = await fails(
            booking,
            f"{BOOKING}#book_table",
            {"restaurantId": "trattoria-roma", "date": JUNE_14, "time": at(19), "partySize": 2, "guestName": "sam"},
        )
        cancelled = await returns(booking, f"{BOOKING}#cancel_booking", {"bookingId": booked["bookingId"]})
        return options, booked, duplicate, cancelled

    options, booked, duplicate, cancelled = run(scenario())
    assert options and all(o["cuisine"] == "Italian" for o in options)
    assert options[0]["time"].to_python() == {"hour": 19, "minute": 0, "second": 0, "nanoOfSecond": 0}
    assert booked["status"] == "CONFIRMED"
    link = booked["openInApp"]
    assert link.qualified_name == "android.app.PendingIntent"
    assert link["intent"]["className"] == "com.example.booking.BookingActivity"
    assert link["flags"] & (1 << 26)  # FLAG_IMMUTABLE
    assert type(duplicate) is AppFunctionElementAlreadyExistsException
    assert cancelled["status"] == "CANCELLED"


def test_a_fully_booked_time_is_limit_exceeded():
    booking = service("booking", BOOKING)

    async def scenario():
        params = {"restaurantId": "le-petit-bistro", "date": JUNE_14, "time": at(20), "partySize": 8}
        await returns(booking, f"{BOOKING}#book_table", {**params, "guestName": "First"})
        return await fails(booking, f"{BOOKING}#book_table", {**params, "guestName": "Second"})

    assert type(run(scenario())) is AppFunctionLimitExceededException


def test_cancel_booking_is_destructive():
    functions, _ = build_metadata(load_app_service_class(APPS / "booking", BOOKING))
    assert {f.id.rsplit("#", 1)[1] for f in functions if f.is_destructive} == {"cancel_booking"}


# --------------------------------------------------------------------------- weather
WEATHER = "com.example.weather.WeatherFunctionService"


def test_current_weather_is_deterministic_in_both_unit_systems():
    weather = service("weather", WEATHER)

    async def scenario():
        metric = await returns(weather, f"{WEATHER}#get_current_weather", {"location": "Baltimore"})
        imperial = await returns(weather, f"{WEATHER}#get_current_weather", {"location": "baltimore, md", "units": "IMPERIAL"})
        return metric.to_python(), imperial.to_python()

    metric, imperial = run(scenario())
    assert (metric["units"], metric["temperature"], metric["condition"]) == ("METRIC", 17.2, "SUNNY")
    assert (imperial["units"], imperial["temperature"]) == ("IMPERIAL", 63.0)
    assert metric["timeZone"] == {"zoneID": "America/New_York"}
    assert metric["observedAt"] == {"epochSecond": 1749916800, "nanoAdjustment": 0}


def test_weather_for_an_unknown_place_is_element_not_found():
    error = run(fails(service("weather", WEATHER), f"{WEATHER}#get_current_weather", {"location": "Atlantis"}))
    assert type(error) is AppFunctionElementNotFoundException
