"""`--sdk 36|37`: one setting switches what Android 16 and 17 do differently (issue 16 rows 1, 3,
4, access levels and the permission-v2 allowlist bypass; docs/differences.md)."""

from __future__ import annotations

import pytest

from droid.appfunctions import (
    AppFunctionDeniedException,
    AppFunctionDisabledException,
    AppFunctionFunctionNotFoundException,
    AppFunctionSearchSpec,
    access_fixes,
)
from droid.appfunctions.manager import ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED
from droid.os import IllegalArgumentException
from sim.device import Device
from sim.platform_version import ANDROID_16, ANDROID_17, NEWEST
from tests.helpers import HELPER_APP
from tests.unit.access import apps
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM, make_app
from tests.unit.access.conftest import allowlist_agents, execute

TARGET = "com.test.target"
MULTI_SERVICES_APP = HELPER_APP.parent / "multi_services"  # CTS's helper-app-multi-services
AGENT = "com.test.agent"
SYSTEM_AGENT = "com.test.system"
SELF_FUNCTION, SYSTEM_FUNCTION, TRUSTED_FUNCTION = apps.SELF_FUNCTION, apps.SYSTEM_FUNCTION, apps.TRUSTED_FUNCTION
# The SELF function opts in to Jetpack's enforcement before Android 17.2; the SYSTEM one opts out.
COMPAT_ON = SELF_FUNCTION


def leveled_target(root):
    app = make_app(root, TARGET, levels=apps.LEVELED)
    xml = app / "assets" / "app_functions_v2.xml"
    anchor = f"<id>{COMPAT_ON}</id>"
    xml.write_text(xml.read_text().replace(anchor, f"{anchor}\n        <isCompatEnforcementEnabled>true</isCompatEnforcementEnabled>", 1))
    return app


