"""`cmd app_function` commands AOSP's shell has (issue 16 row 17): is-enabled,
list-app-functions --package, read-app-description, --brief-yaml, and --function taking the
exact id only. Run in-process through click against a device served on its Unix socket."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.appfunctions.data import AppFunctionData
from sim.cli.brief_yaml import brief_yaml
from sim.cli.main import cli
from sim.device import Device
from tests.helpers import HELPER_APP, HELPER_PACKAGE

ORDERS_APP = Path(__file__).resolve().parents[3] / "apps" / "orders"
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    with Device(tmp_path_factory.mktemp("shell") / "data", isolated_apps=False) as device:
        device.install(HELPER_APP)
        device.install(ORDERS_APP)
        device.serve()
        yield device


def shell(device, *args: str):
    return CliRunner().invoke(
        cli, ["--device", device.address, "--data", str(device.data_dir), "shell", "cmd", "app_function", *args]
    )


def test_is_enabled_prints_true_or_false(device):
    assert shell(device, "is-enabled", "--package", HELPER_PACKAGE, "--function", "add").stdout == "true\n"
    assert shell(device, "is-enabled", "--package", HELPER_PACKAGE, "--function", "add_disabledByDefault").stdout == "false\n"
    missing = shell(device, "is-enabled", "--package", HELPER_PACKAGE, "--function", "nothing")
    assert missing.exit_code == 0 and missing.stdout.endswith("AppFunctionNotFoundException: App function not found.\n")


def test_list_app_functions_of_one_package(device):
    listing = json.loads(shell(device, "list-app-functions", "--package", ORDERS, "--json").stdout)
    assert list(listing) == [ORDERS] and FETCH in {f["id"] for f in listing[ORDERS]}


def test_read_app_description(device):
    result = shell(device, "read-app-description", "--package", ORDERS)
    assert result.exit_code == 0 and result.stdout.strip()
    assert result.stdout.strip() == device.registry.get(ORDERS).metadata.app_metadata.description.strip()



def test_read_app_description_of_metadata_without_one_prints_null(device, tmp_path):
    """Android prints the attribute it read, null when there is none (PrintWriter.println(null))."""
    app = tmp_path / "orders"
    shutil.copytree(ORDERS_APP, app, ignore=shutil.ignore_patterns("__pycache__"))
    metadata = app / "res" / "xml" / "app_metadata.xml"
    metadata.write_text(re.sub(r'appfn:description="[^"]*"', "", metadata.read_text()))
    device.install(app)
    try:
        result = shell(device, "read-app-description", "--package", ORDERS)
        assert (result.exit_code, result.stdout, result.stderr) == (0, "null\n", "")
    finally:
        device.install(ORDERS_APP)


@pytest.mark.parametrize("args, line", [
    (("--package", HELPER_PACKAGE), "Exception: android.content.pm.PackageManager$NameNotFoundException"),
    (("--package", "com.example.absent"), "Exception: android.content.pm.PackageManager$NameNotFoundException"),
    ((), "Exception: java.lang.NullPointerException"),
], ids=["no-app-metadata", "not-installed", "no-package"])
def test_read_app_description_fails_as_package_manager_does(device, args, line):
    """readAppDescription's getProperty throws: NameNotFoundException for a package without the
    property or not installed, NullPointerException without --package; onCommand prints it."""
    result = shell(device, "read-app-description", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (255, line + "\n", "")


def test_a_short_name_is_refused_naming_the_exact_id(device):
    result = shell(device, "execute-app-function", "--package", ORDERS, "--function", "fetch_order_details",
                   "--parameters", '{"orderId": "ORD-8492"}')
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")  # the device's own refusal, as for any unknown id
    assert f"--function takes the exact id: 'fetch_order_details' is {FETCH}." in result.stderr


@pytest.mark.parametrize("command", [("set-enabled", "--state", "disable"), ("is-enabled",)])
def test_a_short_name_elsewhere_gets_the_platforms_answer_alone(device, command):
    result = shell(device, command[0], "--package", ORDERS, "--function", "fetch_order_details", *command[1:])
    assert result.exit_code == 0 and result.stderr == "" and result.stdout.startswith("Error ")
    assert FETCH not in result.stdout  # droidsim's hint is execute-app-function's only (docs/differences.md)
    assert shell(device, "is-enabled", "--package", ORDERS, "--function", FETCH).stdout == "true\n"  # nothing changed


def test_brief_yaml_prints_the_result_document(device):
    result = shell(device, "execute-app-function", "--package", HELPER_PACKAGE, "--function", "add",
                   "--parameters", '{"a": 1, "b": 2}', "--brief-yaml")
    assert (result.exit_code, result.stdout) == (0, "androidAppfunctionsReturnValue: 3\n")


def test_brief_yaml_follows_aosps_minimal_generator():
    """AppSearchDataYamlConverterTest, keepEmptyValues and keepNullValues false: empty and null
    values go, a one-item list is its item, nested documents are maps, odd strings are quoted."""
    document = AppFunctionData({
        "emptyString": "", "realString": "value", "zeroLong": 0, "falseBoolean": False, "none": None,
        "stringArr": ["a", "b", "c"], "one": [1.5], "nested": AppFunctionData(nestedProp="I am nested"),
        "docs": [AppFunctionData(prop="first"), AppFunctionData(prop="second")], "odd": "a: b", "word": "true",
    })
    assert brief_yaml(document) == (
        "realString: value\nzeroLong: 0\nfalseBoolean: false\nstringArr:\n  - a\n  - b\n  - c\none: 1.5\n"
        "nested:\n  nestedProp: I am nested\ndocs:\n  - prop: first\n  - prop: second\n"
        'odd: "a: b"\nword: "true"'
    )


def test_a_function_this_sdk_does_not_index_is_said_declared_and_why(tmp_path):
    check_in = "com.example.travel.checkin.CheckInFunctions#checkIn"
    with Device(tmp_path / "data", isolated_apps=False, sdk=36) as device:
        device.install(Path(__file__).resolve().parents[2] / "apks" / "travel-signed.apk")
        device.serve()
        result = shell(device, "execute-app-function", "--package", "com.example.travel", "--function", check_in,
                       "--parameters", '{"bookingId": "BK-1"}')
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1] == (
        f"com.example.travel declares {check_in}, but this device does not index it: its service "
        "com.example.travel.CheckInService is disabled on Android 16 (SDK 36) (android:enabled is false there; a "
        "device of another SDK may index it).")
