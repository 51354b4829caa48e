"""The τ² apps behave as τ²'s tools, quirks included (docs/benchmarks.md, "Quirks kept"), and raise
the AppFunction exception of each error's meaning. One device per domain (tests/unit/tau2/conftest.py);
each test loads the database it starts from."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from sim.tau2 import DomainDevice, Snapshot
from sim.tau2.appkit import record_text
from sim.tau2.direct import DirectApp
from sim.tau2.gold import replay_gold


def altered(snapshot: Snapshot, collection: str, key: str, change: Callable[[dict], Any]) -> Snapshot:
    """The snapshot with one record changed (for a case the data does not have)."""
    texts = {name: dict(records) for name, records in snapshot.texts.items()}
    record = json.loads(texts[collection][key])
    change(record)
    texts[collection][key] = record_text(record)
    return Snapshot(snapshot.domain, snapshot.dialect, texts)


def ok(outcome):
    assert outcome.ok, outcome.error_json()
    return outcome.result


def code(outcome) -> str:
    assert not outcome.ok, outcome.result
    return outcome.error.error_name


def records(app, collection: str) -> dict[str, Any]:
    state = app.state()
    return {key: state.record(collection, key) for key in state.keys(collection)}


# --- retail ------------------------------------------------------------------------------------

def _alternative(products: dict, item: dict) -> str:
    variants = products[item["product_id"]]["variants"]
    return next(v for v, variant in variants.items() if v != item["item_id"] and variant["available"])


def test_changed_items_all_take_the_last_new_items_price_and_options(shop, retail):
    shop.load()
    products, orders = records(shop, "products"), records(shop, "orders")
    order_id, order = next((k, o) for k, o in orders.items() if o["status"] == "pending" and len(o["items"]) >= 2
                           and o["items"][0]["product_id"] != o["items"][1]["product_id"])
    first, second = order["items"][:2]
    new = [_alternative(products, first), _alternative(products, second)]
    method = order["payment_history"][0]["payment_method_id"]
    result = ok(shop.call("modify_pending_order_items", {"order_id": order_id, "item_ids": [first["item_id"], second["item_id"]],
                                                         "new_item_ids": new, "payment_method_id": method}))
    last = products[second["product_id"]]["variants"][new[1]]
    after = shop.state().record("orders", order_id)
    assert [i["item_id"] for i in after["items"][:2]] == new
    assert [i["price"] for i in after["items"][:2]] == [last["price"], last["price"]]
    assert after["items"][0]["options"] == last["options"]
    first_new = products[first["product_id"]]["variants"][new[0]]
    difference = first_new["price"] - first["price"] + last["price"] - second["price"]  # not rounded
    assert after["payment_history"][-1]["amount"] == abs(difference)
    assert result["status"] == after["status"] == "pending (item modified)"


def test_a_swap_of_two_items_changes_the_first_twice(shop):
    shop.load()
    order_id, a, b = "#W9318778", "5669664287", "3076708684"  # two available items of one product
    before = shop.state().record("orders", order_id)
    assert {a, b} <= {i["item_id"] for i in before["items"]}
    method = before["payment_history"][0]["payment_method_id"]
    ok(shop.call("modify_pending_order_items", {"order_id": order_id, "item_ids": [a, b], "new_item_ids": [b, a],
                                                "payment_method_id": method}))
    after = shop.state().record("orders", order_id)
    assert [i["item_id"] for i in after["items"]] == [i["item_id"] for i in before["items"]]
    assert after["status"] == "pending (item modified)"


def test_a_cancelled_order_whose_payment_was_changed_gets_three_refunds(shop):
    shop.load()
    users, orders = records(shop, "users"), records(shop, "orders")
    order_id, order, card = next(
        (k, o, g) for k, o in orders.items() if o["status"] == "pending" and len(o["payment_history"]) == 1
        for g, m in users[o["user_id"]]["payment_methods"].items()
        if m["source"] == "gift_card" and m["balance"] >= o["payment_history"][0]["amount"]
        and g != o["payment_history"][0]["payment_method_id"])
    paid = order["payment_history"][0]
    ok(shop.call("modify_pending_order_payment", {"order_id": order_id, "payment_method_id": card}))
    assert shop.state().record("orders", order_id)["status"] == "pending"
    ok(shop.call("cancel_pending_order", {"order_id": order_id, "reason": "no longer needed"}))
    history = shop.state().record("orders", order_id)["payment_history"]
    assert [(p["transaction_type"], p["payment_method_id"]) for p in history[3:]] == [
        ("refund", paid["payment_method_id"]), ("refund", card), ("refund", paid["payment_method_id"])]


def test_a_cancellation_that_raises_midway_keeps_the_gift_card_credit(shop, retail):
    state = retail.snapshot.state()
    order_id, order = next((k, state.record("orders", k)) for k in state.keys("orders")
                           if state.record("orders", k)["status"] == "pending")
    user_id = order["user_id"]

    def two_payments(record):
        record["payment_history"] = [{"transaction_type": "payment", "amount": 10.0, "payment_method_id": "gift_card_9"},
                                     {"transaction_type": "payment", "amount": 5.0, "payment_method_id": "paypal_gone"}]

    def with_gift_card(record):
        record["payment_methods"]["gift_card_9"] = {"source": "gift_card", "id": "gift_card_9", "balance": 1.5}

    snapshot = altered(altered(retail.snapshot, "orders", order_id, two_payments), "users", user_id, with_gift_card)
    shop.load(snapshot)
    assert code(shop.call("cancel_pending_order", {"order_id": order_id, "reason": "ordered by mistake"})) == \
        "ERROR_RESOURCE_NOT_FOUND"
    after = shop.state()
    assert after.record("users", user_id)["payment_methods"]["gift_card_9"]["balance"] == 11.5
    assert after.record("orders", order_id)["status"] == "pending"


def test_an_exchange_of_no_items_records_the_integer_zero(shop):
    shop.load()
    ok(shop.call("exchange_delivered_order_items", {"order_id": "#W4817420", "item_ids": [], "new_item_ids": [],
                                                    "payment_method_id": shop.state().record("orders", "#W4817420")
                                                    ["payment_history"][0]["payment_method_id"]}))
    text = shop.state().text("orders", "#W4817420")
    assert '"exchange_price_difference": 0,' in text and '"status": "exchange requested"' in text


def test_each_error_has_the_code_of_its_meaning(shop):
    shop.load()
    assert code(shop.call("get_order_details", {"order_id": "#W0000000"})) == "ERROR_RESOURCE_NOT_FOUND"
    assert code(shop.call("cancel_pending_order", {"order_id": "#W4817420", "reason": "no longer needed"})) == \
        "ERROR_INVALID_ARGUMENT"
    assert code(shop.call("calculate", {"expression": "2 % 3"})) == "ERROR_INVALID_ARGUMENT"
    assert code(shop.call("get_order_details", {"order_id": "#W4817420", "verbose": True})) == "ERROR_INVALID_ARGUMENT"
    assert code(shop.call("get_order_details", {})) == "ERROR_INVALID_ARGUMENT"
    assert code(shop.call("think", {"thought": "hm"})) == "ERROR_FUNCTION_NOT_FOUND"
    assert not shop.state().changed()


def test_results_are_typed_documents_and_arguments_take_either_name(shop):
    shop.load()
    by_wire = ok(shop.call("get_user_details", {"userId": "yusuf_rossi_9620"}))
    by_tau2 = ok(shop.call("get_user_details", {"user_id": "yusuf_rossi_9620"}))
    assert by_wire == by_tau2
    assert by_tau2["name"] == {"firstName": "Yusuf", "lastName": "Rossi"}
    assert isinstance(by_tau2["paymentMethods"], list) and {"source", "id", "balance"} <= by_tau2["paymentMethods"][0].keys()
    types = ok(shop.call("list_all_product_types", {}))
    assert len(types) == 50 and [t["name"] for t in types] == sorted(t["name"] for t in types)


def test_the_apps_functions_match_taus_tools_and_writes_are_marked_destructive(shop, desk):
    writes = {"retail": {"cancel_pending_order", "exchange_delivered_order_items", "modify_pending_order_address",
                         "modify_pending_order_items", "modify_pending_order_payment", "modify_user_address",
                         "return_delivered_order_items"},
              "airline": {"book_reservation", "cancel_reservation", "send_certificate", "update_reservation_baggages",
                          "update_reservation_flights", "update_reservation_passengers"}}
    for app, count in ((shop, 16), (desk, 14)):
        assert len(app.functions) == count
        destructive = {name for name, f in app.functions.items() if f.is_destructive}
        assert destructive == writes[app.domain.name]


def test_a_reset_gives_a_fresh_database_without_restarting_the_app(shop):
    shop.load()
    ok(shop.call("modify_user_address", {"user_id": "yusuf_rossi_9620", "address1": "1 A St", "address2": "",
                                         "city": "X", "state": "PA", "country": "USA", "zip": "19122"}))
    assert shop.state().changed()
    shop.load()
    assert not shop.state().changed()
    shop.device.shell_context().get_system_service("package").clear_package_data(shop.package.package_name)
    assert code(shop.call("get_user_details", {"user_id": "yusuf_rossi_9620"})) == "ERROR_APP_UNKNOWN_ERROR"
    shop.load()
    assert ok(shop.call("get_user_details", {"user_id": "yusuf_rossi_9620"}))["address"]["city"] == "Philadelphia"


def test_the_apps_functions_in_process_leave_the_same_databases(shop, retail):
    direct = DirectApp(retail)
    try:
        for task in retail.tasks()[:6]:
            assert replay_gold(direct, task.actions).state.matches(replay_gold(shop, task.actions).state)
    finally:
        direct.close()


# --- airline -----------------------------------------------------------------------------------

BOOKING = {"user_id": "mia_li_3668", "origin": "JFK", "destination": "SEA", "flight_type": "one_way",
           "cabin": "economy", "flights": [{"flight_number": "HAT136", "date": "2024-05-20"},
                                           {"flight_number": "HAT039", "date": "2024-05-20"}],
           "passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}],
           "payment_methods": [{"payment_id": "credit_card_4421486", "amount": 0}],
           "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}


def _price(app) -> int:
    state = app.state()
    return sum(state.record("flights", f["flight_number"])["dates"][f["date"]]["prices"]["economy"]
               for f in BOOKING["flights"])


def _booking(app, **changes) -> dict:
    booking = {**BOOKING, "payment_methods": [{"payment_id": "credit_card_4421486", "amount": _price(app)}]}
    return {**booking, **changes}


def _seats(app) -> int:
    return app.state().record("flights", "HAT136")["dates"]["2024-05-20"]["available_seats"]["economy"]


def test_a_booking_takes_seats_in_tau2_and_none_in_v1(desk, desk_v1):
    for app, taken in ((desk, 1), (desk_v1, 0)):
        app.load()
        seats = _seats(app)
        result = ok(app.call("book_reservation", _booking(app)))
        assert result["reservationId"] == "HATHAT" and _seats(app) == seats - taken
        reservation = app.state().record("reservations", "HATHAT")
        assert ("status" in reservation) is (app is desk)  # τ²'s model dumps status: null
        assert app.state().record("users", "mia_li_3668")["reservations"][-1] == "HATHAT"


def test_a_fourth_booking_is_refused_in_tau2_and_replaces_the_third_in_v1(desk, desk_v1):
    for app in (desk, desk_v1):
        app.load()
        for expected in ("HATHAT", "HATHAU", "HATHAV"):
            assert ok(app.call("book_reservation", _booking(app)))["reservationId"] == expected
        fourth = app.call("book_reservation", _booking(app, total_baggages=1))
        if app is desk:
            assert code(fourth) == "ERROR_LIMIT_EXCEEDED"
        else:
            assert ok(fourth)["reservationId"] == "HATHAV"
            assert app.state().record("reservations", "HATHAV")["total_baggages"] == 1


def test_a_certificate_named_twice_fails_midway_and_a_gift_card_named_twice_goes_negative(desk, airline):
    def rich(amount: float, source: str):
        def change(user):
            user["payment_methods"] = {"x_1": {"source": source, "id": "x_1", "amount": amount}}
        return change

    desk.load()
    price = _price(desk)
    half = [{"payment_id": "x_1", "amount": price // 2}, {"payment_id": "x_1", "amount": price - price // 2}]
    desk.load(altered(airline.snapshot, "users", "mia_li_3668", rich(float(price), "certificate")))
    seats = _seats(desk)
    assert code(desk.call("book_reservation", {**BOOKING, "payment_methods": half})) == "ERROR_RESOURCE_NOT_FOUND"
    user = desk.state().record("users", "mia_li_3668")
    assert user["payment_methods"] == {} and "HATHAT" not in user["reservations"] and _seats(desk) == seats
    desk.load(altered(airline.snapshot, "users", "mia_li_3668", rich(price / 2 + 1, "gift_card")))
    ok(desk.call("book_reservation", {**BOOKING, "payment_methods": half}))
    assert desk.state().record("users", "mia_li_3668")["payment_methods"]["x_1"]["amount"] == price / 2 + 1 - price


def test_a_flight_change_sets_the_cabin_in_tau2_and_keeps_it_in_v1(desk, desk_v1):
    for app in (desk, desk_v1):
        app.load()
        reservation = app.state().record("reservations", "4WQ150")
        flights = [{"flight_number": f["flight_number"], "date": f["date"], "origin": "ignored"}
                   for f in reservation["flights"]]
        card = "gift_card_3576581"
        balance = app.state().record("users", "chen_jackson_3290")["payment_methods"][card]["amount"]
        outcome = app.call("update_reservation_flights", {"reservation_id": "4WQ150", "cabin": "economy",
                                                          "flights": flights, "payment_id": card})
        assert ok(outcome)["cabin"] == ("economy" if app is desk else "business")
        refund = app.state().record("reservations", "4WQ150")["payment_history"][-1]["amount"]
        assert refund < 0  # economy costs less: a negative payment, credited to the gift card
        assert app.state().record("users", "chen_jackson_3290")["payment_methods"][card]["amount"] == balance - refund


def test_send_certificate_stores_a_float_in_tau2_and_the_number_given_in_v1(desk, desk_v1):
    for app, stored in ((desk, "100.0"), (desk_v1, "100")):
        app.load()
        assert ok(app.call("send_certificate", {"user_id": "mia_li_3668", "amount": 100})) == \
            "Certificate certificate_3221322 added to user mia_li_3668 with amount 100."
        assert f'"certificate_3221322": {{"amount": {stored},' in app.state().text("users", "mia_li_3668")


def test_overnight_connections_are_not_found_from_the_first_to_the_eighth(desk, airline):
    desk.load()
    state = desk.state()
    flights = [state.record("flights", k) for k in state.keys("flights")]
    first, second = next((a, b) for a in flights if "+1" in a["scheduled_arrival_time_est"]
                         and a["dates"].get("2024-05-20", {}).get("status") == "available" for b in flights
                         if b["origin"] == a["destination"] and b["dates"].get("2024-05-21", {}).get("status") ==
                         "available" and b["scheduled_departure_time_est"] >= a["scheduled_arrival_time_est"])
    search = {"origin": first["origin"], "destination": second["destination"]}
    trips = ok(desk.call("search_onestop_flight", {**search, "date": "2024-05-20"}))
    assert {"first": first["flight_number"], "second": second["flight_number"], "on": "2024-05-21"} in [
        {"first": t["first"]["flightNumber"], "second": t["second"]["flightNumber"], "on": t["second"]["date"]}
        for t in trips]
    # The same two flights on 5 and 6 May (the data's are in the past): τ² looks for the second on "2024-05-6".
    snapshot = airline.snapshot
    for flight, day, copied in ((first, "2024-05-05", "2024-05-20"), (second, "2024-05-06", "2024-05-21")):
        snapshot = altered(snapshot, "flights", flight["flight_number"],
                           lambda record, day=day, copied=copied: record["dates"].update({day: record["dates"][copied]}))
    desk.load(snapshot)
    trips = ok(desk.call("search_onestop_flight", {**search, "date": "2024-05-05"}))
    assert not any(t["first"]["flightNumber"] == first["flight_number"] for t in trips)


def test_airline_errors_have_the_code_of_their_meaning(desk):
    desk.load()
    assert code(desk.call("get_reservation_details", {"reservation_id": "NOPE00"})) == "ERROR_RESOURCE_NOT_FOUND"
    assert code(desk.call("get_flight_status", {"flight_number": "HAT001", "date": "2025-01-01"})) == \
        "ERROR_RESOURCE_NOT_FOUND"
    assert code(desk.call("book_reservation", _booking(desk, cabin="first"))) == "ERROR_INVALID_ARGUMENT"
    assert code(desk.call("update_reservation_passengers", {"reservation_id": "4WQ150", "passengers": []})) == \
        "ERROR_INVALID_ARGUMENT"
    card = "gift_card_3576581"
    assert code(desk.call("update_reservation_baggages", {"reservation_id": "4WQ150", "total_baggages": 9,
                                                          "nonfree_baggages": 9, "payment_id": "certificate_0"})) == \
        "ERROR_RESOURCE_NOT_FOUND"
    assert desk.state().record("users", "chen_jackson_3290")["payment_methods"][card]["source"] == "gift_card"
    assert not desk.state().changed()


def test_an_app_in_a_process_of_its_own_gives_the_same_gold_database(retail, shop):
    task = retail.task("0")
    with DomainDevice(retail, processes=True) as device:
        in_process = replay_gold(device.app, task.actions)
    assert in_process.errors == [] and in_process.state.matches(replay_gold(shop, task.actions).state)
