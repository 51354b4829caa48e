"""The offline model on the real sample apps (apps/), in a real in-process device.

Prompts of every category, in English, French, Thai and Chinese, written apart from
the eval suite (sim/eval/suites/sample-apps.yaml) so that they test that the
heuristic generalises rather than that it knows the suite. Each test states the
calls a user relies on: the function, and arguments in the shapes the apps declare.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from droid.agent import (
    Agent,
    AgentRunner,
    AppFunctionAgentTools,
    FunctionCall,
    FunctionResponse,
    OfflineModel,
    require_confirmation,
)
from sim.device import Device

from .conftest import run

APPS = Path(__file__).resolve().parents[3] / "apps"
TODAY = dt.date(2025, 6, 1)
TOMORROW = {"year": 2025, "month": 6, "dayOfMonth": 2}


def at(hour: int, minute: int = 0) -> dict:
    return {"hour": hour, "minute": minute, "second": 0, "nanoOfSecond": 0}


def sample_device(folder: Path) -> Device:
    device = Device(folder, isolated_apps=False)
    for app in ("orders", "notes", "lights", "booking", "weather"):
        device.install(APPS / app)
    return device


@pytest.fixture
def device(tmp_path):
    with sample_device(tmp_path / "device") as device:
        yield device


@pytest.fixture(scope="module")
def shared_device(tmp_path_factory):
    """One device for the one-prompt tests below: they check calls, not what the calls changed."""
    with sample_device(tmp_path_factory.mktemp("device")) as device:
        yield device


@pytest.fixture
def agent(device):
    return _agent(device)


@pytest.fixture
def one_prompt_agent(shared_device):
    return _agent(shared_device)


def _agent(device):
    """A session on the sample apps; destructive calls are confirmed with the answers in ``approve``."""
    answers: list[bool] = []
    tools = require_confirmation(AppFunctionAgentTools.discover(device.shell_context()),
                                 lambda name, args: answers.pop(0) if answers else True)
    session = AgentRunner(Agent(tools=tools, max_turns=4), OfflineModel(today=TODAY)).create_session()

    def ask(prompt: str, *approve: bool) -> list:
        answers[:] = list(approve)
        events = run(session, prompt)
        return [(e.name, e.args) for e in events if isinstance(e, FunctionCall) and e.name != "list_lights"], events

    return ask


def calls(agent, prompt: str, *approve: bool) -> list:
    return agent(prompt, *approve)[0]


def test_simple_requests_fill_typed_arguments(agent):
    assert calls(agent, "Track order ORD-7310") == [("fetch_order_details", {"orderId": "ORD-7310"})]
    assert calls(agent, "Show note-1") == [("get_note", {"noteId": "note-1"})]
    assert calls(agent, "Weather in Tokyo in Celsius") == [("get_current_weather", {"location": "Tokyo", "units": "METRIC"})]
    assert calls(agent, "Search for a French restaurant for 4 on 2025-06-20 at 7pm") == [
        ("search_tables", {"date": {"year": 2025, "month": 6, "dayOfMonth": 20}, "time": at(19), "partySize": 4,
                           "cuisine": "French"})]
    assert calls(agent, "Book trattoria-roma for 2 on 2025-06-10 at 19:00 under Ana") == [
        ("book_table", {"restaurantId": "trattoria-roma", "date": {"year": 2025, "month": 6, "dayOfMonth": 10},
                        "time": at(19), "partySize": 2, "guestName": "Ana"})]
    assert calls(agent, "Please create a note: call mom") == [("create_note", {"title": "call mom"})]
    assert calls(agent, "Cancel the order ORD-5117 because it's late", True) == [
        ("cancel_order", {"orderId": "ORD-5117", "reason": "it's late"})]
    assert calls(agent, "Write a note titled Ideas saying buy a kite") == [
        ("create_note", {"title": "Ideas", "content": "buy a kite"})]


def test_set_field_updates_only_the_field_named(agent):
    assert calls(agent, "Change the title of note-1 to Shopping") == [
        ("update_note", {"noteId": "note-1", "title": {"value": "Shopping"}})]
    assert calls(agent, 'Set the text of note-1 to "Call the bank"') == [
        ("update_note", {"noteId": "note-1", "content": {"value": "Call the bank"}})]
    assert calls(agent, "Clear the text of note-1") == [("update_note", {"noteId": "note-1", "content": {"value": None}})]
    _, events = agent("Update note-1")
    assert not any(isinstance(e, FunctionCall) for e in events), "an update that changes nothing is asked about"
    assert "title or the content" in events[-1].text


def test_lights_are_found_by_what_the_user_calls_them(agent):
    assert calls(agent, "Switch on the kitchen pendant") == [("set_light_power", {"lightId": "kitchen-pendant", "power": "ON"})]
    assert calls(agent, "Set the porch light brightness to 75%") == [("dim_light", {"lightId": "porch", "brightness": 75})]
    assert calls(agent, "Set the living room ceiling light to 25%") == [
        ("dim_light", {"lightId": "living-room-ceiling", "brightness": 25})], "a percentage picks the dimmer"
    assert calls(agent, "Which lights are there in the bedroom?") == []  # list_lights itself is left out of calls()
    _, events = agent("Turn off a lamp")
    assert not any(isinstance(e, FunctionCall) for e in events) and events[-1].text.endswith("?"), "which one? it asks"


def test_parallel_requests_make_one_call_each(agent):
    assert calls(agent, "Weather in Bangkok and London please") == [
        ("get_current_weather", {"location": "Bangkok"}), ("get_current_weather", {"location": "London"})]
    assert calls(agent, "Look up orders ORD-7310, ORD-5117 and ORD-8492") == [
        ("fetch_order_details", {"orderId": i}) for i in ("ORD-7310", "ORD-5117", "ORD-8492")]
    # The note is written at once; the light once list_lights has told which one is the porch light.
    assert calls(agent, 'Switch off the porch light and create a note "Porch checked"') == [
        ("create_note", {"title": "Porch checked"}), ("set_light_power", {"lightId": "porch", "power": "OFF"})]


@pytest.mark.parametrize("prompt", ["Tell me a joke", "Delete note-1", "Book a hotel room in Paris", "Water the plants",
                                    "Don't turn on the porch light",
                                    "Que penses-tu de la musique ?", "帮我叫一辆出租车"])
def test_irrelevant_requests_call_nothing(one_prompt_agent, prompt):
    assert calls(one_prompt_agent, prompt) == []


def test_missing_information_is_asked_for_and_the_reply_completes_the_call(agent):
    _, events = agent("Cancel my booking")
    assert not any(isinstance(e, FunctionCall) for e in events) and "booking id" in events[-1].text
    assert calls(agent, "BK-1000") == [("cancel_booking", {"bookingId": "BK-1000"})]
    _, events = agent("Dim the kitchen pendant")
    assert not any(isinstance(e, FunctionCall) for e in events)
    assert "the brightness" in events[-1].text and events[-1].text.endswith("?")
    assert calls(agent, "to 30 percent") == [("dim_light", {"lightId": "kitchen-pendant", "brightness": 30})]


def test_a_conversation_carries_over(agent):
    assert calls(agent, "Weather in London") == [("get_current_weather", {"location": "London"})]
    assert calls(agent, "What about Tokyo?") == [("get_current_weather", {"location": "Tokyo"})]
    assert calls(agent, "Create a note called Plans") == [("create_note", {"title": "Plans"})]
    assert calls(agent, 'Rename it to "Holidays"') == [("update_note", {"noteId": "note-2", "title": {"value": "Holidays"}})]


def test_a_declined_destructive_call_is_not_reported_as_done(agent):
    made, events = agent("Please cancel order ORD-7310", False)
    assert made == [("cancel_order", {"orderId": "ORD-7310"})]
    assert "declined" in events[-1].text
    made, events = agent("Cancel order ORD-8492", True)  # shipped: the app refuses, the answer says so
    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert response.response.get("cancelled") is False or response.is_error
    assert events[-1].text.startswith("I could") and "Done" not in events[-1].text


@pytest.mark.parametrize("prompt, expected", [
    ("Allume la lumière de la cuisine", [("set_light_power", {"lightId": "kitchen-pendant", "power": "ON"})]),
    ("Quelle est la météo à Londres ?", [("get_current_weather", {"location": "London"})]),
    ("Cherche une table pour 2 le 20 juin à 19h30",
     [("search_tables", {"date": {"year": 2025, "month": 6, "dayOfMonth": 20}, "time": at(19, 30), "partySize": 2})]),
    ("Mets la lampe de chevet à 30 %", [("dim_light", {"lightId": "bedroom-lamp", "brightness": 30})]),
    ("ปิดไฟห้องนอน", [("set_light_power", {"lightId": "bedroom-lamp", "power": "OFF"})]),
    ("ค้นหาโต๊ะอาหารญี่ปุ่นสำหรับ 3 คน พรุ่งนี้ 20:00",  # "อา" (Sunday) inside "อาหาร" is not a date
     [("search_tables", {"date": TOMORROW, "time": at(20), "partySize": 3, "cuisine": "Japanese"})]),
    ("สถานะคำสั่งซื้อ ORD-5117", [("fetch_order_details", {"orderId": "ORD-5117"})]),
    ("หาโต๊ะสำหรับ 2 คน พรุ่งนี้ 19:00", [("search_tables", {"date": TOMORROW, "time": at(19), "partySize": 2})]),
    ("取消订单 ORD-7310", [("cancel_order", {"orderId": "ORD-7310"})]),
    ("东京天气怎么样", [("get_current_weather", {"location": "Tokyo"})]),
    ("把门廊的灯关掉", [("set_light_power", {"lightId": "porch", "power": "OFF"})]),
    ("帮我找一张明天晚上7点两个人的桌子", [("search_tables", {"date": TOMORROW, "time": at(19), "partySize": 2})]),
])
def test_french_thai_and_chinese_prompts(one_prompt_agent, prompt, expected):
    assert calls(one_prompt_agent, prompt) == expected


@pytest.mark.parametrize("prompt, looked_at", [
    ("Should I cancel ORD-7310?", ("fetch_order_details", {"orderId": "ORD-7310"})),
    ("If I delete note-1, can I get it back?", ("get_note", {"noteId": "note-1"})),
    ("before I cancel ORD-8492 show me what it holds", ("fetch_order_details", {"orderId": "ORD-8492"})),
    ("Has ORD-8492 shipped?", ("fetch_order_details", {"orderId": "ORD-8492"})),
])
def test_a_destructive_verb_in_a_question_or_condition_only_looks(one_prompt_agent, prompt, looked_at):
    assert calls(one_prompt_agent, prompt) == [looked_at]


@pytest.mark.parametrize("prompt", ["I don't want to cancel ORD-8492", "Please do not cancel ORD-5117",
                                    "No, do not cancel BK-1000"])
def test_a_negated_destructive_verb_is_never_done(one_prompt_agent, prompt):
    made, events = one_prompt_agent(prompt)
    assert made == [] and not any(isinstance(e, FunctionCall) for e in events)
    assert events[-1].text.startswith("You asked me not to cancel "), events[-1].text


def test_a_request_put_as_a_question_is_still_done(one_prompt_agent):
    assert calls(one_prompt_agent, "Could you cancel ORD-7310?", False) == [("cancel_order", {"orderId": "ORD-7310"})]
    assert calls(one_prompt_agent, "What did I buy in ORD-8492? Cancel it.", False)[-1][0] == "cancel_order"


def test_a_yes_no_question_about_a_light_lists_and_changes_nothing(one_prompt_agent):
    _, events = one_prompt_agent("Was the kitchen pendant left on?")
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["list_lights"]


def test_synonyms_pick_the_right_one_of_similar_functions(one_prompt_agent):
    assert calls(one_prompt_agent, "Drop booking BK-1000 please", False) == [("cancel_booking", {"bookingId": "BK-1000"})]
    assert calls(one_prompt_agent, "What's the weather in London, and did ORD-8492 arrive?") == [
        ("get_current_weather", {"location": "London"}), ("fetch_order_details", {"orderId": "ORD-8492"})]


def test_a_piece_that_gives_every_required_value_needs_no_noun(one_prompt_agent):
    assert calls(one_prompt_agent, "Write down: pick up dry cleaning") == [("create_note", {"title": "pick up dry cleaning"})]
    assert calls(one_prompt_agent, "Humidity in Paris?") == [("get_current_weather", {"location": "Paris"})]
    assert calls(one_prompt_agent, "Create an alarm for 7am") == [], "a generic verb with nothing filled picks nothing"


def test_the_guest_name_said_as_my_name_is(one_prompt_agent):
    assert calls(one_prompt_agent, "Book trattoria-roma for 3 on 2025-06-12 at 20:00, my name is Pierre") == [
        ("book_table", {"restaurantId": "trattoria-roma", "date": {"year": 2025, "month": 6, "dayOfMonth": 12},
                        "time": at(20), "partySize": 3, "guestName": "Pierre"})]
