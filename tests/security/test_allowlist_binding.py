"""Privileged status and the agent allowlist stay with the package the user allowlisted (issue
43, K03 and K02): each entry is bound to that package's signer, or, for a package without one
(an app folder, an unsigned APK), to its install, and goes with its uninstall. Another
signer's APK installed under the name after an uninstall gets nothing from the entries, and is
told so, and so is the shell when it names the package (sim/pm/signed_packages.py)."""

from __future__ import annotations

import pytest

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.os import IllegalArgumentException
from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, DEVICE_CONFIG_AGENT_ALLOWLIST
from sim.device import Device
from sim.eval.suite import PROJECT_APPS
from tests.helpers import copy_app
from tests.unit.apk.conftest import APKS
from tests.unit.apk.test_install_apk import certificate_digest

pytest.importorskip("androguard", reason="reading APKs needs androguard (a dependency of droidsim)")

AGENT = "com.example.agentapk"  # tests/apks/agent: asks EXECUTE_APP_FUNCTIONS and EXECUTE_APP_FUNCTIONS_SYSTEM
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
TEST_KEY, OTHER_KEY = certificate_digest("test"), certificate_digest("other")
SYSTEM_PERMISSION = "android.permission.EXECUTE_APP_FUNCTIONS_SYSTEM"
LISTS = "privileged allowlist", "agent allowlist (the Secure additional list)"


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(PROJECT_APPS / "orders")
        yield device


def allowlist(device: Device, operation: int, package: str) -> None:
    shell = device.shell_context()
    shell.get_system_service("package").edit_privileged_allowlist(operation, [package])
    shell.app_function_manager.edit_additional_agent_allowlist(operation, [package])


def privileged(device: Device, package: str) -> bool:
    return next(p.privileged for p in device.shell_context().get_system_service("package").list_packages()
                if p.package_name == package)


def calls_orders(device: Device, package: str) -> int:
    """0 if ``package`` fetched an order, else the error code it got."""
    return refusal_of(device, package)[0]


def refusal_of(device: Device, package: str) -> tuple[int, str]:
    request = ExecuteAppFunctionRequest(ORDERS, FETCH, AppFunctionData({"orderId": "ORD-8492"}))
    try:
        device.create_context(package).app_function_manager.execute_app_function(request)
    except AppFunctionException as error:
        return error.error_code, error.error_message
    return 0, ""


def other_signer(listed: str, status: str, signed_by: str) -> str:
    return (f"{AGENT} is on the {listed} for the signer with certificate SHA-256 {TEST_KEY}, and the installed "
            f"{AGENT} is signed by {signed_by}: another signer's package gets nothing from that entry, so it is not "
            f"{status}. To trust this install instead, remove {AGENT} from the {listed}, then add it again")


def test_another_signers_package_of_an_allowlisted_name_gets_nothing_and_is_told_so(device):
    """K03: the user allowlists an agent APK, uninstalls it; another signer's APK of that name
    asked EXECUTE_APP_FUNCTIONS_SYSTEM and called orders with no grant."""
    device.install(APKS / "agent-signed.apk")
    allowlist(device, AllowlistEdit.ADD, AGENT)
    assert [str(e) for e in device.permissions.privileged_entries()] == [f"{AGENT}:{TEST_KEY}"]
    assert device.settings.value(*ADDITIONAL_AGENT_ALLOWLIST) == f"{AGENT}:{TEST_KEY}"
    assert privileged(device, AGENT) and calls_orders(device, AGENT) == 0

    device.package_manager.uninstall(AGENT)
    hostile = device.install(APKS / "agent-other-key.apk")
    signed_by = f"certificate SHA-256 {OTHER_KEY}"
    assert [note for note in hostile.install_notes if "another signer" in note] == [
        other_signer(LISTS[0], "privileged", signed_by), other_signer(LISTS[1], "an allowlisted agent", signed_by)]
    assert not privileged(device, AGENT)
    assert SYSTEM_PERMISSION not in device.permissions.granted_permissions(device.registry.get(AGENT))
    assert AGENT not in device.shell_context().app_function_manager.get_valid_agents()
    code, message = refusal_of(device, AGENT)
    assert code == AppFunctionException.ERROR_DENIED
    assert message.endswith(f"; {AGENT} is on the privileged allowlist for another signer's package of that name, "
                            "which this install is not: remove it from the list, then add it again, to trust this install")
    assert TEST_KEY not in message, "the list is not the caller's to read"

    shell = device.shell_context()
    with pytest.raises(IllegalArgumentException) as refused:  # naming it again is no way around it
        shell.get_system_service("package").edit_privileged_allowlist(AllowlistEdit.ADD, [AGENT])
    assert str(refused.value) == other_signer(LISTS[0], "privileged", signed_by)
    with pytest.raises(IllegalArgumentException) as refused:
        shell.app_function_manager.edit_additional_agent_allowlist(AllowlistEdit.SET, [AGENT])
    assert str(refused.value) == other_signer(LISTS[1], "an allowlisted agent", signed_by)
    with pytest.raises(IllegalArgumentException) as refused:  # the platform's set-additional-allowlisted-agents
        shell.get_system_service("settings").put_setting(*ADDITIONAL_AGENT_ALLOWLIST, f"{AGENT};com.example.other")
    assert str(refused.value) == other_signer(LISTS[1], "an allowlisted agent", signed_by)
    assert device.settings.value(*ADDITIONAL_AGENT_ALLOWLIST) == f"{AGENT}:{TEST_KEY}"
    assert not privileged(device, AGENT)

    allowlist(device, AllowlistEdit.REMOVE, AGENT)  # the user's own choice: trust the new signer
    allowlist(device, AllowlistEdit.ADD, AGENT)
    assert [str(e) for e in device.permissions.privileged_entries()] == [f"{AGENT}:{OTHER_KEY}"]
    assert privileged(device, AGENT) and calls_orders(device, AGENT) == 0


