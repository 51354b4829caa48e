"""Recording cassettes: from a droidsim device, and from a phone through a stand-in adb that
answers as AppFunctionManagerServiceShellCommand does."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.appfunctions import AppFunctionElementNotFoundException
from sim.cli.main import cli
from sim.responses.adb import AdbTarget, metadata_of_folder
from sim.responses.cassette import read_cassette_file
from sim.responses.record import DeviceTarget, RecordError, record
from sim.responses.staging import ResponseOptions
from tests.helpers import SAMPLE_APPS
from tests.unit.responses.conftest import CANCEL, FETCH, ORDERS_CALLS
from tests.unit.responses.test_cassette import call

CALLS = ORDERS_CALLS

# What `cmd app_function execute-app-function` prints for the orders app on Android 16 QPR2:
# every property an array (AppSearchDataJsonConverter), absent nulls, org.json's indent of 2.
PHONE_ANSWERS = {
    FETCH + ' {"orderId": "ORD-8492"}': (0, json.dumps({"androidAppfunctionsReturnValue": [{
        "orderId": ["ORD-8492"], "status": ["SHIPPED"], "carrier": ["UPS"],
        "trackingNumber": ["1Z999AA10123456784"],
        "estimatedDelivery": [{"year": [2025], "month": [6], "dayOfMonth": [14]}],
        "items": [{"sku": ["SKU-1042"], "name": ["Trail running shoes"], "quantity": [1]}],
        "itemCount": [1], "canCancel": [False]}]}, indent=2) + "\n"),
    FETCH + ' {"orderId": "ORD-0000"}': (255, "Error executing app function: android.app.appfunctions."
                                             "AppFunctionException: No order found with ID ORD-0000 (code 1500). "
                                             "See logcat for more details. \n"),
    CANCEL + ' {"orderId": "ORD-7310"}': (0, json.dumps({"androidAppfunctionsReturnValue": [{
        "orderId": ["ORD-7310"], "cancelled": [True], "status": ["CANCELLED"],
        "message": ["Order cancelled."]}]}, indent=2) + "\n"),
}


@pytest.fixture
def stand_in_adb(tmp_path, monkeypatch):
    """An `adb` on PATH: `adb [-s SERIAL] shell COMMAND`, COMMAND one string as adb sends it to
    the device's shell; it logs each command line and answers from PHONE_ANSWERS."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "adb.log"
    script = bin_dir / "adb"
    script.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, shlex, sys
        args = sys.argv[1:]
        if args[:1] == ["-s"]:
            args = args[2:]
        assert args[0] == "shell" and len(args) == 2, args
        open({str(log)!r}, "a").write(args[1] + "\\n")
        words = shlex.split(args[1])
        assert words[:3] == ["cmd", "app_function", "execute-app-function"], words
        options = dict(zip(words[3::2], words[4::2]))
        key = options["--function"] + " " + json.dumps(json.loads(options["--parameters"]), sort_keys=True)
        code, output = {PHONE_ANSWERS!r}.get(key, (255, "Exception: java.lang.IllegalStateException: unknown\\n"))
        sys.stdout.write(output)
        sys.exit(code)
        """))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


def test_recording_from_a_droidsim_device_replays_the_same_answers(tmp_path, kotlin_orders):
    from sim.device import Device

    with Device(tmp_path / "python", isolated_apps=False) as python_device:
        python_device.install(SAMPLE_APPS / "orders")
        cassette = record(CALLS, DeviceTarget(python_device.shell_context()))
        live = call(python_device, FETCH, orderId="ORD-8492").return_value
    assert cassette["calls"]["fetch_order_details"][1]["error"] == {
        "code": "ERROR_RESOURCE_NOT_FOUND", "message": "No order found with ID ORD-0000"}
    path = tmp_path / "orders.cassette.yaml"
    from sim.responses.record import write_cassette

    write_cassette(cassette, path)
    with Device(tmp_path / "kotlin", isolated_apps=False) as kotlin_device:
        kotlin_device.install(kotlin_orders, responses=ResponseOptions(cassette=path))
        assert call(kotlin_device, FETCH, orderId="ORD-8492").return_value == live
        with pytest.raises(AppFunctionElementNotFoundException, match="No order found with ID ORD-0000"):
            call(kotlin_device, FETCH, orderId="ORD-0000")


def test_recording_through_adb_reads_the_platform_output_format(stand_in_adb, kotlin_orders):
    cassette = record(CALLS, AdbTarget(metadata_of_folder(kotlin_orders), serial="emulator-5554"))
    fetched, missing = cassette["calls"]["fetch_order_details"]
    assert fetched["response"]["estimatedDelivery"] == {"year": 2025, "month": 6, "dayOfMonth": 14}
    assert fetched["response"]["items"] == [{"sku": "SKU-1042", "name": "Trail running shoes", "quantity": 1}]
    assert fetched["response"]["canCancel"] is False and fetched["response"]["itemCount"] == 1
    assert missing["error"] == {"code": "ERROR_RESOURCE_NOT_FOUND", "message": "No order found with ID ORD-0000"}
    assert cassette["calls"]["cancel_order"][0]["response"]["cancelled"] is True
    first = stand_in_adb.read_text().splitlines()[0]
    assert first == ("cmd app_function execute-app-function --package com.example.orders --function "
                     f"'{FETCH}' --parameters '{{\"orderId\": \"ORD-8492\"}}' --timeout-duration 30")


def test_a_call_the_phone_cannot_run_stops_the_recording_naming_it(stand_in_adb, kotlin_orders, tmp_path):
    calls = tmp_path / "calls.yaml"
    calls.write_text("package: com.example.orders\ncalls:\n  - {function: fetch_order_details, parameters: {orderId: X}}\n")
    with pytest.raises(RecordError, match=f"{FETCH}: adb shell failed: Exception: java.lang.IllegalStateException"):
        record(calls, AdbTarget(metadata_of_folder(kotlin_orders)))


def test_a_missing_adb_is_named(kotlin_orders, tmp_path):
    with pytest.raises(RecordError, match="no-such-adb: not found"):
        record(CALLS, AdbTarget(metadata_of_folder(kotlin_orders), adb=str(tmp_path / "no-such-adb")))


def test_a_call_of_an_undeclared_parameter_is_refused_before_anything_runs(stand_in_adb, kotlin_orders, tmp_path):
    calls = tmp_path / "calls.yaml"
    calls.write_text("package: com.example.orders\ncalls:\n  - {function: fetch_order_details, parameters: {id: X}}\n")
    with pytest.raises(RecordError, match=r"calls.yaml: calls\[0\]: parameters.id: com.example.orders.OrderFunctionService#fetch_order_details has no such parameter"):
        record(calls, AdbTarget(metadata_of_folder(kotlin_orders)))
    assert not stand_in_adb.exists()


def test_the_record_command_writes_a_cassette_install_accepts(stand_in_adb, kotlin_orders, tmp_path, device):
    out = tmp_path / "phone.cassette.yaml"
    result = CliRunner().invoke(cli, ["responses", "record", str(CALLS), "--out", str(out), "--adb", str(kotlin_orders)])
    assert result.exit_code == 0, result.output
    assert result.output == f"recorded 3 calls of com.example.orders into {out}\n"
    assert read_cassette_file(out)["package"] == "com.example.orders"
    device.install(kotlin_orders, responses=ResponseOptions(cassette=out))
    assert call(device, FETCH, orderId="ORD-8492").return_value["carrier"] == "UPS"


def test_the_skeleton_command_writes_a_double_install_accepts(kotlin_orders, tmp_path, device):
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(kotlin_orders), str(tmp_path / "double")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"wrote {tmp_path / 'double' / '__init__.py'}", f"wrote {tmp_path / 'double' / 'orders.py'}"]
    device.install(kotlin_orders, responses=ResponseOptions(double_dir=tmp_path / "double"))


def test_the_skeleton_command_takes_an_apk_and_its_services_share_a_module(tmp_path, device):
    """The shop APK's two services live in one Kotlin package: one module holds both doubles."""
    from droid.appfunctions import AppFunctionData, AppFunctionNotSupportedException, ExecuteAppFunctionRequest

    apk = Path(__file__).resolve().parents[2] / "apks" / "shop.apk"
    double = tmp_path / "double"
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(apk), str(double)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"wrote {double / '__init__.py'}", f"wrote {double / 'shop.py'}"]
    text = (double / "shop.py").read_text()
    assert "class OrderFunctionService(" in text and "class TrackingFunctionService(" in text
    device.install(apk, responses=ResponseOptions(double_dir=double))
    manager = device.shell_context().app_function_manager
    request = ExecuteAppFunctionRequest("com.example.shop", "com.example.shop.OrderFunctionService#cancelOrder",
                                        AppFunctionData({"orderId": "ORD-1"}))
    with pytest.raises(AppFunctionNotSupportedException, match=r"^com.example.shop.OrderFunctionService#cancelOrder is not implemented in this double yet: "
                                                                r"write OrderFunctionService.cancelOrder in shop.py \(docs/responses.md\)"):
        manager.execute_app_function(request)


def test_the_skeleton_command_says_what_it_cannot_read(tmp_path):
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(Path(__file__)), str(tmp_path / "double")])
    assert result.exit_code == 1
    assert "is neither an app folder nor an APK droidsim can read: INSTALL_PARSE_FAILED_NOT_APK" in result.output
