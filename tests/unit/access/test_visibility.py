"""Search and isAppFunctionEnabled show a caller only what its permissions and each function's
access level let it call; the grant is checked when executing, not when discovering."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionDeniedException, AppFunctionSearchSpec
from droid.os import IllegalArgumentException
from tests.unit.access.apps import (
    EXECUTE_APP_FUNCTIONS,
    EXECUTE_APP_FUNCTIONS_SYSTEM,
    SELF_FUNCTION,
    SYSTEM_FUNCTION,
    TRUSTED_FUNCTION,
)
from tests.unit.access.conftest import allowlist_agents, execute

TARGET = "com.test.target"
CALLERS = {
    "com.test.plain": ((), False),
    "com.test.agent": ((EXECUTE_APP_FUNCTIONS,), True),
    "com.test.system": ((EXECUTE_APP_FUNCTIONS_SYSTEM,), True),
}
ALL = {"add", "addAsync", "add_disabledByDefault", "add_invokeCallbackTwice", "noOp", "throwException",
       "uncaughtClientException", "kill", "longRunningFunction", "notInvokeCallback", "echoBytes"}


@pytest.fixture
def device(access_device, make):
    access_device.install(make(TARGET))
    for package, (uses, system) in CALLERS.items():
        access_device.install(make(package, uses), system=system)
    allowlist_agents(access_device, *CALLERS)
    return access_device


def visible(manager) -> set[str]:
    return {f.id for f in manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({TARGET})))}


@pytest.mark.parametrize(("caller", "expected"), [
    (TARGET, ALL),
    ("com.test.system", ALL - {SELF_FUNCTION}),
    ("com.test.agent", ALL - {SELF_FUNCTION, SYSTEM_FUNCTION}),
    ("com.test.plain", set()),
    ("shell", ALL - {SELF_FUNCTION}),
])
def test_search_shows_what_the_caller_may_call(device, caller, expected):
    context = device.shell_context() if caller == "shell" else device.create_context(caller)
    assert visible(context.app_function_manager) == expected


def test_a_remote_search_shows_the_same_and_part_of_a_page_only_to_an_agent_with_less_reach(device):
    """Over the binder the device sends each page's kept encoding, or encodes a page of only
    the functions the caller may see."""
    from droid.content import connect

    address = device.serve()
    for caller, expected in (("com.test.agent", ALL - {SELF_FUNCTION, SYSTEM_FUNCTION}), (TARGET, ALL)):
        credential = device.registry.get(caller).credential_file.read_text().strip()
        with connect(address, credential) as context:
            assert visible(context.app_function_manager) == expected


@pytest.mark.parametrize("function_id", [SELF_FUNCTION, "noSuchFunction"])
def test_an_invisible_function_is_as_unknown_as_a_missing_one(device, function_id):
    agent = device.create_context("com.test.system").app_function_manager
    with pytest.raises(IllegalArgumentException, match="^App function not found.$"):
        agent.is_app_function_enabled(function_id, TARGET)


def test_is_enabled_answers_for_visible_functions(device):
    assert device.create_context(TARGET).app_function_manager.is_app_function_enabled(SELF_FUNCTION) is True
    agent = device.create_context("com.test.agent").app_function_manager
    assert agent.is_app_function_enabled(TRUSTED_FUNCTION, TARGET) is True
    assert agent.is_app_function_enabled("add_disabledByDefault", TARGET) is False
    with pytest.raises(IllegalArgumentException):
        device.create_context("com.test.plain").app_function_manager.is_app_function_enabled(TRUSTED_FUNCTION, TARGET)


def test_discovering_needs_no_grant_but_executing_does(device):
    agent = device.create_context("com.test.agent")
    assert TRUSTED_FUNCTION in visible(agent.app_function_manager)
    with pytest.raises(AppFunctionDeniedException):
        execute(agent, TARGET, TRUSTED_FUNCTION)


def test_the_shell_cannot_call_a_self_function(device):
    with pytest.raises(AppFunctionDeniedException) as raised:
        execute(device.shell_context(), TARGET, SELF_FUNCTION)
    assert raised.value.error_message == ("Caller does not have permission to execute the appfunction: "
                                          "add is ACCESS_LEVEL_SELF: only com.test.target itself may call it")
    assert execute(device.shell_context(), TARGET, SYSTEM_FUNCTION).return_value == 3
