"""Cassettes: recorded calls replayed on typed parameters, checked against the XML at install."""

from __future__ import annotations

from pathlib import Path

import pytest

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionException,
    AppFunctionNotSupportedException,
    ExecuteAppFunctionRequest,
)
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.json_codec import to_json
from droid.binder import wire
from droid.os import IllegalArgumentException
from sim.device import Device
from sim.responses.staging import ResponseOptions
from tests.unit.responses.conftest import CANCEL, FETCH, ORDERS

CASSETTE = Path(__file__).parent / "orders.cassette.yaml"


def call(device, function_id, **parameters):
    manager = device.shell_context().app_function_manager
    return manager.execute_app_function(ExecuteAppFunctionRequest(ORDERS, function_id, AppFunctionData(parameters)))


def stale_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = CASSETTE.read_text()
    assert old in text
    path = tmp_path / "orders.cassette.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


def refused(device, app, options, match):
    with pytest.raises(IllegalArgumentException, match=match):
        device.install(app, responses=options)
    assert device.registry.get(ORDERS) is None
    assert not any((device.data_dir / "app").iterdir())


def test_a_recorded_call_answers_with_its_typed_response(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    details = call(device, FETCH, orderId="ORD-8492").return_value
    assert to_json(details)["items"][1] == {"sku": "SKU-2210", "name": "Merino socks", "quantity": 2}
    assert details["itemCount"] == 3 and details["canCancel"] is False
    assert details["estimatedDelivery"].qualified_name == "java.time.LocalDate"
    assert to_json(details["estimatedDelivery"]) == {"year": 2025, "month": 6, "dayOfMonth": 14}


def test_a_recorded_error_raises_the_named_jetpack_exception(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    with pytest.raises(AppFunctionElementNotFoundException) as raised:
        call(device, FETCH, orderId="ORD-0000")
    assert raised.value.error_code == AppFunctionException.ERROR_RESOURCE_NOT_FOUND
    assert raised.value.error_message == "No order found with ID ORD-0000"


def test_an_omitted_optional_parameter_matches_a_recorded_null(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    assert call(device, CANCEL, orderId="ORD-7310").return_value["cancelled"] is True


def test_an_unrecorded_call_is_not_supported_naming_function_and_parameters(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    with pytest.raises(AppFunctionNotSupportedException) as raised:
        call(device, CANCEL, orderId="ORD-7310", reason="changed my mind")
    assert raised.value.error_message.startswith(
        f'{ORDERS} has no answer for {CANCEL} with parameters {{"orderId": "ORD-7310", "reason": "changed my mind"}}')
    assert "cassette orders.cassette.yaml" in raised.value.error_message


def test_a_value_of_the_wrong_type_refuses_the_install_naming_file_function_and_path(device, kotlin_orders, tmp_path):
    stale = stale_copy(tmp_path, "quantity: 2}", 'quantity: "two"}')
    refused(device, kotlin_orders, ResponseOptions(cassette=stale),
            r"^INSTALL_FAILED_BAD_RESPONSES: orders.cassette.yaml: fetch_order_details\[0\].response.items\[1\]"
            r".quantity: expected an integer, got a string$")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("{orderId: ORD-8492}", "{orderId: ORD-8492, region: EU}",
     r"fetch_order_details\[0\].parameters.region: com.example.orders.OrderFunctionService#fetch_order_details has no such parameter \(it takes: orderId\)"),
    ("{orderId: ORD-8492}", "{order_id: ORD-8492}",
     r"fetch_order_details\[0\].parameters.order_id: com.example.orders.OrderFunctionService#fetch_order_details has no such parameter \(did you mean orderId\?\) \(it takes: orderId\)"),
    ("  cancel_order:", "  refund_order:", r"refund_order: com.example.orders declares no such function"),
    ("code: ERROR_RESOURCE_NOT_FOUND", "code: ERROR_NO_SUCH_THING",
     r"fetch_order_details\[1\].error.code: 'ERROR_NO_SUCH_THING' is not an AppFunctionException error code"),
    ("        canCancel: false\n", "", r"fetch_order_details\[0\].response.canCancel is required"),
    ("package: com.example.orders", "package: com.example.other", r"recorded for package 'com.example.other'"),
])
def test_a_stale_cassette_is_refused_naming_what_is_wrong(device, kotlin_orders, tmp_path, old, new, message):
    refused(device, kotlin_orders, ResponseOptions(cassette=stale_copy(tmp_path, old, new)),
            rf"INSTALL_FAILED_BAD_RESPONSES: orders.cassette.yaml: {message}")


def test_yaml_aliases_are_refused(device, kotlin_orders, tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text("a: &a [x, x]\nb: &b [*a, *a]\ncalls: {}\n")
    refused(device, kotlin_orders, ResponseOptions(cassette=path), r"anchors and aliases are not allowed")


def test_a_cassette_for_an_app_with_code_is_refused(device, tmp_path):
    from tests.helpers import SAMPLE_APPS

    with pytest.raises(IllegalArgumentException, match="has Python code of its own: --responses"):
        device.install(SAMPLE_APPS / "orders", responses=ResponseOptions(cassette=CASSETTE))


def test_an_update_keeps_the_cassette_and_checks_it_against_the_new_xml(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    device.install(kotlin_orders)  # a new build, no options: the cassette stays
    assert call(device, FETCH, orderId="ORD-8492").return_value["itemCount"] == 3
    xml = kotlin_orders / "assets" / "order_functions.xml"
    xml.write_text(xml.read_text().replace("<name>itemCount</name>", "<name>unitCount</name>")
                   .replace("<required>itemCount</required>", "<required>unitCount</required>"))
    with pytest.raises(IllegalArgumentException, match=r"orders.cassette.yaml: fetch_order_details\[0\].response: unknown field 'itemCount'"):
        device.install(kotlin_orders)
    assert call(device, FETCH, orderId="ORD-8492").return_value["itemCount"] == 3  # the old version stands


def test_replayed_answers_are_byte_identical_across_a_restart(tmp_path, kotlin_orders):
    """In an app process of its own, as on a served device."""
    def answer_bytes(device):
        return wire.data_to_proto(call(device, FETCH, orderId="ORD-8492").result_document).SerializeToString()

    with Device(tmp_path / "proc") as device:
        device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
        before = answer_bytes(device)
    with Device(tmp_path / "proc") as device:
        assert answer_bytes(device) == before
        assert device.registry.get(ORDERS).metadata.answers.cassette == "orders.cassette.yaml"


def test_a_cassette_nested_beyond_reason_is_refused(device, kotlin_orders, tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("calls: " + "[" * 100_000 + "]" * 100_000 + "\n")
    refused(device, kotlin_orders, ResponseOptions(cassette=path), r"deep.yaml: nests too deep to be a cassette")


@pytest.mark.parametrize("value", ["!!binary aGVsbG8=", "!!set {a, b}", ".nan"])
def test_a_yaml_value_json_has_no_form_for_is_refused(device, kotlin_orders, tmp_path, value):
    path = stale_copy(tmp_path, "{orderId: ORD-8492}", f"{{orderId: {value}}}")
    refused(device, kotlin_orders, ResponseOptions(cassette=path), r"orders.cassette.yaml: holds a value JSON has no form for")


@pytest.mark.parametrize("parameters, message", [
    ({"orderId": 5}, "Parameter orderId: expected a string, got the number 5"),
    ({}, "Parameter orderId should be the type of AppFunctionStringTypeMetadata(isNullable=false, description=, "
         "patternMatchers=null, format=null, enumValues=null)\n"
         "Parameter orderId is required: the request has no value for it"),
    ({"orderId": None}, "Parameter orderId must not be null"),
])
@pytest.mark.parametrize("source", ["cassette", "nothing"])
def test_a_wrongly_typed_argument_is_invalid_whatever_answers(device, kotlin_orders, parameters, message, source):
    """As the app's generated code reads the parameters before any of its own runs: the same
    ERROR_INVALID_ARGUMENT a double or an app with code gives, never ERROR_NOT_SUPPORTED."""
    from droid.appfunctions import AppFunctionInvalidArgumentException

    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE) if source == "cassette" else ResponseOptions())
    with pytest.raises(AppFunctionInvalidArgumentException) as raised:
        call(device, FETCH, **parameters)
    assert raised.value.error_message == message


def test_a_property_that_is_no_parameter_is_ignored_as_jetpack_ignores_it(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE))
    assert call(device, FETCH, orderId="ORD-8492", note="ignored").return_value["itemCount"] == 3
