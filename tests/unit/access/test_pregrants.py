"""The preinstalled agent (`droidsim device start --pregrant-agent PKG`): a system app on the
DeviceConfig allowlist with ACCESS_FLAG_PREGRANTED to every target, later installs included,
through the same rules as every other grant (docs/access-control.md, "A preinstalled agent")."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionException
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_USER_DENIED,
    ACCESS_REQUEST_STATE_DENIED,
    ACCESS_REQUEST_STATE_GRANTED,
)
from droid.os import IllegalArgumentException
from droid.os.binder import SHELL, Binder
from sim.appfunctions.agent_allowlist import DEVICE_CONFIG_AGENT_ALLOWLIST
from sim.device import Device
from tests.helpers import droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, SELF_FUNCTION, TRUSTED_FUNCTION, make_manifest_only
from tests.unit.access.conftest import execute

AGENT = "com.test.agent"
TARGETS = ("com.test.t1", "com.test.t2")
LATER = "com.test.later"
OTHER_AGENT = "com.test.other"


@pytest.fixture
def device(access_device, make):
    """The agent as a system app, two ordinary targets, and DeviceConfig already naming another agent."""
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    for target in TARGETS:
        access_device.install(make(target))
    with Binder.calling_as(SHELL):
        access_device.settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, OTHER_AGENT)
    return access_device


def flags(device, target, agent=AGENT):
    return device.shell_context().app_function_manager.get_access_flags(agent, target)


def test_the_agent_is_allowlisted_in_device_config_and_pregranted_every_target(device):
    assert device.pregrant_agent(AGENT) == list(TARGETS)
    assert device.settings.get_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST) == f"{OTHER_AGENT};{AGENT}"
    shell = device.shell_context().app_function_manager
    assert shell.get_valid_agents() == [AGENT]
    for target in TARGETS:
        assert flags(device, target) == ACCESS_FLAG_PREGRANTED
        assert shell.get_access_request_state(AGENT, target) == ACCESS_REQUEST_STATE_GRANTED
    assert execute(device.create_context(AGENT), TARGETS[0], TRUSTED_FUNCTION).return_value == 3


def test_pregranted_access_is_still_only_android_trusted_access(device, make):
    device.install(make("com.test.leveled"))
    device.pregrant_agent(AGENT)
    with pytest.raises(AppFunctionException) as raised:
        execute(device.create_context(AGENT), "com.test.leveled", SELF_FUNCTION)
    assert raised.value.error_code == AppFunctionException.ERROR_DENIED


def test_a_target_installed_later_is_pregranted_and_an_agent_is_not_a_target(device, make, tmp_path):
    device.pregrant_agent(AGENT)
    device.install(make(LATER))
    device.install(make_manifest_only(tmp_path / "src", "com.test.noservice"))
    assert flags(device, LATER) == ACCESS_FLAG_PREGRANTED
    assert execute(device.create_context(AGENT), LATER, TRUSTED_FUNCTION).return_value == 3
    assert set(device.access.pairs()) == {(AGENT, t) for t in (*TARGETS, LATER)}


def test_a_reinstalled_agent_gets_every_target_back(device, make):
    device.pregrant_agent(AGENT)
    device.package_manager.uninstall(AGENT)
    assert device.access.pairs() == {}
    device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    assert all(flags(device, t) == ACCESS_FLAG_PREGRANTED for t in TARGETS)


def test_a_user_denial_outranks_the_pregrant_even_after_it_is_applied_again(device):
    device.pregrant_agent(AGENT)
    shell = device.shell_context().app_function_manager
    shell.update_access_flags(AGENT, TARGETS[0], ACCESS_FLAG_MASK_USER, ACCESS_FLAG_USER_DENIED)
    device.pregrant_agent(AGENT)
    assert flags(device, TARGETS[0]) == ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_USER_DENIED
    assert shell.get_access_request_state(AGENT, TARGETS[0]) == ACCESS_REQUEST_STATE_DENIED


def test_the_pregrant_survives_a_restart_without_the_option(tmp_path, make):
    data = tmp_path / "data"
    with Device(data, isolated_apps=False) as device:
        device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
        device.install(make(TARGETS[0]))
        device.pregrant_agent(AGENT)
    with Device(data, isolated_apps=False) as device:
        assert flags(device, TARGETS[0]) == ACCESS_FLAG_PREGRANTED
        assert execute(device.create_context(AGENT), TARGETS[0], TRUSTED_FUNCTION).return_value == 3
        device.install(make(LATER))
        assert flags(device, LATER) == 0, "a boot without --pregrant-agent pregrants nothing new"


@pytest.mark.parametrize(("package", "system", "uses", "message"), [
    ("com.test.nobody", None, (), "cannot pregrant com.test.nobody: it is not installed "
                                  "(install it as a system app: --system-apps DIR)"),
    ("com.test.plain", False, (EXECUTE_APP_FUNCTIONS,),
     "cannot pregrant com.test.plain: only system apps can be pregranted agent access "
     "(install it as a system app: --system-apps DIR)"),
    ("com.test.noperm", True, (), "cannot pregrant com.test.noperm: it does not request "
                                  f"{EXECUTE_APP_FUNCTIONS}, so it cannot be an agent"),
])
def test_only_an_installed_system_agent_can_be_pregranted(device, make, package, system, uses, message):
    if system is not None:
        device.install(make(package, uses), system=system)
    with pytest.raises(IllegalArgumentException) as raised:
        device.pregrant_agent(package)
    assert str(raised.value) == message
    assert device.pregrants.agents() == [] and device.access.pairs() == {}
    assert device.settings.get_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST) == OTHER_AGENT


def test_device_start_refuses_a_bad_pregrant_on_one_line(tmp_path):
    result = droidsim("device", "start", "--data", str(tmp_path / "data"), "--pregrant-agent", "com.test.nobody")
    assert result.returncode == 1
    # Not run as root, the device first warns that it cannot isolate apps (docs/security.md).
    assert result.stderr.splitlines()[-1] == ("Error: IllegalArgumentException: cannot pregrant com.test.nobody: "
                                              "it is not installed (install it as a system app: --system-apps DIR)")


def test_an_agent_installed_as_an_ordinary_app_is_installed_again_from_the_system_image(access_device, make):
    """A data directory from before the agent moved into the system image (apps/system)."""
    app = make(AGENT, (EXECUTE_APP_FUNCTIONS,))
    access_device.install_all(app.parent)
    uid = access_device.registry.get(AGENT).uid
    access_device.install_all(app.parent, system=True)
    assert (access_device.registry.get(AGENT).system, access_device.registry.get(AGENT).uid) == (True, uid)
    assert access_device.pregrant_agent(AGENT) == []
