"""An agent app with functions of its own (one ACCESS_LEVEL_SELF, one ACCESS_LEVEL_SYSTEM) and an
agent of its own, through both doors at every step of its set-up (issue 47, item 1): `droidsim
agent --as` and `droidsim mcp --as` say the same diagnosis, word for word, and exit alike; an
agent app without functions of its own is refused by both, alike, until it may call one."""

from __future__ import annotations

import logging

import pytest

from droid.agent import connect_as
from droid.appfunctions import access_fixes
from tests.e2e.agent_registration import renamed_copy
from tests.helpers import SAMPLE_APPS, DeviceProcess, droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, LEVELED, make_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

AGENT = "com.agentdev.helper"
BARE = "com.agentdev.bare"
ORDERS = "com.example.orders"
OWN = "its own 11 functions (add (ACCESS_LEVEL_SELF); addAsync (ACCESS_LEVEL_SYSTEM); 9 ACCESS_LEVEL_ANDROID_TRUSTED)"
AGENT_PY = '''
from droid.agent import Agent, AppFunctionAgentTools, FunctionTool


def today() -> str:
    """Today's date."""
    return "2026-05-01"


def build_agent(context):
    return Agent(name="Helper", instructions="Help.", tools=[*AppFunctionAgentTools.discover(context),
                                                           FunctionTool(today)])
'''


def agent_app(root):
    """The CTS helper's functions (two given SELF and SYSTEM), EXECUTE_APP_FUNCTIONS and an agent."""
    app = make_app(root, AGENT, (EXECUTE_APP_FUNCTIONS,), LEVELED)
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(
        "<application>", '<application>\n        <property android:name="droidsim.agent" android:value="agent:build_agent" />'))
    (app / "agent.py").write_text(AGENT_PY)
    return app


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    root = tmp_path_factory.mktemp("diagnosis")
    (root / "apps").mkdir()
    (root / "apps" / "orders").symlink_to(SAMPLE_APPS / "orders")
    process = DeviceProcess(root / "data", root / "apps")
    process.root = root
    yield process
    process.stop()


def both_doors(device, agent):
    """What each door says (its warning and error lines) and how it exits."""
    ran = droidsim("agent", "--as", agent, "What is today's date?", data=device.data, timeout=120)
    served = droidsim("mcp", "--as", agent, data=device.data, timeout=120, input="")
    said = [[line for line in result.stderr.splitlines() if line.startswith(("warning: ", "error: "))]
            for result in (ran, served)]
    return (ran.returncode, said[0]), (served.returncode, said[1])


def setup_steps(device, agent, folder):
    install = droidsim("install", str(folder), data=device.data)
    assert install.returncode == 0, install.stderr
    yield "installed", install.stdout
    for step, command in (("privileged", ("shell", "pm", "add-privileged-allowlist", agent)),
                          ("allowlisted", ("access", "agents", "add", agent)),
                          ("granted", ("shell", "cmd", "app_function", "grant-app-function-access",
                                       "--agent-package", agent, "--target-package", ORDERS))):
        result = droidsim(*command, data=device.data)
        assert result.returncode == 0, result.stderr
        yield step, result.stdout


def test_both_doors_say_the_same_at_every_step_of_an_agent_app_with_functions_of_its_own(device, caplog):
    expected = {
        "installed": f"warning: {AGENT} may call only {OWN}, not other apps': "
                     f"{access_fixes.missing_permission(AGENT, requested=True)}",
        "privileged": f"warning: {AGENT} may call only {OWN}, not other apps': {AGENT} is not on the agent "
                      f"allowlist, so it may call no other app's functions: `droidsim access agents add {AGENT}`",
        "allowlisted": f"warning: {AGENT} may call only {OWN}, not the functions of {ORDERS} (no access grant): "
                       f"`{access_fixes.grant_command(AGENT, ORDERS)}`",
        "granted": None,
    }
    for step, output in setup_steps(device, AGENT, agent_app(device.root / "src")):
        if step == "installed":
            assert output == (f"Success: {AGENT} (uid 10001, 11 functions, 10 visible to the shell: the other one is "
                              "ACCESS_LEVEL_SELF, the app's own)\n")
        agent_door, mcp_door = both_doors(device, AGENT)
        assert agent_door == mcp_door, step
        code, said = agent_door
        assert code == 0, f"{step}: its own functions are its to call"
        assert said == ([expected[step]] if expected[step] else []), step
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="droid.agent"), connect_as(AGENT, device.data):
            logged = [f"warning: {record.getMessage()}" for record in caplog.records]
        assert logged == said, f"{step}: connect_as logs the same diagnosis"


def test_both_doors_refuse_alike_an_agent_app_that_may_call_no_function(device):
    folder = renamed_copy(device.root / "src", BARE, own_agent=False)
    expected = {
        "installed": [access_fixes.missing_permission(BARE, requested=True)],  # it sees nobody else yet
        "privileged": [access_fixes.not_allowlisted(BARE, target) for target in (AGENT, ORDERS)],
    }
    refusal = f"error: {BARE} may call no app function, of its own or of another app: fix its access as said above"
    for step, _ in setup_steps(device, BARE, folder):
        if step not in expected:
            break  # the last steps are the first test's
        agent_door, mcp_door = both_doors(device, BARE)
        assert agent_door == mcp_door, step
        assert agent_door == (1, [*(f"warning: {line}" for line in expected[step]), refusal]), step


def test_both_doors_say_when_the_apps_folder_changed_since_it_was_installed(device):
    folder = agent_app(device.root / "edited")
    (folder / "AndroidManifest.xml").write_text((folder / "AndroidManifest.xml").read_text().replace(
        f'package="{AGENT}"', 'package="com.agentdev.edited"'))
    assert droidsim("install", str(folder), data=device.data).returncode == 0
    (folder / "agent.py").write_text((folder / "agent.py").read_text().replace("Help.", "Help more."))
    for door in (("agent", "--as", "com.agentdev.edited", "hi"), ("mcp", "--as", "com.agentdev.edited")):
        result = droidsim(*door, data=device.data, timeout=120, input="")
        assert (f"warning: {folder} has changed since com.agentdev.edited was installed from it: its agent runs from "
                "the copy install made (") in result.stderr, door
        assert f"without the changes; `droidsim install {folder}` to run them" in result.stderr, door
