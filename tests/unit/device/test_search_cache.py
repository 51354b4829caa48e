"""Search pages are cached per package, and so are their encodings for remote callers: every
change that alters a page must show in the next search, in-process and over the binder."""

from __future__ import annotations

from pathlib import Path

import pytest

from droid.appfunctions import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionSearchSpec,
)
from sim.device import Device
from tests.helpers import HELPER_APP, HELPER_PACKAGE

HELPER_ONLY = AppFunctionSearchSpec(package_names=frozenset({HELPER_PACKAGE}))


@pytest.fixture
def device(tmp_path: Path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(HELPER_APP)
        yield device


@pytest.fixture(params=["in-process", "remote"])
def shell(request, device):
    """The shell's app function manager, in-process or over the device's socket (where the
    device answers with the pages' kept encodings)."""
    if request.param == "in-process":
        yield device.shell_context().app_function_manager
        return
    from droid.content import connect

    with connect(device.serve(), device.shell_credential_file.read_text().strip()) as context:
        yield context.app_function_manager


@pytest.fixture
def enabled_states(shell):
    def states() -> dict[str, bool]:
        return {f.id: f.is_enabled for f in shell.search_app_functions(HELPER_ONLY)}

    return states


def test_search_shows_each_enabled_state_change(device, enabled_states):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    assert enabled_states()["add"] is True  # the page is cached from here on
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    assert enabled_states()["add"] is False
    helper.set_app_function_enabled("add_disabledByDefault", APP_FUNCTION_STATE_ENABLED)
    assert enabled_states()["add_disabledByDefault"] is True
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DEFAULT)
    assert enabled_states()["add"] is True


def test_search_shows_pm_clear_and_reinstall(device, enabled_states):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    assert enabled_states()["add"] is False
    device.package_manager.clear_package_data(HELPER_PACKAGE)
    assert enabled_states()["add"] is True
    device.package_manager.uninstall(HELPER_PACKAGE)
    assert enabled_states() == {}
    device.install(HELPER_APP)
    assert enabled_states()["add_disabledByDefault"] is False


def test_a_remote_search_answers_what_an_in_process_one_does(device, shell):
    """The kept encodings are the functions themselves."""
    expected = device.shell_context().app_function_manager.search_app_functions(HELPER_ONLY)
    assert list(shell.search_app_functions(HELPER_ONLY)) == expected
    assert shell.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({"com.not.installed"}))) == []


def test_a_caller_changing_its_search_results_changes_no_later_search(device):
    manager = device.shell_context().app_function_manager
    functions = manager.search_app_functions(HELPER_ONLY)
    functions[0].is_enabled = not functions[0].is_enabled
    functions[0].package_metadata.package_name = "changed"
    again = manager.search_app_functions(HELPER_ONLY)
    assert again[0].is_enabled != functions[0].is_enabled
    assert again[0].package_metadata.package_name == HELPER_PACKAGE
