"""`--as PKG` acts as a package only with that package's credential, read from the data directory."""

from __future__ import annotations

import click
import pytest

from droid.content import device_address
from sim.cli.connection import DeviceAddress, credential_for


@pytest.fixture
def address(tmp_path):
    (tmp_path / "data" / "com.test.app").mkdir(parents=True)
    (tmp_path / "data" / "com.test.app" / "credential").write_text("secret\n")
    return DeviceAddress("unix:/nowhere/device.sock", tmp_path)


def test_the_credential_is_read_from_the_packages_data_folder(address):
    assert credential_for(address, "com.test.app") == "secret"


def test_a_misspelt_package_is_told_the_installed_one_closest_to_it(address):
    with pytest.raises(click.ClickException) as raised:
        credential_for(address, "com.test.ap")
    assert raised.value.message == (f"no credential for com.test.ap at {address.data_dir}/data/com.test.ap/credential "
                                    "(is it installed on this device? Did you mean com.test.app?)")


def test_a_package_without_a_credential_is_a_clear_error(address):
    with pytest.raises(click.ClickException, match=r"no credential for com.nobody at .* \(is it installed on this device\?\)"):
        credential_for(address, "com.nobody")


def test_an_unreadable_credential_is_a_clear_error(address, monkeypatch):
    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(device_address, "read_file", refuse)  # as for a user who may not read it (not root)
    with pytest.raises(click.ClickException, match="acting as another package needs access to the device's data"):
        credential_for(address, "com.test.app")


def test_a_tcp_address_without_a_data_directory_cannot_act_as_anyone():
    with pytest.raises(click.ClickException, match="pass --data DIR"):
        credential_for(DeviceAddress("127.0.0.1:5555", None), "com.test.app")


def test_a_device_folder_that_does_not_exist_is_said_so_with_the_running_devices_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("DROIDSIM_HOME", str(tmp_path / "home"))  # no device runs in this registry
    address = device_address.resolve_device(str(tmp_path / "nodata"))
    with pytest.raises(click.ClickException) as raised:
        credential_for(address, "com.test.app")
    assert raised.value.message == (f"there is no folder {tmp_path / 'nodata'}: a device is named by its data folder, "
                                    "unix:PATH or HOST:PORT (the data folders of the devices running on this machine: "
                                    "none)")
