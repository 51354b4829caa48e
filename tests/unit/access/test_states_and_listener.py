"""getAppFunctionStates and the access-changed listener (issue 16 row 10), in-process and over
the device's gRPC socket."""

from __future__ import annotations

import queue

import pytest

from droid.appfunctions import AppFunctionName, AppFunctionState
from droid.appfunctions.manager import ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED, ACCESS_FLAG_USER_DENIED
from droid.content.context import connect
from droid.os import IllegalArgumentException, SecurityException
from tests.helpers import EVENT_BOUND
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, SELF_FUNCTION, TRUSTED_FUNCTION
from tests.unit.access.conftest import allowlist_agents

TARGET = "com.test.target"
AGENT = "com.test.agent"
WAIT = EVENT_BOUND  # a change normally arrives in milliseconds


@pytest.fixture
def device(access_device, make):
    access_device.install(make(TARGET))
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    allowlist_agents(access_device, AGENT)
    return access_device


def names(*ids: str, package: str = TARGET) -> list[AppFunctionName]:
    return [AppFunctionName(package, i) for i in ids]


def test_states_in_the_order_asked_leaving_out_what_the_caller_cannot_see(device):
    agent = device.create_context(AGENT).app_function_manager
    asked = names("add_disabledByDefault", "nothing", SELF_FUNCTION, TRUSTED_FUNCTION) + names("add", package="com.nobody")
    assert agent.get_app_function_states(asked) == [
        AppFunctionState(AppFunctionName(TARGET, "add_disabledByDefault"), False),
        AppFunctionState(AppFunctionName(TARGET, TRUSTED_FUNCTION), True),
    ]  # the SELF function is invisible to an agent, as unknown as "nothing"
    own = device.create_context(TARGET).app_function_manager
    assert own.get_app_function_states(names(SELF_FUNCTION)) == [AppFunctionState(AppFunctionName(TARGET, SELF_FUNCTION), True)]
    own.set_app_function_enabled(SELF_FUNCTION, 2)
    assert own.get_app_function_states(names(SELF_FUNCTION))[0].is_enabled is False
    with pytest.raises(IllegalArgumentException, match="takes AppFunctionName values"):
        own.get_app_function_states([SELF_FUNCTION])


def test_states_across_the_socket(device):
    device.serve()
    with connect(device.address, (device.data_dir / "shell.credential").read_text()) as shell:
        states = shell.app_function_manager.get_app_function_states(names(TRUSTED_FUNCTION, "add_disabledByDefault"))
    assert [(s.function_name.function_identifier, s.is_enabled) for s in states] == [
        (TRUSTED_FUNCTION, True), ("add_disabledByDefault", False)]


def test_the_listener_hears_each_change_of_an_agents_access(device):
    shell = device.shell_context().app_function_manager
    heard: queue.SimpleQueue[int] = queue.SimpleQueue()
    shell.add_access_changed_listener(heard.put)
    shell.add_access_changed_listener(heard.put)  # twice: still one listener
    agent_uid = device.registry.get(AGENT).uid
    assert shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED)
    assert heard.get(timeout=WAIT) == agent_uid
    assert not shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED)  # no change
    allowlist_agents(device)  # off the allowlist: its flags go
    assert heard.get(timeout=WAIT) == agent_uid
    assert heard.empty()
    shell.remove_access_changed_listener(heard.put)
    allowlist_agents(device, AGENT)
    shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_USER_DENIED)
    assert heard.empty()


def test_the_listener_needs_manage_app_function_access(device):
    with pytest.raises(SecurityException, match="MANAGE_APP_FUNCTION_ACCESS"):
        device.create_context(AGENT).app_function_manager.add_access_changed_listener(print)


def test_a_remote_listener_hears_changes_until_removed(device):
    device.serve()
    agent_uid = device.registry.get(AGENT).uid
    shell = device.shell_context().app_function_manager
    with connect(device.address, (device.data_dir / "shell.credential").read_text()) as remote:
        heard: queue.SimpleQueue[int] = queue.SimpleQueue()
        remote.app_function_manager.add_access_changed_listener(heard.put)
        shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED)
        assert heard.get(timeout=WAIT) == agent_uid
        remote.app_function_manager.remove_access_changed_listener(heard.put)
    agent_credential = (device.installer.data_dir_for(AGENT) / "credential").read_text()
    with connect(device.address, agent_credential) as agent:
        with pytest.raises(SecurityException, match="MANAGE_APP_FUNCTION_ACCESS"):
            agent.app_function_manager.add_access_changed_listener(heard.put)
