"""The execution pipeline through the in-process binder: codes and messages as on Android."""

from __future__ import annotations

import pytest

from droid.appfunctions import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionAppUnknownException,
    AppFunctionDisabledException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionName,
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
)
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.metadata import SCOPE_ACTIVITY, SCOPE_GLOBAL
from droid.os import IllegalArgumentException, SecurityException
from tests.helpers import HELPER_PACKAGE


def run(device, function_id, package=HELPER_PACKAGE, **params):
    manager = device.shell_context().app_function_manager
    return manager.execute_app_function(ExecuteAppFunctionRequest(package, function_id, AppFunctionData(params)))


def test_add_returns_the_sum(device):
    assert run(device, "add", a=1, b=2).return_value == 3


def test_async_callback_from_another_thread_is_delivered(device):
    assert run(device, "addAsync", a=1, b=2).return_value == 3


def test_only_the_first_callback_counts(device):
    assert run(device, "add_invokeCallbackTwice", a=1, b=2).return_value == 3


def test_unknown_function_id_is_function_not_found(device):
    with pytest.raises(AppFunctionFunctionNotFoundException) as raised:
        run(device, "noSuchFunction")
    assert raised.value.error_code == AppFunctionException.ERROR_FUNCTION_NOT_FOUND
    assert raised.value.error_message == "App function not found."


def test_empty_package_name_is_invalid_argument(device):
    with pytest.raises(AppFunctionInvalidArgumentException) as raised:
        run(device, "add", package="")
    assert raised.value.error_message == "Target package name cannot be empty."


def test_exception_in_the_app_is_app_unknown_error(device):
    with pytest.raises(AppFunctionAppUnknownException) as raised:
        run(device, "throwException")
    assert raised.value.error_code == 3000
    assert "thrown by throwException" in raised.value.error_message


def test_illegal_argument_in_the_app_is_invalid_argument(device):
    with pytest.raises(AppFunctionInvalidArgumentException) as raised:
        run(device, "uncaughtClientException")
    assert raised.value.error_message == "Function does not exist"


def test_bytes_round_trip_unchanged(device):
    blob = bytes(range(256)) * 4
    assert run(device, "echoBytes", data=blob).return_value == blob


def test_disabled_by_default_until_enabled_then_back_to_default(device):
    with pytest.raises(AppFunctionDisabledException):
        run(device, "add_disabledByDefault", a=1, b=2)
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    helper.set_app_function_enabled("add_disabledByDefault", APP_FUNCTION_STATE_ENABLED)
    assert helper.is_app_function_enabled("add_disabledByDefault") is True
    assert run(device, "add_disabledByDefault", a=1, b=2).return_value == 3
    helper.set_app_function_enabled("add_disabledByDefault", APP_FUNCTION_STATE_DEFAULT)
    assert helper.is_app_function_enabled("add_disabledByDefault") is False


def test_disabled_at_runtime(device):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    with pytest.raises(AppFunctionDisabledException):
        run(device, "add", a=1, b=2)


def test_enabled_state_of_unknown_function_is_illegal_argument(device):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    with pytest.raises(IllegalArgumentException, match="Function nope does not exist"):
        helper.set_app_function_enabled("nope", APP_FUNCTION_STATE_ENABLED)
    with pytest.raises(IllegalArgumentException, match="App function not found."):
        helper.is_app_function_enabled("nope")


def test_invalid_state_is_illegal_argument(device):
    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    with pytest.raises(IllegalArgumentException, match="Invalid state: 7"):
        helper.set_app_function_enabled("add", 7)


def test_an_app_cannot_set_another_packages_state(device, tmp_path):
    from tests.helpers import copy_app

    other = copy_app(device.registry.get(HELPER_PACKAGE).app_dir, tmp_path, "other")
    manifest = other / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('package="android.app.appfunctions.cts.helper"', 'package="com.example.other"'))
    device.install(other)
    manager = device.create_context("com.example.other").app_function_manager
    with pytest.raises(SecurityException):
        manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED, HELPER_PACKAGE)


def test_search_filters_by_package_and_reports_enabled_state(device):
    manager = device.shell_context().app_function_manager
    functions = manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({HELPER_PACKAGE})))
    assert {f.package_name for f in functions} == {HELPER_PACKAGE}
    assert {f.package_metadata.package_name for f in functions} == {HELPER_PACKAGE}
    enabled = {f.id: f.is_enabled for f in functions}
    assert enabled["add"] is True and enabled["add_disabledByDefault"] is False
    assert manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({"com.nobody"}))) == []


def test_search_spec_refuses_empty_name_sets_unknown_scopes_and_negative_version():
    with pytest.raises(IllegalArgumentException, match="Package names can not be an empty list."):
        AppFunctionSearchSpec(package_names=frozenset())
    with pytest.raises(IllegalArgumentException, match="AppFunction names can not be an empty list."):
        AppFunctionSearchSpec(function_names=frozenset())
    with pytest.raises(IllegalArgumentException, match="must hold AppFunctionName"):
        AppFunctionSearchSpec(function_names=frozenset({"add"}))
    with pytest.raises(IllegalArgumentException, match="Unknown scope 7"):
        AppFunctionSearchSpec(scopes=frozenset({7}))
    with pytest.raises(IllegalArgumentException):
        AppFunctionSearchSpec(min_schema_version=-1)
    assert AppFunctionSearchSpec(scopes=frozenset()).scopes is None  # empty: no filter, as on Android


def test_search_by_function_names_and_scopes(device):
    """AppFunctionSearchSpec.setFunctionNames/setScopes: every filter given must match."""
    manager = device.shell_context().app_function_manager
    add, nothing = AppFunctionName(HELPER_PACKAGE, "add"), AppFunctionName("com.nobody", "add")
    found = manager.search_app_functions(AppFunctionSearchSpec(function_names=frozenset({add, nothing})))
    assert [(f.package_name, f.id) for f in found] == [(HELPER_PACKAGE, "add")]
    both = AppFunctionSearchSpec(package_names=frozenset({"com.nobody"}), function_names=frozenset({add}))
    assert manager.search_app_functions(both) == []
    everything = {f.id for f in manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({HELPER_PACKAGE})))}
    global_scope = manager.search_app_functions(AppFunctionSearchSpec(scopes=frozenset({SCOPE_GLOBAL})))
    assert {f.id for f in global_scope if f.package_name == HELPER_PACKAGE} == everything
    assert manager.search_app_functions(AppFunctionSearchSpec(scopes=frozenset({SCOPE_ACTIVITY}))) == []


def test_uninstall_removes_the_functions(device):
    device.package_manager.uninstall(HELPER_PACKAGE)
    with pytest.raises(AppFunctionFunctionNotFoundException):
        run(device, "add", a=1, b=2)
    assert device.shell_context().app_function_manager.search_app_functions() == []


def test_state_survives_a_restart(device, tmp_path):
    from sim.device import Device

    helper = device.create_context(HELPER_PACKAGE).app_function_manager
    helper.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    data_dir = device.data_dir
    device.shutdown()
    with Device(data_dir, isolated_apps=False) as again:
        assert again.registry.get(HELPER_PACKAGE) is not None
        with pytest.raises(AppFunctionDisabledException):
            run(again, "add", a=1, b=2)
