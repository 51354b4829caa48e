"""Agent access grants: request states, flags and their update rules, revokeSelfAccess, valid
agents and targets, and who may ask (CTS AppFunctionAccessTest, QPR2 code)."""

from __future__ import annotations

import pytest

from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_ALL,
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_USER_DENIED,
    ACCESS_FLAG_USER_GRANTED,
    ACCESS_REQUEST_STATE_DENIED,
    ACCESS_REQUEST_STATE_GRANTED,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
)
from droid.os import IllegalArgumentException, SecurityException
from droid.os.binder import SHELL, Binder
from sim.appfunctions.agent_allowlist import DEVICE_CONFIG_AGENT_ALLOWLIST
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, MANAGE_APP_FUNCTION_ACCESS, make_manifest_only
from tests.unit.access.conftest import allowlist_agents

AGENT = "com.test.agent"
TARGET = "com.test.target"
NO_SERVICE = "com.test.noservice"
MANAGER = "com.test.manager"
MISSING = "invalid.pkg"


@pytest.fixture
def device(access_device, make, tmp_path):
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    access_device.install(make(TARGET))
    access_device.install(make_manifest_only(tmp_path / "src", NO_SERVICE, (EXECUTE_APP_FUNCTIONS,)))
    access_device.install(make_manifest_only(tmp_path / "src", MANAGER, (MANAGE_APP_FUNCTION_ACCESS,)), system=True)
    allowlist_agents(access_device, AGENT, NO_SERVICE, TARGET)
    return access_device


@pytest.fixture
def shell(device):
    return device.shell_context().app_function_manager


def set_flags(shell, flags, agent=AGENT, target=TARGET):
    return shell.update_access_flags(agent, target, ACCESS_FLAG_MASK_ALL, flags)


def test_a_fresh_pair_is_denied(shell):
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_DENIED
    assert shell.get_access_flags(AGENT, TARGET) == 0


@pytest.mark.parametrize(("flags", "state"), [
    (ACCESS_FLAG_USER_DENIED, ACCESS_REQUEST_STATE_DENIED),
    (ACCESS_FLAG_OTHER_DENIED, ACCESS_REQUEST_STATE_DENIED),
    (ACCESS_FLAG_PREGRANTED, ACCESS_REQUEST_STATE_GRANTED),
    (ACCESS_FLAG_USER_GRANTED, ACCESS_REQUEST_STATE_GRANTED),
    (ACCESS_FLAG_OTHER_GRANTED, ACCESS_REQUEST_STATE_GRANTED),
    (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_USER_DENIED, ACCESS_REQUEST_STATE_DENIED),
    (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_OTHER_DENIED, ACCESS_REQUEST_STATE_DENIED),
    # USER outranks OTHER (QPR2 code; the newest CTS dropped otherOverrideUser).
    (ACCESS_FLAG_OTHER_DENIED | ACCESS_FLAG_USER_GRANTED, ACCESS_REQUEST_STATE_GRANTED),
    (ACCESS_FLAG_OTHER_GRANTED | ACCESS_FLAG_USER_DENIED, ACCESS_REQUEST_STATE_DENIED),
])
def test_flags_decide_the_request_state(shell, flags, state):
    assert set_flags(shell, flags) is True
    assert shell.get_access_flags(AGENT, TARGET) == flags
    assert shell.get_access_request_state(AGENT, TARGET) == state


@pytest.mark.parametrize(("agent", "target"), [
    (AGENT, MISSING),             # target not installed
    (MISSING, TARGET),            # agent not installed
    (TARGET, AGENT),              # agent does not request EXECUTE_APP_FUNCTIONS
    (AGENT, NO_SERVICE),          # target has no AppFunctionService
    (MANAGER, TARGET),            # agent not allowlisted (and not requesting)
])
def test_invalid_pairs_are_unrequestable_read_zero_and_ignore_updates(shell, agent, target):
    assert shell.get_access_request_state(agent, target) == ACCESS_REQUEST_STATE_UNREQUESTABLE
    assert set_flags(shell, ACCESS_FLAG_PREGRANTED, agent, target) is False
    assert shell.get_access_flags(agent, target) == 0


def test_an_agent_taken_off_the_allowlist_is_unrequestable_and_loses_its_flags(device, shell):
    set_flags(shell, ACCESS_FLAG_OTHER_GRANTED)
    allowlist_agents(device, TARGET)
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_UNREQUESTABLE
    allowlist_agents(device, AGENT)
    assert shell.get_access_flags(AGENT, TARGET) == 0
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_DENIED


def test_the_device_config_allowlist_counts_too(device, shell):
    allowlist_agents(device)
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_UNREQUESTABLE
    with Binder.calling_as(SHELL):
        device.settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, f"com.other.agent;{AGENT}")
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_DENIED
    assert shell.get_agent_allowlist() == ["com.android.shell", "com.other.agent", AGENT]


