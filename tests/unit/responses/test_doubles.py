"""Doubles: Python services standing in for a Kotlin app's code, checked against its XML."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from droid.appfunctions import AppFunctionAppUnknownException, AppFunctionNotSupportedException, ExecuteAppFunctionRequest
from droid.appfunctions.json_codec import parameters_from_json
from droid.os import IllegalArgumentException
from sim.pm.app_parser import parse_app
from sim.pm.code_verifier import InProcessCodeVerifier
from sim.responses.generated import GENERATED_EXTRA, generated_json
from sim.responses.skeleton import SkeletonError, write_skeleton
from sim.responses.staging import ResponseOptions
from tests.helpers import SAMPLE_APPS
from tests.unit.responses.conftest import CANCEL, FETCH, ORDERS, ORDERS_DOUBLE, code_less_copy
from tests.unit.responses.test_cassette import CASSETTE, call

DOUBLE = ORDERS_DOUBLE


def skeleton_of(app: Path, out: Path) -> Path:
    write_skeleton(parse_app(app, InProcessCodeVerifier(), lambda manifest: None).metadata, out)
    return out


def test_a_stateful_double_sees_its_own_cancellation(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(double_dir=DOUBLE))
    assert call(device, FETCH, orderId="ORD-7310").return_value["status"] == "PROCESSING"
    assert call(device, CANCEL, orderId="ORD-7310").return_value["cancelled"] is True
    assert call(device, FETCH, orderId="ORD-7310").return_value["status"] == "CANCELLED"
    assert device.registry.get(ORDERS).metadata.answers.double_dir == "orders-double"


def test_the_cassette_answers_first_then_the_double(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE, double_dir=DOUBLE))
    assert call(device, FETCH, orderId="ORD-8492").return_value["itemCount"] == 3  # recorded
    assert call(device, FETCH, orderId="ORD-7310").return_value["itemCount"] == 1  # the double's


def test_a_double_whose_signature_differs_is_refused_naming_the_function(device, kotlin_orders, tmp_path):
    double = shutil.copytree(DOUBLE, tmp_path / "double")
    module = double / "orders.py"
    module.write_text(module.read_text().replace("def fetch_order_details(self, order_id: str)",
                                                 "def fetch_order_details(self, order_id: int)"))
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(kotlin_orders, responses=ResponseOptions(double_dir=double))
    assert str(raised.value) == (
        f"INSTALL_FAILED_FUNCTION_MISMATCH: {FETCH}: the double's com.example.orders.OrderFunctionService ({double}) "
        f"does not match the app's XML: parameter 'orderId' has a different type in the code than in the XML: the "
        f"XML has String, the code Long (`droidsim responses skeleton {kotlin_orders} com.example.orders-skeleton` "
        "writes one that matches, to compare with yours)")
    assert device.registry.get(ORDERS) is None


def test_an_exception_of_the_double_names_the_function_and_its_place_and_logs_the_traceback(device, kotlin_orders,
                                                                                           tmp_path, caplog):
    double = shutil.copytree(DOUBLE, tmp_path / "my-double")
    module = double / "orders.py"
    text = module.read_text()
    module.write_text(text.replace("        status = self._status(order_id)\n", "        status = {}[order_id]\n", 1))
    line = text.splitlines().index("        status = self._status(order_id)") + 1
    device.install(kotlin_orders, responses=ResponseOptions(double_dir=double))
    with caplog.at_level(logging.ERROR, logger="droidsim.responses"), pytest.raises(AppFunctionAppUnknownException) as raised:
        call(device, FETCH, orderId="ORD-9999")
    assert raised.value.error_message == (
        f"{FETCH}: KeyError: 'ORD-9999' at orders.py:{line} in fetch_order_details (the double my-double; its "
        "traceback is in droidsim logcat)")
    assert f"the double my-double raised KeyError: 'ORD-9999' in {FETCH} at orders.py:{line}" in caplog.text
    assert f'File "my-double/orders.py", line {line}, in fetch_order_details' in caplog.text


def test_a_value_the_double_returns_that_its_declaration_does_not_allow_names_the_method_and_its_place(
        device, kotlin_orders, tmp_path):
    """No frame of the double raised: the place is the method that returned the value (kotlin walk, round 4:
    'return value[0] is dict (dict), but the declared type is Goal' named the function alone)."""
    double = shutil.copytree(DOUBLE, tmp_path / "my-double")
    module = double / "orders.py"
    text = module.read_text()
    module.write_text(text.replace("        items = [OrderItem(\"SKU-1042\", \"Trail running shoes\", 1)]\n",
                                   "        items = [{\"sku\": \"SKU-1042\"}]\n", 1))
    line = text.splitlines().index("    def fetch_order_details(self, order_id: str) -> OrderDetails:")  # its decorator's
    device.install(kotlin_orders, responses=ResponseOptions(double_dir=double))
    with pytest.raises(AppFunctionAppUnknownException) as raised:
        call(device, FETCH, orderId="ORD-8492")
    assert raised.value.error_message == (
        f"{FETCH}: return value.items[0] is dict (dict), but the declared type is OrderItem; fetch_order_details "
        f"(orders.py:{line}) returned it (the double my-double)")


def test_a_double_without_a_service_class_is_refused(device, kotlin_orders, tmp_path):
    double = tmp_path / "double"
    double.mkdir()
    (double / "orders.py").write_text("VALUE = 1\n")
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(kotlin_orders, responses=ResponseOptions(double_dir=double))
    assert str(raised.value) == (
        "INSTALL_FAILED_BAD_CODE: the double's com.example.orders.OrderFunctionService (for fetch_order_details, "
        f"cancel_order): AppLoadError: {double}/orders.py: defines no class OrderFunctionService (the service "
        f"com.example.orders.OrderFunctionService) (`droidsim responses skeleton {kotlin_orders} "
        "com.example.orders-skeleton` writes one that matches, to compare with yours)")


@pytest.mark.parametrize("app", ["orders", "lights", "booking", "weather", "notes"])
def test_a_skeleton_passes_the_install_check_unchanged(device, tmp_path, app):
    kotlin = code_less_copy(SAMPLE_APPS / app, tmp_path / app)
    double = skeleton_of(kotlin, tmp_path / "double")
    package = device.install(kotlin, responses=ResponseOptions(double_dir=double))
    function = package.metadata.app_functions[0]
    request = ExecuteAppFunctionRequest(package.package_name, function.id, _plainest_parameters(function, package.metadata))
    with pytest.raises(AppFunctionNotSupportedException, match=f"^{function.id} is not implemented in this double yet: write "):
        device.shell_context().app_function_manager.execute_app_function(request)


def _plainest_parameters(function, metadata):
    shared = {named.name: named.data_type for named in metadata.components.data_types}
    values = {p.name: generated_json(p.data_type, shared, frozenset()) for p in function.parameters if p.is_required}
    return parameters_from_json(function, values, metadata.components)


def test_a_skeleton_never_overwrites_a_double(tmp_path, kotlin_orders):
    double = skeleton_of(kotlin_orders, tmp_path / "double")
    skeleton_of(kotlin_orders, double)  # the same skeleton again: nothing changes
    (double / "orders.py").write_text((double / "orders.py").read_text().replace("raise AppFunctionNotSupportedException", "return None  #"))
    with pytest.raises(SkeletonError, match="orders.py exists and differs from the skeleton: write it into a new folder"):
        skeleton_of(kotlin_orders, double)


def test_on_miss_schema_answers_are_marked_generated(device, kotlin_orders, caplog):
    device.install(kotlin_orders, responses=ResponseOptions(cassette=CASSETTE, on_miss="schema"))
    with caplog.at_level(logging.WARNING, logger="droidsim.responses"):
        response = call(device, FETCH, orderId="ORD-1234")
    assert response.return_value["status"] == "PROCESSING" and response.return_value["items"] == []
    assert "not recorded" in response.extras[GENERATED_EXTRA]
    assert f"{FETCH} with parameters {{\"orderId\": \"ORD-1234\"}}: generated from the schema" in caplog.text
    assert GENERATED_EXTRA not in call(device, FETCH, orderId="ORD-8492").extras  # a recorded answer is not marked


def test_an_unknown_on_miss_is_refused():
    with pytest.raises(IllegalArgumentException, match="--on-miss must be one of refuse, schema, not 'guess'"):
        ResponseOptions(on_miss="guess")


def test_a_double_holding_a_fifo_is_refused_before_it_is_read(device, kotlin_orders, tmp_path):
    import os

    double = shutil.copytree(DOUBLE, tmp_path / "double")
    os.mkfifo(double / "pipe")
    with pytest.raises(IllegalArgumentException, match=r"INSTALL_FAILED_INVALID_APK: .*pipe is not a regular file"):
        device.install(kotlin_orders, responses=ResponseOptions(double_dir=double))
    assert device.registry.get(ORDERS) is None


def test_an_update_keeps_the_double_and_on_miss_until_told_otherwise(device, kotlin_orders):
    device.install(kotlin_orders, responses=ResponseOptions(double_dir=DOUBLE, on_miss="schema"))
    call(device, CANCEL, orderId="ORD-7310")
    device.install(kotlin_orders)  # a new build: the same double, a fresh process
    answers = device.registry.get(ORDERS).metadata.answers
    assert (answers.double_dir, answers.on_miss) == ("orders-double", "schema")
    assert call(device, FETCH, orderId="ORD-7310").return_value["status"] == "PROCESSING"
    device.install(kotlin_orders, responses=ResponseOptions(on_miss="refuse"))
    assert device.registry.get(ORDERS).metadata.answers.on_miss == "refuse"
