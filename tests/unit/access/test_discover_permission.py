"""DISCOVER_APP_FUNCTIONS: on Android 17 a holder searches every visible package, reads its
functions' states and hears its changes, and executes nothing; Android 16 has no such
permission (VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata @f6328b66; AppSearch
16-qpr2 VisibilityCheckerImpl knows EXECUTE_APP_FUNCTIONS only)."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionDeniedException, AppFunctionSearchSpec
from droid.appfunctions.manager import AppFunctionManager
from droid.appfunctions.requests import AppFunctionName
from droid.os import IllegalArgumentException
from sim.device import Device
from sim.permissions.definitions import DISCOVER_APP_FUNCTIONS
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS_SYSTEM, SELF_FUNCTION, SYSTEM_FUNCTION, TRUSTED_FUNCTION
from tests.unit.access.conftest import execute
from tests.unit.access.test_observe import observe, set_state
from tests.unit.access.test_visibility import ALL

TARGET = "com.test.target"
DISCOVERER = "com.test.discoverer"  # privileged: it holds DISCOVER_APP_FUNCTIONS where it exists
UNPRIVILEGED = "com.test.launcher"  # requests it, is not privileged, so holds nothing
SYSTEM = "com.test.system"  # EXECUTE_APP_FUNCTIONS_SYSTEM alone


@pytest.fixture(params=[37, 36], ids=["sdk37", "sdk36"])
def device(request, tmp_path, make):
    with Device(tmp_path / "data", isolated_apps=False, sdk=request.param) as device:
        device.install(make(TARGET))
        device.install(make(DISCOVERER, (DISCOVER_APP_FUNCTIONS,)), system=True)
        device.install(make(UNPRIVILEGED, (DISCOVER_APP_FUNCTIONS,)))
        device.install(make(SYSTEM, (EXECUTE_APP_FUNCTIONS_SYSTEM,)), system=True)
        yield device


def v2(device) -> bool:
    return device.version.sdk_int == 37


def seen(device, caller: str) -> set[str]:
    manager = device.create_context(caller).app_function_manager
    return {f.id for f in manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({TARGET})))}


def test_the_permission_exists_on_android_17_only(device):
    defined = {p.name: str(p.protection_level) for p in device.permissions.definitions()}
    assert defined.get(DISCOVER_APP_FUNCTIONS) == ("internal|privileged" if v2(device) else None)
    held = device.permissions.granted_permissions(device.registry.get(DISCOVERER))
    assert held == ([DISCOVER_APP_FUNCTIONS] if v2(device) else [])
    assert device.permissions.granted_permissions(device.registry.get(UNPRIVILEGED)) == []


def test_a_holder_searches_another_packages_functions_on_android_17(device):
    assert seen(device, DISCOVERER) == ((ALL - {SELF_FUNCTION, SYSTEM_FUNCTION}) if v2(device) else set())
    assert seen(device, UNPRIVILEGED) == set()
    assert seen(device, SYSTEM) == ((ALL - {SELF_FUNCTION}) if v2(device) else set())


def test_a_holder_reads_states_and_is_enabled_on_android_17(device):
    manager = device.create_context(DISCOVERER).app_function_manager
    names = [AppFunctionName(TARGET, TRUSTED_FUNCTION), AppFunctionName(TARGET, "add_disabledByDefault"),
             AppFunctionName(TARGET, SELF_FUNCTION)]
    states = {(s.function_name.function_identifier, s.is_enabled) for s in manager.get_app_function_states(names)}
    assert states == ({(TRUSTED_FUNCTION, True), ("add_disabledByDefault", False)} if v2(device) else set())
    if v2(device):
        assert manager.is_app_function_enabled(TRUSTED_FUNCTION, TARGET) is True
    else:
        with pytest.raises(IllegalArgumentException, match="^App function not found.$"):
            manager.is_app_function_enabled(TRUSTED_FUNCTION, TARGET)


def test_a_holder_hears_another_packages_changes_on_android_17(device):
    recorder, _ = observe(device.create_context(DISCOVERER).app_function_manager)
    set_state(device, TARGET, TRUSTED_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    if v2(device):
        assert recorder.next() == ("states", {AppFunctionName(TARGET, TRUSTED_FUNCTION)})
    recorder.assert_quiet()


def test_a_holder_sees_the_package_in_its_listing_on_android_17(device):
    listed = {p.package_name for p in device.create_context(DISCOVERER).get_system_service("package").list_packages()}
    assert (TARGET in listed) == v2(device)


def test_discovering_executes_nothing(device):
    with pytest.raises(AppFunctionDeniedException) as raised:
        execute(device.create_context(DISCOVERER), TARGET, TRUSTED_FUNCTION)
    assert "com.test.discoverer does not request android.permission.EXECUTE_APP_FUNCTIONS" in raised.value.error_message