@pytest.fixture(params=[36, 37])
def device(request, tmp_path):
    with Device(tmp_path / "data", isolated_apps=False, sdk=request.param) as device:
        device.install(leveled_target(tmp_path / "src"))
        device.install(make_app(tmp_path / "src", AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
        device.install(make_app(tmp_path / "src", SYSTEM_AGENT, (EXECUTE_APP_FUNCTIONS_SYSTEM,)), system=True)
        allowlist_agents(device, AGENT, SYSTEM_AGENT)
        yield device


def grant(device, agent):
    device.shell_context().app_function_manager.update_access_flags(agent, TARGET, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED)


def test_the_newest_version_is_the_default_and_a_device_keeps_its_version(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        assert device.version == NEWEST == ANDROID_17
        assert device.shell_context().sdk_int == 37
    with Device(tmp_path / "data", isolated_apps=False) as device:  # no --sdk: the one it has
        assert device.version == ANDROID_17
    with pytest.raises(ValueError, match=r"runs SDK 37 \(Android 17 \(SDK 37\)\); start it with --sdk 37, or give --sdk 36 a new --data"):
        Device(tmp_path / "data", isolated_apps=False, sdk=36)
    with pytest.raises(ValueError, match="no platform version with SDK 35: this simulator has 36, 37"):
        Device(tmp_path / "other", isolated_apps=False, sdk=35)


def test_android_16_runs_a_function_that_opts_out_of_compat_enforcement_for_any_caller(device):
    """Row 1: CallerAccessVerifier returns at once when isCompatEnforcementEnabled is false."""
    grant(device, AGENT)
    agent = device.create_context(AGENT)
    visible = {f.id for f in agent.app_function_manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({TARGET})))}
    if device.version == ANDROID_16:
        assert execute(agent, TARGET, SYSTEM_FUNCTION).return_value == 3
        assert SYSTEM_FUNCTION in visible and COMPAT_ON not in visible
    else:
        with pytest.raises(AppFunctionDeniedException, match="Caller does not have permission to execute the appfunction"):
            execute(agent, TARGET, SYSTEM_FUNCTION)
        assert SYSTEM_FUNCTION not in visible


def test_android_16_refuses_an_opted_in_level_as_jetpack_does_after_the_platform_checks(device):
    grant(device, AGENT)
    agent = device.create_context(AGENT)
    reason = access_fixes.self_only(COMPAT_ON, TARGET)
    expected = (f"Execution denied: Caller UID does not match host application UID. {reason}"
                if device.version == ANDROID_16 else f"Caller does not have permission to execute the appfunction: {reason}")
    with pytest.raises(AppFunctionDeniedException) as raised:
        execute(agent, TARGET, COMPAT_ON)
    assert raised.value.error_message == expected
    assert execute(device.create_context(TARGET), TARGET, COMPAT_ON).return_value == 3


def test_execute_app_functions_system_skips_the_grant_on_android_17_only(device):
    """Permission v2's allowlist bypass: Android 16 has no such permission at the platform."""
    system_agent = device.create_context(SYSTEM_AGENT)
    if device.version == ANDROID_17:
        assert execute(system_agent, TARGET, TRUSTED_FUNCTION).return_value == 3
        return
    with pytest.raises(AppFunctionDeniedException, match="Caller does not have permission to execute the appfunction"):
        execute(system_agent, TARGET, TRUSTED_FUNCTION)
    with pytest.raises(IllegalArgumentException):
        system_agent.app_function_manager.is_app_function_enabled(TRUSTED_FUNCTION, TARGET)


def test_application_level_functions_are_indexed_on_android_17_and_disabled_until_registered(device, tmp_path):
    """Rows 3 and 4: the app-level file is indexed beside the service's (SearchAppFunctionsTest),
    and an unregistered app-level function is ERROR_DISABLED (AppFunctionRegistrationTest)."""
    app = make_app(tmp_path / "src", "com.test.both")
    (app / "assets" / "registered.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<appfunctions>\n  <appfunction>\n    <id>concat</id>\n'
        '    <enabledByDefault>true</enabledByDefault>\n  </appfunction>\n</appfunctions>\n')
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(
        "    <application>",
        '    <application>\n        <property android:name="android.app.appfunctions.v2" android:value="registered.xml" />'))
    device.install(app)
    own = device.create_context("com.test.both").app_function_manager
    listed = {f.id: f for f in own.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({"com.test.both"})))}
    assert TRUSTED_FUNCTION in listed  # the service's functions stay
    if device.version == ANDROID_16:
        assert "concat" not in listed
        return
    assert listed["concat"].service_name == "" and listed["concat"].is_enabled is False
    with pytest.raises(AppFunctionDisabledException, match="declared at application level and is not registered: concat"):
        execute(device.create_context("com.test.both"), "com.test.both", "concat")
    with pytest.raises(IllegalArgumentException, match="^setAppFunctionEnabled is not supported for runtime-registered "
                                                       "functions. Use AppFunctionManager.registerAppFunction and "
                                                       "AppFunctionRegistration.unregister instead.$"):
        own.set_app_function_enabled("concat", 1)



def test_a_call_binds_the_packages_first_service_on_android_16_and_the_declaring_one_on_17(device):
    """ServiceHelperImpl.resolveAppFunctionService(packageName, user) resolves one service per
    package on Android 16, the first queryIntentServices lists, and its indexer reads only the
    last (AppsUtil.getPackagesToIndex): so there add, declared by the first, is not indexed, and
    echo, declared by the second, reaches the first. Android 17 indexes both and binds the
    service whose XML declared the function (lint R1 says so)."""
    package = device.install(MULTI_SERVICES_APP).package_name
    context = device.create_context(package)
    if device.version.binds_declaring_service:
        answers = [execute(context, package, f).return_value for f in ("add", "echo")]
        assert answers == ["TestAppFunctionService:add", "TestAppFunctionService2:echo"]
    else:
        with pytest.raises(AppFunctionFunctionNotFoundException):
            execute(context, package, "add")
        assert execute(context, package, "echo").return_value == "TestAppFunctionService:echo"