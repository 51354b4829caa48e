"""A folder with a Kotlin app's manifest and XML but no Python installs; its calls refuse."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionException, AppFunctionNotSupportedException, ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.os import IllegalArgumentException
from sim.device import Device
from tests.helpers import SAMPLE_APPS
from tests.unit.responses.conftest import CANCEL, FETCH, KOTLIN_ORDERS, ORDERS


def call(device, function_id, **parameters):
    manager = device.shell_context().app_function_manager
    return manager.execute_app_function(ExecuteAppFunctionRequest(ORDERS, function_id, AppFunctionData(parameters)))


def test_a_code_less_folder_installs_with_its_catalog(device, kotlin_orders):
    package = device.install(kotlin_orders)
    assert sorted(f.id for f in package.metadata.app_functions) == [CANCEL, FETCH]
    assert package.metadata.app_metadata.description


def test_a_call_without_a_response_source_is_not_supported_naming_function_and_parameters(device, kotlin_orders):
    device.install(kotlin_orders)
    with pytest.raises(AppFunctionNotSupportedException) as raised:
        call(device, FETCH, orderId="ORD-8492")
    assert raised.value.error_code == AppFunctionException.ERROR_NOT_SUPPORTED
    assert raised.value.error_message.startswith(
        f'{ORDERS} has no answer for {FETCH} with parameters {{"orderId": "ORD-8492"}}')


def test_python_code_without_the_service_class_is_still_refused(device, kotlin_orders):
    (kotlin_orders / "helpers.py").write_text("VALUE = 1\n")
    with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_BAD_CODE: service com.example.orders.OrderFunctionService"):
        device.install(kotlin_orders)
    assert device.registry.get(ORDERS) is None


def test_an_app_folder_may_not_bring_a_response_source_of_its_own(device, kotlin_orders):
    (kotlin_orders / ".droidsim-responses").mkdir()
    with pytest.raises(IllegalArgumentException, match="INSTALL_FAILED_INVALID_APK: .*droidsim-responses: that name is the device's own"):
        device.install(kotlin_orders)
    assert device.registry.get(ORDERS) is None


def test_the_refusal_survives_a_restart_in_an_app_process(tmp_path, kotlin_orders):
    """The code-less app runs in a process of its own, as every app does, after a reboot too."""
    with Device(tmp_path / "proc") as device:
        device.install(kotlin_orders)
    with Device(tmp_path / "proc") as device:
        with pytest.raises(AppFunctionNotSupportedException, match="has no answer for"):
            call(device, FETCH, orderId="ORD-1")


def test_the_documented_kotlin_build_is_the_orders_sample_without_its_python():
    names = ["AndroidManifest.xml", "assets/app_functions_schema.xsd", "assets/order_functions.xml", "res/xml/app_metadata.xml"]
    for name in names:
        assert (KOTLIN_ORDERS / name).read_bytes() == (SAMPLE_APPS / "orders" / name).read_bytes(), name
    assert sorted(str(p.relative_to(KOTLIN_ORDERS)) for p in KOTLIN_ORDERS.rglob("*") if p.is_file()) == names
