"""Allowlist edits are one step inside the device (issue 43, K07): editors in many processes at
once, through the device's edit calls and through the CLI verbs, and at the end every
acknowledged addition is on the list and every acknowledged removal off it; no editor fails.
The CLI read the whole list and wrote it back: an acknowledged removal came back 3 times in 70
races, an addition was lost 54 times, and the remover crashed with KeyError."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, parse_agent_list
from tests.helpers import COMMAND_BOUND, DeviceProcess, droidsim
from tests.unit.apk.conftest import APKS
from tests.unit.apk.test_install_apk import certificate_digest

pytestmark = pytest.mark.slow

EDITORS, EDITS = 6, 8  # processes editing through the device's calls, and the adds (and removes) each makes
# One editor process: its adds and removes, each of both lists, one call each, in turn; it
# prints the edits the device acknowledged.
EDITOR = """
import json, sys
from droid.content.context import connect
from droid.content.device_address import resolve_device
from droidsim.v1.allowlist_pb2 import AllowlistEdit

address = resolve_device(sys.argv[1])
context = connect(address.target, address.read_credential(None))
lists = (context.get_system_service("package").edit_privileged_allowlist,
         context.app_function_manager.edit_additional_agent_allowlist)
acknowledged = []
for step in sys.argv[2:]:
    operation, package = step.split("=")
    for edit in lists:
        edit(AllowlistEdit.ADD if operation == "add" else AllowlistEdit.REMOVE, [package])
    acknowledged.append(step)
print(json.dumps(acknowledged))
"""
CLI_VERBS = {"add": (("shell", "pm", "add-privileged-allowlist"), ("access", "agents", "add")),
             "remove": (("shell", "pm", "remove-privileged-allowlist"), ("access", "agents", "remove"))}


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    device = DeviceProcess(tmp_path_factory.mktemp("races") / "data")
    yield device
    device.stop()


def ok(device: DeviceProcess, *args: str) -> str:
    result = droidsim(*args, data=device.data)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def lists(device: DeviceProcess) -> tuple[set[str], set[str]]:
    privileged = ok(device, "shell", "pm", "get-privileged-allowlist").strip()
    secure = ok(device, "shell", "settings", "get", *ADDITIONAL_AGENT_ALLOWLIST).strip()
    return (set(privileged.removeprefix("Privileged allowlist: [").removesuffix("]").split(", ")) - {""},
            {entry.package_name for entry in parse_agent_list("" if secure == "null" else secure)})


def test_concurrent_editors_never_undo_or_lose_an_acknowledged_change(device):
    removed = [f"com.race.r{p}x{i}" for p in range(EDITORS + 1) for i in range(EDITS)]
    for verb in CLI_VERBS["add"]:
        ok(device, *verb, *removed)
    editors = [subprocess.Popen(
        [sys.executable, "-c", EDITOR, str(device.data),
         *(f"{op}=com.race.{'a' if op == 'add' else 'r'}{p}x{i}" for i in range(EDITS) for op in ("add", "remove"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for p in range(EDITORS)]
    # One more editor through the CLI verbs, a process per verb, all at once with the others.
    steps = [(op, f"com.race.{'a' if op == 'add' else 'r'}{EDITORS}x{i}") for i in range(2) for op in ("add", "remove")]
    verbs = [(step, subprocess.Popen([sys.executable, "-m", "sim.cli", "--device", str(device.data), *verb, step[1]],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
             for step in steps for verb in CLI_VERBS[step[0]]]
    acknowledged: list[tuple[str, str]] = []
    for editor in editors:
        out, err = editor.communicate(timeout=COMMAND_BOUND)
        assert editor.returncode == 0, err
        acknowledged += [tuple(step.split("=")) for step in json.loads(out)]
    for step, verb in verbs:
        out, err = verb.communicate(timeout=COMMAND_BOUND)
        assert verb.returncode == 0, out + err  # the remover crashed with KeyError
        acknowledged.append(step)
    assert len(acknowledged) == 2 * EDITORS * EDITS + 2 * len(steps)
    added = {package for op, package in acknowledged if op == "add"}
    taken_off = {package for op, package in acknowledged if op == "remove"}
    for listed in lists(device):
        assert added <= listed, f"lost: {sorted(added - listed)}"
        assert not taken_off & listed, f"undone: {sorted(taken_off & listed)}"
        assert listed == added | (set(removed) - taken_off)


def test_the_shell_says_so_when_it_names_another_signers_package(device):
    """K03 through the CLI: the install of another signer's APK of an allowlisted name warns, and
    naming it to the allowlist again is refused, saying why and how to trust it instead."""
    agent, test_key = "com.example.agentapk", certificate_digest("test")
    assert droidsim("install", str(APKS / "agent-signed.apk"), data=device.data).returncode == 0
    ok(device, "shell", "pm", "add-privileged-allowlist", agent)
    assert droidsim("uninstall", agent, data=device.data).returncode == 0
    installed = droidsim("install", str(APKS / "agent-other-key.apk"), data=device.data)
    assert installed.returncode == 0, installed.stderr
    said = (f"{agent} is on the privileged allowlist for the signer with certificate SHA-256 {test_key}, and the "
            f"installed {agent} is signed by certificate SHA-256 {certificate_digest('other')}: another signer's "
            f"package gets nothing from that entry, so it is not privileged. To trust this install instead, remove "
            f"{agent} from the privileged allowlist, then add it again")
    assert f"Warning: {said}\n" in installed.stderr
    refused = droidsim("shell", "pm", "add-privileged-allowlist", agent, data=device.data)
    assert (refused.returncode, refused.stderr) == (1, f"Error: IllegalArgumentException: {said}\n")
    listed = json.loads(ok(device, "shell", "pm", "list", "packages", "--json"))
    assert [p["privileged"] for p in listed if p["package"] == agent] == [False]
