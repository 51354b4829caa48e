"""What a newcomer does: `make sim`, then the README's commands in a second terminal. The
device boots with make's own command line (conftest.make_sim_options), in a fresh data dir."""

from __future__ import annotations

import json

from droid.appfunctions.manager import ACCESS_FLAG_PREGRANTED
from droid.content import connect
from tests.helpers import droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, make_app

AGENT = "com.example.assistant"
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"


def ok(result) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def order(device) -> dict:
    """The README's execute-app-function command."""
    return json.loads(ok(droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", ORDERS,
                                  "--function", FETCH, "--parameters", '{"orderId": "ORD-8492"}', data=device.data)))


def test_execute_app_function_prints_the_order(make_sim_device):
    fetched = order(make_sim_device)
    assert fetched["orderId"] == "ORD-8492" and fetched["status"]


def test_the_sample_agent_answers_where_is_my_order(make_sim_device):
    out = ok(droidsim("agent", "--as", AGENT, "Where is my order ORD-8492?", data=make_sim_device.data))
    call, response, *answer = out.splitlines()
    assert call == '-> fetch_order_details {"orderId": "ORD-8492"}'
    assert response.startswith('<- fetch_order_details {"orderId": "ORD-8492", ')
    assert f"status: {order(make_sim_device)['status']}" in "\n".join(answer)


def test_the_assistant_is_a_system_app_allowlisted_and_pregranted_every_target(make_sim_device):
    packages = {p["package"]: p for p in json.loads(ok(droidsim("shell", "pm", "list", "packages", "--json",
                                                                 data=make_sim_device.data)))}
    assert (packages[AGENT]["system"], packages[AGENT]["granted_permissions"]) == (True, [EXECUTE_APP_FUNCTIONS])
    assert not any(p["system"] for name, p in packages.items() if name != AGENT)
    device_config = droidsim("shell", "device_config", "get", "machine_learning", "allowlisted_app_functions_agents",
                             data=make_sim_device.data)
    assert ok(device_config) == f"{AGENT}\n"
    with connect(f"unix:{make_sim_device.data / 'device.sock'}",
                 (make_sim_device.data / "shell.credential").read_text()) as shell:
        manager = shell.app_function_manager
        targets = manager.get_valid_targets()
        assert ORDERS in targets and AGENT not in targets
        assert {t: manager.get_access_flags(AGENT, t) for t in targets} == dict.fromkeys(targets, ACCESS_FLAG_PREGRANTED)


def test_an_app_installed_after_boot_is_pregranted_too(make_sim_device, tmp_path):
    app = make_app(tmp_path, "com.test.mine")
    ok(droidsim("install", str(app), data=make_sim_device.data))
    added = droidsim("--as", AGENT, "shell", "cmd", "app_function", "execute-app-function", "--package",
                     "com.test.mine", "--function", "add", "--parameters", '{"a": 1, "b": 2}', data=make_sim_device.data)
    assert ok(added) == "3\n"
