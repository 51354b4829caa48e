"""Safe allowlist edits (issues 36, 48): registering a second agent app by the steps of
docs/access-control.md ("Making an agent app work") leaves the first one working; droidsim's own
`droidsim access agents add|remove` keep the other agents and name what goes; the platform's
`set-additional-allowlisted-agents` replaces the list and prints nothing, as on a phone, and the
device's log names every agent it drops and the access that goes with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from droid.appfunctions import access_fixes
from tests.e2e.agent_registration import EXAMPLE_APP, documented_steps, renamed_copy
from tests.helpers import DeviceProcess, droidsim

pytestmark = pytest.mark.slow

FIRST = "com.example.myagent"
SECOND = "com.example.secondagent"
ORDERS = "com.example.orders"
FETCH = ("cmd", "app_function", "execute-app-function", "--package", ORDERS,
         "--function", "com.example.orders.OrderFunctionService#fetch_order_details",
         "--parameters", '{"orderId": "ORD-8492"}')
EXECUTE_APP_FUNCTIONS = "android.permission.EXECUTE_APP_FUNCTIONS"


def run(device: DeviceProcess, argv: list[str]):
    assert argv[0] == "droidsim", argv
    return droidsim(*argv[1:], data=device.data)


def ok(result) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def fetches(device: DeviceProcess, agent: str):
    return droidsim("--as", agent, "shell", *FETCH, data=device.data)


@pytest.fixture(scope="module")
def device(make_sim_device):
    return make_sim_device


@pytest.fixture(scope="module")
def second_agent_app(tmp_path_factory) -> Path:
    return renamed_copy(tmp_path_factory.mktemp("second"), SECOND)


def test_a_second_agent_registered_by_the_documented_steps_leaves_the_first_working(device, second_agent_app):
    for step in documented_steps(FIRST, EXAMPLE_APP):
        ok(run(device, step))
    assert json.loads(ok(fetches(device, FIRST)))["status"] == "SHIPPED"
    for step in documented_steps(SECOND, second_agent_app):
        ok(run(device, step))
    assert json.loads(ok(fetches(device, SECOND)))["status"] == "SHIPPED"
    assert json.loads(ok(fetches(device, FIRST)))["status"] == "SHIPPED", "the first agent still works"
    assert json.loads(ok(fetches(device, "com.example.assistant")))["status"] == "SHIPPED"
    listed = ok(droidsim("shell", "cmd", "app_function", "list-valid-agents", "--json", data=device.data))
    assert {FIRST, SECOND} <= set(json.loads(listed))


def test_adding_an_agent_twice_or_removing_one_changes_only_that_one(device, second_agent_app):
    again = ok(droidsim("access", "agents", "add", SECOND, data=device.data))
    assert again == f"Agent allowlist: [com.android.shell, com.example.assistant, {FIRST}, {SECOND}]\n"
    removed = ok(droidsim("access", "agents", "remove", SECOND, data=device.data))
    assert removed == (f"Removed {SECOND} from the agent allowlist: its access to {ORDERS} (OTHER_GRANTED) is gone\n"
                       f"Agent allowlist: [com.android.shell, com.example.assistant, {FIRST}]\n")
    assert json.loads(ok(fetches(device, FIRST)))["status"] == "SHIPPED"
    denied = fetches(device, SECOND)
    assert denied.returncode == 1
    assert access_fixes.not_allowlisted(SECOND, ORDERS) in denied.stderr, "the refusal names the command that fixes it"
    kept = ok(droidsim("access", "agents", "remove", "com.example.assistant", data=device.data))
    assert kept.startswith("com.example.assistant is not on the additional list: nothing to remove; "
                           "DeviceConfig's list (or the platform) names it\n")
    ok(droidsim("access", "agents", "add", "com.example.assistant", data=device.data))
    kept = ok(droidsim("access", "agents", "remove", "com.example.assistant", data=device.data))
    assert kept.startswith("com.example.assistant stays on the agent allowlist: DeviceConfig's list")
    listed = json.loads(ok(droidsim("access", "agents", "list", "--json", data=device.data)))
    assert {"package": FIRST, "listed_by": ["additional list"], "valid": True} in listed
    assert {"package": "com.android.shell", "listed_by": ["platform"], "valid": False} in listed


def test_a_replace_prints_nothing_and_the_log_names_every_agent_it_drops(device):
    ok(droidsim("access", "agents", "add", SECOND, data=device.data))
    ok(droidsim("shell", "cmd", "app_function", "grant-app-function-access", "--agent-package", SECOND,
                "--target-package", ORDERS, data=device.data))
    replaced = droidsim("shell", "cmd", "app_function", "set-additional-allowlisted-agents", SECOND, data=device.data)
    assert (replaced.returncode, replaced.stdout, replaced.stderr) == (0, "", ""), "as a phone prints it"
    privileged = droidsim("shell", "pm", "set-privileged-allowlist", SECOND, data=device.data)
    assert ok(privileged) == (f"Removed {FIRST} from the privileged allowlist: it loses {EXECUTE_APP_FUNCTIONS}\n"
                              f"Privileged allowlist: [{SECOND}]\n")
    assert "dropped com.example.myagent; add-privileged-allowlist PKG adds one package" in privileged.stderr
    log = ok(droidsim("logcat", data=device.data))
    assert f"{FIRST} left the agent allowlist: its access to {ORDERS} (OTHER_GRANTED) is dropped" in log
    assert f"{FIRST} left the privileged allowlist: it loses {EXECUTE_APP_FUNCTIONS}" in log
    denied = fetches(device, FIRST)
    assert denied.returncode == 1
    assert access_fixes.missing_permission(FIRST, requested=True) in denied.stderr
    ok(droidsim("shell", "pm", "add-privileged-allowlist", FIRST, data=device.data))
    ok(droidsim("access", "agents", "add", FIRST, data=device.data))
    assert access_fixes.not_granted(FIRST, ORDERS) in fetches(device, FIRST).stderr, "its grant went with it"