def test_the_allowlisted_signers_reinstall_is_privileged_again(device):
    device.install(APKS / "agent-signed.apk")
    allowlist(device, AllowlistEdit.ADD, AGENT)
    device.package_manager.uninstall(AGENT)
    assert not [note for note in device.install(APKS / "agent-signed.apk").install_notes if "signer" in note]
    assert privileged(device, AGENT) and calls_orders(device, AGENT) == 0


def test_an_unsigned_packages_entries_go_with_its_uninstall(device, tmp_path):
    """An app folder has no signer to bind to: its entries are bound to its install. The same
    holds of DeviceConfig's list (written with `device_config put`)."""
    folder = copy_app(PROJECT_APPS / "system" / "assistant", tmp_path / "apps")
    agent = device.install(folder).package_name
    allowlist(device, AllowlistEdit.ADD, agent)
    device.settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, agent)
    assert privileged(device, agent) and device.permissions.privileged_allowlist() == [agent]

    device.package_manager.uninstall(agent)
    assert device.permissions.privileged_allowlist() == []
    assert device.settings.value(*ADDITIONAL_AGENT_ALLOWLIST) is None
    assert device.settings.value(*DEVICE_CONFIG_AGENT_ALLOWLIST) is None
    device.install(folder)
    assert not privileged(device, agent)
    assert agent not in device.shell_context().app_function_manager.get_valid_agents()


def test_a_name_allowlisted_before_its_install_is_bound_by_its_first_install(device):
    allowlist(device, AllowlistEdit.ADD, AGENT)
    assert [str(e) for e in device.permissions.privileged_entries()] == [AGENT]
    device.install(APKS / "agent-signed.apk")
    assert [str(e) for e in device.permissions.privileged_entries()] == [f"{AGENT}:{TEST_KEY}"]
    assert device.settings.value(*ADDITIONAL_AGENT_ALLOWLIST) == f"{AGENT}:{TEST_KEY}"
    assert privileged(device, AGENT)


def test_a_setting_written_whole_is_bound_too_and_a_named_signer_is_kept(device):
    """`settings put` and `device_config put` write Android's format: a name is bound to the
    signer installed, and `pkg:SHA256` names one (an entry for a signer not installed matches nothing)."""
    device.install(APKS / "agent-signed.apk")
    device.settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, AGENT)
    assert device.settings.value(*DEVICE_CONFIG_AGENT_ALLOWLIST) == f"{AGENT}:{TEST_KEY}"
    device.settings.put_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST, f"{AGENT}:{OTHER_KEY.upper()}")
    assert device.settings.value(*DEVICE_CONFIG_AGENT_ALLOWLIST) == f"{AGENT}:{OTHER_KEY}"
    assert AGENT not in device.shell_context().app_function_manager.get_valid_agents()


def test_bindings_survive_a_restart(tmp_path):
    data = tmp_path / "data"
    with Device(data, isolated_apps=False) as device:
        device.install(APKS / "agent-signed.apk")
        allowlist(device, AllowlistEdit.ADD, AGENT)
        device.package_manager.uninstall(AGENT)
    with Device(data, isolated_apps=False) as device:
        device.install(APKS / "agent-other-key.apk")
        assert not privileged(device, AGENT)
        assert [str(e) for e in device.permissions.privileged_entries()] == [f"{AGENT}:{TEST_KEY}"]
