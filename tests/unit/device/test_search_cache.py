"""Search pages are cached per package: every change that alters a page must show in the next search."""

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


def enabled_states(device) -> dict[str, bool]:
    return {f.id: f.is_enabled for f in device.shell_context().app_function_manager.search_app_functions(HELPER_ONLY)}


def test_search_shows_each_enabled_state_change(device):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    assert enabled_states(device)["add"] is True  # the page is cached from here on
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    assert enabled_states(device)["add"] is False
    helper.set_app_function_enabled("add_disabledByDefault", APP_FUNCTION_STATE_ENABLED)
    assert enabled_states(device)["add_disabledByDefault"] is True
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DEFAULT)
    assert enabled_states(device)["add"] is True


def test_search_shows_pm_clear_and_reinstall(device):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    assert enabled_states(device)["add"] is False
    device.package_manager.clear_package_data(HELPER_PACKAGE)
    assert enabled_states(device)["add"] is True
    device.package_manager.uninstall(HELPER_PACKAGE)
    assert enabled_states(device) == {}
    device.install(HELPER_APP)
    assert enabled_states(device)["add_disabledByDefault"] is False


def test_a_caller_changing_its_search_results_changes_no_later_search(device):
    manager = device.shell_context().app_function_manager
    functions = manager.search_app_functions(HELPER_ONLY)
    functions[0].is_enabled = not functions[0].is_enabled
    functions[0].package_metadata.package_name = "changed"
    again = manager.search_app_functions(HELPER_ONLY)
    assert again[0].is_enabled != functions[0].is_enabled
    assert again[0].package_metadata.package_name == HELPER_PACKAGE
