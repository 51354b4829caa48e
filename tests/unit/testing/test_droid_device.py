"""The droid_device fixture as an app developer uses it: typed calls, callers, state, history."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from droid.appfunctions import access_fixes

from droid.appfunctions import (
    AppFunctionDeniedException,
    AppFunctionDisabledException,
    AppFunctionElementNotFoundException,
    AppFunctionException,
    AppFunctionInvalidArgumentException,
)
from sim.testing import FunctionLookupError
from tests.helpers import SAMPLE_APPS

ORDERS = SAMPLE_APPS / "orders"
ASSISTANT = SAMPLE_APPS / "system" / "assistant"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"


@pytest.fixture
def orders(droid_device):
    return droid_device.install(ORDERS)


def test_a_call_by_method_returns_the_declared_dataclass_with_dates(droid_device, orders) -> None:
    details = droid_device.call(orders.service.fetch_order_details, order_id="ORD-8492")
    assert type(details).__name__ == "OrderDetails"
    assert details.estimated_delivery == date(2025, 6, 14)
    assert [item.sku for item in details.items] == ["SKU-1042", "SKU-2210"]


@pytest.mark.parametrize("name", [FETCH, "fetch_order_details"])
@pytest.mark.parametrize("parameter", ["order_id", "orderId"])
def test_full_and_short_ids_python_and_wire_names(droid_device, orders, name, parameter) -> None:
    assert droid_device.call(name, **{parameter: "ORD-8492"}).status == "SHIPPED"


def test_a_failure_raises_the_jetpack_subclass(droid_device, orders) -> None:
    with pytest.raises(AppFunctionElementNotFoundException) as raised:
        droid_device.call(orders.service.fetch_order_details, order_id="ORD-0000")
    assert raised.value.error_code == AppFunctionException.ERROR_RESOURCE_NOT_FOUND


def test_bad_names_say_what_they_could_mean(droid_device, orders) -> None:
    with pytest.raises(TypeError, match=r"'order' is not a parameter of com.example.orders.OrderFunctionService#fetch_order_details; did you mean order_id\? \(its names: order_id\)"):
        droid_device.call("fetch_order_details", order="ORD-8492")
    with pytest.raises(FunctionLookupError, match="no function 'fetch_order' on the device; did you mean fetch_order_details"):
        droid_device.call("fetch_order")


def test_a_value_of_the_wrong_type_is_refused_as_the_shell_refuses_it(droid_device, orders) -> None:
    with pytest.raises(AppFunctionInvalidArgumentException) as raised:
        droid_device.call("fetch_order_details", order_id=8492)
    assert str(raised.value) == "Parameter order_id is an integer (int), but the declared type is str (code 1001)"
    assert droid_device.history() == []  # refused before anything was sent


def test_a_caller_is_held_to_the_access_rules_and_the_history_says_so(droid_device, orders) -> None:
    droid_device.install(ASSISTANT, system=True)
    agent = droid_device.caller("com.example.assistant")
    with pytest.raises(AppFunctionDeniedException):
        agent.call("fetch_order_details", order_id="ORD-8492")
    droid_device.allowlist_agents("com.example.assistant")
    droid_device.grant_access("com.example.assistant", "com.example.orders")
    assert agent.call("fetch_order_details", order_id="ORD-8492").order_id == "ORD-8492"
    assert FETCH in agent.visible_functions()
    attempts = [(e.function_identifier, e.result_code) for e in droid_device.history(agent="com.example.assistant")]
    assert attempts == [(FETCH, AppFunctionException.ERROR_DENIED), (FETCH, 0)]
    droid_device.revoke_access("com.example.assistant", "com.example.orders")
    with pytest.raises(AppFunctionDeniedException):
        agent.call("fetch_order_details", order_id="ORD-8492")


def test_the_plugin_diagnoses_an_agent_app_as_the_doors_do(droid_device, orders) -> None:
    droid_device.install(ASSISTANT, system=True)
    ungranted = droid_device.agent_diagnosis("com.example.assistant")
    assert ungranted.lines() == [access_fixes.not_allowlisted("com.example.assistant", "com.example.orders")]
    assert ungranted.refusal == ("com.example.assistant may call no app function, of its own or of another app: "
                                 "fix its access as said above")
    droid_device.allowlist_agents("com.example.assistant")
    droid_device.grant_access("com.example.assistant", "com.example.orders")
    ready = droid_device.agent_diagnosis("com.example.assistant")
    assert (ready.lines(), ready.refusal, ready.callable_targets) == ([], None, ["com.example.orders"])


def test_enabled_state(droid_device, orders) -> None:
    droid_device.set_enabled("fetch_order_details", False)
    assert not droid_device.is_enabled(FETCH)
    with pytest.raises(AppFunctionDisabledException):
        droid_device.call("fetch_order_details", order_id="ORD-8492")
    droid_device.set_enabled("fetch_order_details", None)
    assert droid_device.is_enabled(orders.service.fetch_order_details)


def test_apps_run_in_the_test_process_by_default(droid_device, orders) -> None:
    droid_device.call("fetch_order_details", order_id="ORD-8492")
    assert list(droid_device.device.processes.running()) == ["com.example.orders"]
    assert droid_device.process_id("com.example.orders") is None


@pytest.mark.droid_processes
def test_the_marker_starts_real_app_processes(droid_device, orders) -> None:
    assert droid_device.call("fetch_order_details", order_id="ORD-8492").carrier == "UPS"
    assert droid_device.process_id("com.example.orders") not in (None, os.getpid())


def _app_that_marks_where_it_is_imported(root: Path) -> Path:
    """An app whose module, when imported, sets a variable in the environment of its process."""
    from tests.helpers import write_generated_app

    return write_generated_app(root, "marker", '''
        import os

        os.environ["DROIDSIM_MARKER_IMPORTED_IN"] = str(os.getpid())


        class FunctionService(AppFunctionServiceEntryPoint):
            service_name = SERVICE
            xml_file_name = "functions"

            @app_function(described_by_docstring=True)
            def ping(self) -> str:
                """Answers a ping, to show the app is installed.

                Returns:
                    The word pong.
                """
                return "pong"
    ''', description="Marks the process that imports it.")


@pytest.mark.droid_processes
def test_with_real_processes_install_time_code_runs_outside_the_test_process(droid_device, tmp_path, monkeypatch):
    app = _app_that_marks_where_it_is_imported(tmp_path)  # writing its XML imports it here
    monkeypatch.delenv("DROIDSIM_MARKER_IMPORTED_IN", raising=False)
    droid_device.install(app)
    # The verifier that imports it at install is a process of its own, as on a booted device.
    assert "DROIDSIM_MARKER_IMPORTED_IN" not in os.environ


def test_on_threads_install_time_code_runs_in_the_test_process_and_the_line_says_so(droid_device, tmp_path, monkeypatch):
    app = _app_that_marks_where_it_is_imported(tmp_path)  # writing its XML imports it here
    monkeypatch.delenv("DROIDSIM_MARKER_IMPORTED_IN", raising=False)
    droid_device.install(app)
    assert os.environ["DROIDSIM_MARKER_IMPORTED_IN"] == str(os.getpid())
    assert droid_device.device.isolation[0].startswith("OS isolation: OFF (apps run on threads of the device process)")
