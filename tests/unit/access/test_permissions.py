"""The permission manager: protection levels, who holds what, and what `pm grant` may change."""

from __future__ import annotations

import pytest

from droid.os import IllegalArgumentException, SecurityException
from droid.os.binder import ROOT_UID, SHELL_UID
from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.device import Device
from sim.permissions.definitions import ProtectionLevel
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM, MANAGE_APP_FUNCTION_ACCESS

INTERNET = "android.permission.INTERNET"
READ_CONTACTS = "android.permission.READ_CONTACTS"
BIND = "android.permission.BIND_APP_FUNCTION_SERVICE"
APP = "com.test.app"
OWNER = "com.test.owner"


@pytest.mark.parametrize(("text", "base", "privileged"), [
    ("normal", "normal", False),
    ("dangerous", "dangerous", False),
    ("signature", "signature", False),
    ("signature|privileged", "signature", True),
    ("signatureOrSystem", "signature", True),
    ("internal|privileged", "internal", True),
    ("signature|development", "signature", False),
])
def test_protection_levels_parse_as_android_writes_them(text, base, privileged):
    level = ProtectionLevel.parse(text)
    assert (level.base, level.is_privileged, level.is_runtime) == (base, privileged, base == "dangerous")


@pytest.mark.parametrize(("text", "message"), [
    ("banana", "unknown value 'banana'"),
    ("normal|dangerous", "names two bases: normal and dangerous"),
])
def test_a_malformed_protection_level_names_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        ProtectionLevel.parse(text)


@pytest.mark.parametrize(("bits", "text"), [
    (0x0, "normal"),
    (0x1, "dangerous"),
    (0x2, "signature"),  # what AndroidX core's DYNAMIC_RECEIVER_NOT_EXPORTED_PERMISSION compiles to
    (0x12, "signature|privileged"),
    (0x3, "signature|privileged"),  # signatureOrSystem, as PermissionInfo.fixProtectionLevel reads it
    (0x14, "internal|privileged"),
    (0x8000002, "signature|knownSigner"),
    (0x42, "signature|appop"),
])
def test_protection_levels_read_from_binary_xml_bits(bits, text):
    assert ProtectionLevel.from_bits(bits) == ProtectionLevel.parse(text)


@pytest.mark.parametrize(("bits", "message"), [
    (0x5, r"protection level 0x00000005: unknown base 0x5"),
    (0x10000002, r"protection level 0x10000002: unknown flag bits 0x10000000"),
])
def test_bits_android_does_not_define_are_named(bits, message):
    with pytest.raises(ValueError, match=message):
        ProtectionLevel.from_bits(bits)


@pytest.fixture
def pm(access_device):
    return access_device.shell_context().get_system_service("package")


def install(device, make, system=False, uses=(INTERNET, READ_CONTACTS, EXECUTE_APP_FUNCTIONS)):
    device.install(make(APP, uses), system=system)
    return device.registry.get(APP)


def granted(device, package=APP):
    return set(device.permissions.granted_permissions(device.registry.get(package)))


def test_normal_at_install_dangerous_at_runtime_privileged_never_for_a_plain_app(access_device, make, pm):
    install(access_device, make)
    assert granted(access_device) == {INTERNET}
    pm.grant_permission(APP, READ_CONTACTS)
    assert granted(access_device) == {INTERNET, READ_CONTACTS}
    pm.revoke_permission(APP, READ_CONTACTS)
    assert granted(access_device) == {INTERNET}


def test_a_system_app_gets_the_privileged_permissions_it_requests(access_device, make):
    install(access_device, make, system=True)
    assert granted(access_device) == {INTERNET, EXECUTE_APP_FUNCTIONS}


def test_the_privileged_allowlist_makes_a_package_privileged_until_taken_off(access_device, make, pm):
    install(access_device, make)
    pm.edit_privileged_allowlist(AllowlistEdit.SET, [APP])
    assert pm.get_privileged_allowlist() == [APP]
    assert EXECUTE_APP_FUNCTIONS in granted(access_device)
    assert pm.check_permission(EXECUTE_APP_FUNCTIONS, APP) == 0
    pm.edit_privileged_allowlist(AllowlistEdit.SET, [])
    assert EXECUTE_APP_FUNCTIONS not in granted(access_device)
    assert pm.check_permission(EXECUTE_APP_FUNCTIONS, APP) == -1


def test_pm_grant_of_a_privileged_permission_fails_with_a_clear_error(access_device, make, pm):
    install(access_device, make)
    with pytest.raises(SecurityException) as raised:
        pm.grant_permission(APP, EXECUTE_APP_FUNCTIONS)
    assert str(raised.value) == (
        f"Permission {EXECUTE_APP_FUNCTIONS} requested by {APP} is not a changeable permission type: it is "
        "internal|privileged, granted at install to privileged packages only (system apps and the device's "
        "privileged allowlist)"
    )
    assert EXECUTE_APP_FUNCTIONS not in granted(access_device)


