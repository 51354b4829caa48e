"""`droidsim shell dumpsys package` and `pm list packages --json` say where a package came from
and who signed it, over the device's socket (the PackageInfo a remote client gets)."""

from __future__ import annotations

import hashlib
import json

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from sim.device import Device
from tests.helpers import SAMPLE_APPS
from tests.unit.apk.conftest import APKS, SHOP
from tests.unit.apk.test_install_apk import certificate_digest


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with Device(tmp_path_factory.mktemp("dumpsys") / "data", isolated_apps=False) as device:
        device.install(APKS / "shop-signed.apk")
        device.install(SAMPLE_APPS / "weather")
        device.serve()
        yield device


def shell(device, *args: str):
    return CliRunner().invoke(cli, ["--device", device.address, "--data", str(device.data_dir), "shell", *args])


def test_dumpsys_package_names_the_apk_and_its_signer(served):
    result = shell(served, "dumpsys", "package", SHOP)
    sha256 = hashlib.sha256((APKS / "shop-signed.apk").read_bytes()).hexdigest()
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"Package [{SHOP}] (uid {served.registry.get(SHOP).uid}):\n"
                             f"  from=apk:shop-signed.apk sha256={sha256} signed=v1,v2,v3 signer={certificate_digest('test')}\n")


def test_dumpsys_package_lists_every_package_and_refuses_an_unknown_one(served):
    assert "  from=folder\n" in shell(served, "dumpsys", "package").stdout
    missing = shell(served, "dumpsys", "package", "com.example.nothing")
    assert missing.exit_code == 1 and "Unable to find package: com.example.nothing" in missing.stderr


def test_pm_list_packages_json_carries_installed_from(served):
    packages = {p["package"]: p for p in json.loads(shell(served, "pm", "list", "packages", "--json").stdout)}
    assert packages[SHOP]["installed_from"]["certificate_sha256"] == [certificate_digest("test")]
    assert packages["com.example.weather"]["installed_from"] == {"kind": "folder"}
