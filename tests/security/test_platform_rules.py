"""Rules of the platform that hold whether or not the device runs as root: names only the
platform may take, and listings that show an app only what Android would show it."""

from __future__ import annotations

import pytest

from sim.device import Device
from sim.pm.install_error import InstallError
from tests.unit.access.apps import make_app

APP = "com.test.app"


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        yield device


@pytest.mark.parametrize("name", ["android.permission.EXECUTE_APP_FUNCTIONS_TOO", "android.permission.READ_SMS",
                                  "android.permission-group.ANYTHING"])
def test_no_app_may_define_a_permission_in_the_android_namespace(device, tmp_path, name):
    app = make_app(tmp_path / "src", APP, declares=((name, "normal"),))
    with pytest.raises(InstallError) as refused:
        device.install(app)
    assert str(refused.value) == (f"INSTALL_FAILED_DUPLICATE_PERMISSION: Package {APP} attempting to declare "
                                  f"permission {name} in the android.* namespace, which is reserved to the "
                                  "platform (android)")
    assert device.registry.all() == [] and not any(p.package_name == APP for p in device.permissions.definitions())
    # A name of the app's own is its to define.
    assert device.install(make_app(tmp_path / "src", APP, declares=((f"{APP}.permission.OWN", "signature"),)))


def listed(device: Device, package: str) -> list[str]:
    with device.create_context(package) as context:
        return sorted(p.package_name for p in context.get_system_service("package").list_packages())


def test_an_app_lists_only_itself_and_what_it_may_see_unless_it_may_query_all(device, tmp_path):
    from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS

    device.install(make_app(tmp_path / "src", APP))
    device.install(make_app(tmp_path / "src", "com.test.other"))
    device.install(make_app(tmp_path / "src", "com.test.curious", uses=("android.permission.QUERY_ALL_PACKAGES",)))
    device.install(make_app(tmp_path / "src", "com.test.agent", uses=(EXECUTE_APP_FUNCTIONS,)), system=True)
    everyone = ["com.test.agent", APP, "com.test.curious", "com.test.other"]
    # Defence: package visibility (Android 11+): no uid, flags or permissions of packages it may not see.
    assert listed(device, APP) == [APP]
    assert listed(device, "com.test.curious") == everyone  # QUERY_ALL_PACKAGES, a normal permission
    # An agent sees the packages whose functions it may discover: all of them, on Android's rule
    # for EXECUTE_APP_FUNCTIONS (their functions are visible to it).
    assert listed(device, "com.test.agent") == everyone
    with device.shell_context() as shell:
        assert sorted(p.package_name for p in shell.get_system_service("package").list_packages()) == everyone
