"""The offline heuristic model: picks a tool, fills arguments by type, asks, phrases the answer."""

from __future__ import annotations

import datetime as dt

import pytest

from droid.agent import Agent, AgentRunner, AppFunctionAgentTools, FunctionCall, FunctionResponse, OfflineModel
from droid.agent.messages import Message, ToolDeclaration
from droid.agent.models import ModelRequest

from .conftest import run
from .fakes import FETCH


def offline_session(manager):
    return AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)), OfflineModel()).create_session()


def decide(prompt: str, tools, today=dt.date(2025, 6, 1)):
    declarations = tuple(t if isinstance(t, ToolDeclaration) else t.declaration() for t in tools)
    return OfflineModel(today=today).respond(ModelRequest("", (Message.user(prompt),), declarations))


def test_where_is_my_order_calls_fetch_order_details_and_answers_with_the_status(manager, service):
    events = run(offline_session(manager), "Where is my order ORD-8492?")
    call = next(e for e in events if isinstance(e, FunctionCall))
    assert (call.name, call.args, call.function_id) == ("fetch_order_details", {"orderId": "ORD-8492"}, FETCH)
    assert service.executed == [FETCH]
    answer = events[-1].text
    assert "SHIPPED" in answer and "ORD-8492" in answer


def test_a_missing_required_argument_is_asked_for_and_the_reply_completes_the_call(manager, service):
    session = offline_session(manager)
    events = run(session, "Where is my order?")
    assert not any(isinstance(e, FunctionCall) for e in events)
    question = events[-1].text
    assert "order id" in question and question.endswith("?")
    assert service.calls == []

    events = run(session, "It is ORD-8492")
    call = next(e for e in events if isinstance(e, FunctionCall))
    assert (call.name, call.args) == ("fetch_order_details", {"orderId": "ORD-8492"})
    assert "SHIPPED" in events[-1].text


def test_an_error_is_explained(manager):
    events = run(offline_session(manager), "Where is my order ORD-0000?")
    assert next(e for e in events if isinstance(e, FunctionResponse)).is_error
    assert "Order ORD-0000 not found" in events[-1].text


def test_destructive_functions_only_when_the_user_says_so(manager):
    tools = AppFunctionAgentTools.discover(manager)
    assert decide("What's the status of order ORD-8492?", tools).tool_requests[0].name == "fetch_order_details"
    cancel = decide("Cancel order ORD-8492", tools).tool_requests[0]
    assert (cancel.name, cancel.args) == ("cancel_order", {"orderId": "ORD-8492"})
    quoted = decide('Please cancel ORD-8492, reason "wrong size"', tools).tool_requests[0]
    assert quoted.args == {"orderId": "ORD-8492", "reason": "wrong size"}


def test_irrelevant_prompts_call_nothing(manager):
    response = decide("What's the weather in Paris?", AppFunctionAgentTools.discover(manager))
    assert response.tool_requests == [] and "fetch order details" in response.text


BOOK = ToolDeclaration("book_table", "Books a table at the restaurant.", {
    "type": "object",
    "properties": {
        "date": {"type": "string", "format": "date"},
        "time": {"type": "string"},
        "partySize": {"type": "integer"},
        "seating": {"type": "string", "enum": ["INDOOR", "OUTDOOR"]},
        "highChair": {"type": "boolean"},
        "note": {"type": "string"},
    },
    "required": ["date", "partySize"],
})
LIGHTS = ToolDeclaration("set_light", "Turns a light on or off.", {
    "type": "object",
    "properties": {"room": {"type": "string", "enum": ["kitchen", "living_room"]}, "on": {"type": "boolean"}},
    "required": ["room", "on"],
})


def test_arguments_are_filled_by_type():
    (call,) = decide('Book a table for 4 on 2025-06-07 at 19:30, outdoor seating, note "birthday"', [BOOK, LIGHTS]).tool_requests
    assert call.name == "book_table"
    assert call.args == {"date": "2025-06-07", "time": "19:30", "partySize": 4, "seating": "OUTDOOR", "note": "birthday"}
    (call,) = decide("Book a table tomorrow for 2, with a high chair", [BOOK]).tool_requests
    assert call.args == {"date": "2025-06-02", "partySize": 2, "highChair": True}
    (call,) = decide("Book a table tomorrow for 2, no high chair", [BOOK]).tool_requests
    assert call.args["highChair"] is False