def test_the_one_argument_form_asks_for_the_caller_itself(device, shell):
    set_flags(shell, ACCESS_FLAG_OTHER_GRANTED)
    agent = device.create_context(AGENT).app_function_manager
    assert agent.get_access_request_state(TARGET) == ACCESS_REQUEST_STATE_GRANTED
    assert agent.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_GRANTED


@pytest.mark.parametrize("call", [
    lambda m: m.get_access_request_state(TARGET, AGENT),
    lambda m: m.get_access_request_state(MISSING, TARGET),
    lambda m: m.get_access_flags(AGENT, TARGET),
    lambda m: m.update_access_flags(AGENT, TARGET, 0, 0),
    lambda m: m.get_valid_agents(),
    lambda m: m.get_valid_targets(),
    lambda m: m.get_agent_allowlist(),
    lambda m: m.clear_access_history(),
], ids=["state-of-another-agent", "state-of-a-missing-agent", "flags", "update", "agents", "targets",
        "allowlist", "clear-history"])
def test_management_calls_need_manage_app_function_access(device, call):
    agent = device.create_context(AGENT).app_function_manager
    with pytest.raises(SecurityException, match=f"from uid .* \\({AGENT}\\) requires {MANAGE_APP_FUNCTION_ACCESS}"):
        call(agent)
    manager = device.create_context(MANAGER).app_function_manager
    call(manager)


@pytest.mark.parametrize(("mask", "flags", "message"), [
    (~ACCESS_FLAG_MASK_ALL, ~ACCESS_FLAG_MASK_ALL, r"Invalid flag\(s\) -64 specified in call to updateAppFunctionAccessFlags"),
    (ACCESS_FLAG_MASK_ALL, 64, r"Invalid flag\(s\) 64"),
    (ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_MASK_USER, "Cannot set both ACCESS_FLAGS_USER_GRANTED and ACCESS_FLAGS_USER_DENIED together"),
    (ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_MASK_OTHER, "Cannot set both ACCESS_FLAGS_OTHER_GRANTED and ACCESS_FLAGS_OTHER_DENIED"),
    (ACCESS_FLAG_USER_GRANTED, ACCESS_FLAG_USER_GRANTED,
     "When setting ACCESS_FLAGS_USER_GRANTED/DENIED, the opposing flag must also be in the mask"),
    (ACCESS_FLAG_MASK_USER, ACCESS_FLAG_PREGRANTED,
     "Flags 1 specified in flags 1 for updateAppFunctionAccessFlags, but is not included in the mask 24"),
])
def test_illegal_updates_are_refused_and_change_nothing(shell, mask, flags, message):
    set_flags(shell, ACCESS_FLAG_PREGRANTED)
    with pytest.raises(IllegalArgumentException, match=message):
        shell.update_access_flags(AGENT, TARGET, mask, flags)
    assert shell.get_access_flags(AGENT, TARGET) == ACCESS_FLAG_PREGRANTED


def test_an_update_touches_only_the_masked_bits_and_reports_change(shell):
    set_flags(shell, ACCESS_FLAG_PREGRANTED)
    assert shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_USER, ACCESS_FLAG_USER_GRANTED) is True
    assert shell.get_access_flags(AGENT, TARGET) == ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_USER_GRANTED
    assert shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_USER, ACCESS_FLAG_USER_GRANTED) is False


def test_revoke_self_access_leaves_exactly_other_denied(device, shell):
    set_flags(shell, ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_PREGRANTED)
    device.create_context(AGENT).app_function_manager.revoke_self_access(TARGET)
    assert shell.get_access_flags(AGENT, TARGET) == ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_OTHER_DENIED
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_DENIED


def test_revoke_self_access_without_flags_sets_none(device, shell):
    device.create_context(AGENT).app_function_manager.revoke_self_access(TARGET)
    assert shell.get_access_flags(AGENT, TARGET) == 0


def test_valid_agents_request_the_permission_and_valid_targets_have_the_service(shell):
    assert shell.get_valid_agents() == [AGENT, NO_SERVICE]
    assert shell.get_valid_targets() == [AGENT, TARGET]


def test_uninstall_forgets_the_pair_so_a_reinstall_starts_denied(device, shell, make):
    set_flags(shell, ACCESS_FLAG_OTHER_GRANTED)
    device.package_manager.uninstall(TARGET)
    device.install(make(TARGET))
    assert shell.get_access_flags(AGENT, TARGET) == 0
    assert shell.get_access_request_state(AGENT, TARGET) == ACCESS_REQUEST_STATE_DENIED