@pytest.mark.parametrize(("permission", "error", "message"), [
    (INTERNET, SecurityException, "is not a changeable permission type: it is normal, granted at install to every"),
    (BIND, SecurityException, f"Package {APP} has not requested permission {BIND}"),
    ("com.nobody.PERMISSION", IllegalArgumentException, "Unknown permission: com.nobody.PERMISSION"),
])
def test_pm_grant_changes_runtime_permissions_only(access_device, make, pm, permission, error, message):
    install(access_device, make)
    for change in (pm.grant_permission, pm.revoke_permission):
        with pytest.raises(error, match=message):
            change(APP, permission)


def test_pm_grant_to_an_unknown_package_is_an_illegal_argument(pm):
    with pytest.raises(IllegalArgumentException, match="Unknown package: com.nobody"):
        pm.grant_permission("com.nobody", READ_CONTACTS)


def test_an_app_may_not_grant_or_change_the_allowlist(access_device, make):
    install(access_device, make)
    app_pm = access_device.create_context(APP).get_system_service("package")
    with pytest.raises(SecurityException, match=f"{APP} \\(uid \\d+\\) may not grant permissions"):
        app_pm.grant_permission(APP, READ_CONTACTS)
    with pytest.raises(SecurityException, match="may not change the privileged allowlist"):
        app_pm.edit_privileged_allowlist(AllowlistEdit.ADD, [APP])


def test_app_defined_permissions_follow_their_levels(access_device, make, pm):
    declares = (("com.test.owner.SIG", "signature"), ("com.test.owner.NORMAL", "normal"),
                ("com.test.owner.DANGER", "dangerous"), ("com.test.owner.PRIV", "signature|privileged"))
    names = tuple(name for name, _ in declares)
    access_device.install(make(OWNER, names, declares=declares))
    access_device.install(make(APP, names))
    assert granted(access_device, OWNER) == {"com.test.owner.SIG", "com.test.owner.NORMAL", "com.test.owner.PRIV"}
    assert granted(access_device, APP) == {"com.test.owner.NORMAL"}
    pm.grant_permission(APP, "com.test.owner.DANGER")
    assert granted(access_device, APP) == {"com.test.owner.NORMAL", "com.test.owner.DANGER"}
    listed = {(p.name, p.protection_level, p.package_name) for p in pm.list_permissions()}
    assert ("com.test.owner.PRIV", "signature|privileged", OWNER) in listed
    assert (EXECUTE_APP_FUNCTIONS, "internal|privileged", "android") in listed


@pytest.mark.parametrize(("declared", "message"), [
    (EXECUTE_APP_FUNCTIONS, "INSTALL_FAILED_DUPLICATE_PERMISSION: Package com.test.app attempting to redeclare "
                            f"permission {EXECUTE_APP_FUNCTIONS} already owned by android"),
    ("com.test.owner.SIG", "INSTALL_FAILED_DUPLICATE_PERMISSION: .* already owned by com.test.owner"),
])
def test_nobody_may_redefine_a_permission_another_owns(access_device, make, declared, message):
    access_device.install(make(OWNER, declares=(("com.test.owner.SIG", "signature"),)))
    with pytest.raises(IllegalArgumentException, match=message):
        access_device.install(make(APP, (declared,), declares=((declared, "normal"),)))
    assert access_device.registry.get(APP) is None


def test_a_malformed_protection_level_refuses_the_install(access_device, make):
    with pytest.raises(IllegalArgumentException, match="INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: <permission com.test.X>"):
        access_device.install(make(APP, declares=(("com.test.X", "superuser"),)))


def test_shell_and_root_hold_what_they_need(access_device):
    check = access_device.permissions.check_permission
    assert all(check(p, SHELL_UID) for p in (EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM, MANAGE_APP_FUNCTION_ACCESS))
    assert not check(BIND, SHELL_UID)
    assert check(BIND, ROOT_UID)


def test_runtime_grants_survive_a_restart_and_go_with_an_uninstall(access_device, make, pm):
    install(access_device, make)
    pm.grant_permission(APP, READ_CONTACTS)
    data_dir = access_device.data_dir
    access_device.shutdown()
    with Device(data_dir, isolated_apps=False) as again:
        assert READ_CONTACTS in granted(again)
        again.package_manager.uninstall(APP)
        again.install(make(APP, (READ_CONTACTS,)))
        assert READ_CONTACTS not in granted(again)