def test_enum_and_boolean_values():
    (call,) = decide("Turn off the living room light", [BOOK, LIGHTS]).tool_requests
    assert call.args == {"room": "living_room", "on": False}
    (call,) = decide("Switch the kitchen light on", [LIGHTS]).tool_requests
    assert call.args == {"room": "kitchen", "on": True}


@pytest.mark.parametrize("prompt", ["Book a table for 4", "Book a table on 2025-06-07"])
def test_asks_for_each_missing_required_argument(prompt):
    response = decide(prompt, [BOOK])
    assert response.tool_requests == []
    missing = "date" if "for 4" in prompt else "party size"
    assert f"the {missing}" in response.text


def test_without_tools_it_says_what_it_is():
    response = OfflineModel().respond(ModelRequest("", (Message.user("hello"),), ()))
    assert "offline stand-in" in response.text


WEATHER = ToolDeclaration("get_current_weather", "Gets the current weather for a city.", {
    "type": "object",
    "properties": {"location": {"type": "string", "description": "The city"}},
    "required": ["location"],
})


def test_a_place_after_a_preposition_fills_a_location():
    (call,) = decide("What's the weather in Paris?", [WEATHER, BOOK]).tool_requests
    assert call.args == {"location": "Paris"}
    (call,) = decide("weather for San Francisco, CA please", [WEATHER]).tool_requests
    assert call.args == {"location": "San Francisco, CA"}
    assert decide("what's the weather like", [WEATHER]).tool_requests == []


NOTE_ID = {"type": "object", "properties": {"noteId": {"type": "string", "description": "The note, for example note-1."}},
           "required": ["noteId"]}
PIN = ToolDeclaration("pin_note", "Pins a note to the top of the list.", NOTE_ID)
ARCHIVE = ToolDeclaration("archive_note", "Moves a note to the archive.", NOTE_ID)


def test_similar_functions_are_told_apart_by_verb_and_description_or_asked_about():
    assert [r.name for r in decide("Pin note-1", [ARCHIVE, PIN]).tool_requests] == ["pin_note"]
    assert [r.name for r in decide("Put note-1 in the archive", [PIN, ARCHIVE]).tool_requests] == ["archive_note"]
    response = decide("note-1", [PIN, ARCHIVE])
    assert response.tool_requests == [], "two equally good fits: it does not guess"
    assert "pin note or archive note?" in response.text


def test_dates_times_and_instants_are_said_as_iso_text_not_as_their_fields():
    from droid.agent.messages import ToolResponse
    from droid.agent.models.offline.answers import phrase

    booking = {"bookingId": "BK-1", "departure": {"year": 2026, "month": 3, "dayOfMonth": 14, "hour": 10, "minute": 30,
                                                  "second": 0, "nanoOfSecond": 0},
               "returnDate": {"year": 2026, "month": 3, "dayOfMonth": 21}, "boarding": {"hour": 9, "minute": 45,
                                                                                       "second": 0, "nanoOfSecond": 0},
               "bookedAt": {"epochSecond": 1773480600, "nanoAdjustment": 0}, "zone": {"zoneID": "Europe/Lisbon"}}
    said = phrase(ToolResponse(id="c1", name="getBooking", output=booking))
    assert said == ("Here is what get booking returned: booking id: BK-1, departure: 2026-03-14 10:30, return date: "
                    "2026-03-21, boarding: 09:45, booked at: 2026-03-14 09:30 UTC, zone: Europe/Lisbon.")
    odd = {"year": 2026, "month": 13, "dayOfMonth": 1}  # no date: said as it is
    assert phrase(ToolResponse(id="c2", name="getThing", output=odd)) == (
        "Here is what get thing returned: year: 2026, month: 13, day of month: 1.")
