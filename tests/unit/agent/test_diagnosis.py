"""One diagnosis of an agent app (issue 47, item 1), on a real in-process device: at every step
of the set-up it names what the app holds and lacks and the command for the next step, counts
its own ACCESS_LEVEL_SELF and ACCESS_LEVEL_SYSTEM functions as its own, and refuses (both doors
exit 1) only an app that may call no app function at all."""

from __future__ import annotations

import pytest

from droid.agent.diagnosis import diagnose
from droid.appfunctions import access_fixes
from droid.appfunctions.manager import ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED
from droid.os.binder import SHELL, Binder
from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.device import Device
from tests.helpers import HELPER_PACKAGE
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, LEVELED, make_app, make_manifest_only
from tests.unit.access.conftest import allowlist_agents

AGENT = "com.agentdev.helper"
OWN = "its own 11 functions (add (ACCESS_LEVEL_SELF); addAsync (ACCESS_LEVEL_SYSTEM); 9 ACCESS_LEVEL_ANDROID_TRUSTED)"
TARGET = HELPER_PACKAGE


def privileged(device: Device, agent: str) -> None:
    with Binder.calling_as(SHELL):
        device.permissions.edit_privileged_allowlist(AllowlistEdit.ADD, [agent])


def grant(device: Device, agent: str) -> None:
    device.shell_context().app_function_manager.update_access_flags(
        agent, TARGET, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(make_app(tmp_path / "src", TARGET))
        yield device


def steps(device: Device, agent: str):
    """The app as each step of docs/access-control.md leaves it: its diagnosis after each."""
    yield "installed", diagnose(device.create_context(agent))
    privileged(device, agent)
    yield "privileged", diagnose(device.create_context(agent))
    allowlist_agents(device, agent)
    yield "allowlisted", diagnose(device.create_context(agent))
    grant(device, agent)
    yield "granted", diagnose(device.create_context(agent))


def test_an_agent_app_with_functions_of_its_own_at_every_step(device, tmp_path):
    device.install(make_app(tmp_path / "src", AGENT, (EXECUTE_APP_FUNCTIONS,), LEVELED))
    grant_target = access_fixes.grant_command(AGENT, TARGET)
    expected = {
        "installed": [f"{AGENT} may call only {OWN}, not other apps': "
                      f"{access_fixes.missing_permission(AGENT, requested=True)}"],
        "privileged": [f"{AGENT} may call only {OWN}, not other apps': {AGENT} is not on the agent allowlist, so "
                       f"it may call no other app's functions: `droidsim access agents add {AGENT}`"],
        "allowlisted": [f"{AGENT} may call only {OWN}, not the functions of {TARGET} (no access grant): "
                        f"`{grant_target}`"],
        "granted": [],
    }
    for step, diagnosis in steps(device, AGENT):
        assert diagnosis.lines() == expected[step], step
        assert diagnosis.refusal is None, f"{step}: its own functions are its to call"
        assert [f.function_id.rsplit("#", 1)[-1] for f in diagnosis.own_functions][:2] == ["add", "addAsync"]
    assert (diagnosis.holds_permission, diagnosis.allowlisted, diagnosis.callable_targets) == (True, True, [TARGET])


def test_an_agent_app_without_functions_is_refused_until_it_may_call_one(device, tmp_path):
    device.install(make_manifest_only(tmp_path / "src", AGENT, (EXECUTE_APP_FUNCTIONS,)))
    expected = {
        "installed": [access_fixes.missing_permission(AGENT, requested=True)],
        "privileged": [access_fixes.not_allowlisted(AGENT, TARGET)],
        "allowlisted": [access_fixes.not_granted(AGENT, TARGET)],
        "granted": [],
    }
    for step, diagnosis in steps(device, AGENT):
        assert diagnosis.lines() == expected[step], step
        refused = diagnosis.refusal
        assert (refused is None) == (step == "granted"), step
    assert refused is None


def test_an_app_that_requests_nothing_may_call_its_own_functions_and_is_told_the_permission(device, tmp_path):
    device.install(make_app(tmp_path / "src", AGENT, (), LEVELED))
    diagnosis = diagnose(device.create_context(AGENT))
    assert diagnosis.lines() == [f"{AGENT} may call only {OWN}, not other apps': "
                                 f"{access_fixes.missing_permission(AGENT, requested=False)}"]
    assert diagnosis.refusal is None and diagnosis.requests_permission is False
    assert diagnosis.to_dict()["own_functions"][0] == {"id": "add", "access_level": "ACCESS_LEVEL_SELF"}


def test_an_agent_on_a_device_with_nothing_else_lacks_nothing_and_is_not_refused(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(make_manifest_only(tmp_path / "src", AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
        diagnosis = diagnose(device.create_context(AGENT))
    assert (diagnosis.lines(), diagnosis.refusal, diagnosis.may_call_anything) == ([], None, False)


def test_a_misspelt_permission_is_named_as_the_one_requested_in_its_place(device, tmp_path):
    device.install(make_app(tmp_path / "src", AGENT, ("android.permission.EXECUTE_APP_FUNCTION",), LEVELED))
    assert diagnose(device.create_context(AGENT)).lines() == [
        f"{AGENT} may call only {OWN}, not other apps': {AGENT} does not request {EXECUTE_APP_FUNCTIONS} (it requests "
        "android.permission.EXECUTE_APP_FUNCTION, which is not it: a misspelling?): an agent app declares "
        f'<uses-permission android:name="{EXECUTE_APP_FUNCTIONS}" /> in its manifest and is privileged']


def test_another_permission_of_the_platform_is_never_taken_for_a_misspelling(device, tmp_path):
    device.install(make_app(tmp_path / "src", AGENT, ("android.permission.DISCOVER_APP_FUNCTIONS",), LEVELED))
    assert diagnose(device.create_context(AGENT)).lines() == [
        f"{AGENT} may call only {OWN}, not other apps': {AGENT} does not request {EXECUTE_APP_FUNCTIONS}: an agent "
        f'app declares <uses-permission android:name="{EXECUTE_APP_FUNCTIONS}" /> in its manifest and is privileged']
