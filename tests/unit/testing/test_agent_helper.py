"""Agent tests with a scripted model: the real loop, the device's rules, what the agent did."""

from __future__ import annotations

import pytest

from sim.testing import model_call
from tests.helpers import SAMPLE_APPS

AGENT = "com.example.assistant"


@pytest.fixture
def device(droid_device):
    orders = droid_device.install(SAMPLE_APPS / "orders")
    droid_device.install(SAMPLE_APPS / "system" / "assistant", system=True)
    droid_device.pregrant_agent(AGENT)
    droid_device.orders = orders
    return droid_device


def test_the_agent_calls_what_the_script_says_and_the_test_sees_it(device) -> None:
    run = device.run_agent(AGENT, "Where is my order ORD-8492?", [
        model_call(device.orders.service.fetch_order_details, order_id="ORD-8492"),
        "It has shipped.",
    ])
    call = run.assert_called("fetch_order_details", order_id="ORD-8492")
    assert call.args == {"orderId": "ORD-8492"}
    assert run.responses[0].response["status"] == "SHIPPED"
    assert run.text == "It has shipped."
    run.assert_not_called("cancel_order")
    assert [e.agent_package_name for e in device.history()] == [AGENT]
    # what the model was told: the function result went back to it
    assert "SHIPPED" in str(run.model.requests[1].messages[-1])


def test_assert_called_lists_what_was_called(device) -> None:
    run = device.run_agent(AGENT, "Where is ORD-8492?", [model_call("fetch_order_details", orderId="ORD-8492"), "ok"])
    with pytest.raises(AssertionError, match=r"did not call .*fetch_order_details with \{'orderId': 'ORD-1'\}"):
        run.assert_called("fetch_order_details", order_id="ORD-1")


def test_a_failed_call_reaches_the_model_as_an_error(device) -> None:
    run = device.run_agent(AGENT, "Where is ORD-0000?", [model_call("fetch_order_details", order_id="ORD-0000"), "no"])
    assert run.responses[0].is_error
    assert run.responses[0].response["error"]["code_name"] == "ERROR_RESOURCE_NOT_FOUND"


def test_a_script_naming_a_function_the_agent_cannot_see_is_refused(device) -> None:
    with pytest.raises(LookupError, match="cancel_order is not among the agent's tools"):
        device.run_agent(AGENT, "x", [model_call("cancel_order", order_id="ORD-1")], functions=["fetch_order_details"])
