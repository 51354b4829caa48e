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


@pytest.mark.parametrize("name", ["android.permission.EXECUTE_APP_FUNCTIONS_TOO", "android.permission.QUERY_ALL_PACKAGES",
                                  "android.permission-group.ANYTHING"])
def test_no_app_may_define_a_permission_in_the_android_namespace(device, tmp_path, name):
    app = make_app(tmp_path / "src", APP, declares=((name, "normal"),))
    with pytest.raises(InstallError) as refused:
        device.install(app)
    assert str(refused.value) == (f"INSTALL_FAILED_DUPLICATE_PERMISSION: Package {APP} attempting to declare "
                                  f"permission {name} in the android.* namespace, which is reserved to the "
                                  "platform (android)")
    assert device.registry.all() == [] and not any(p.name == name for p in device.permissions.definitions())
    # A name of the app's own is its to define.
    assert device.install(make_app(tmp_path / "src", APP, declares=((f"{APP}.permission.OWN", "signature"),)))
