"""A device process, called from other processes: the CLI and a remote Context."""

from __future__ import annotations

import json
import os

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from droid.appfunctions import AppFunctionAppUnknownException, ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.content import connect
from droid.os import SecurityException
from sim.device import Device
from tests.helpers import HELPER_APP, HELPER_PACKAGE, SAMPLE_APPS, droidsim

ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"


def shell_context(device_process):
    return connect(f"unix:{device_process.data / 'device.sock'}", (device_process.data / "shell.credential").read_text())


def test_boot_prints_packages_and_functions(device_process):
    text = "".join(device_process.output)
    assert ORDERS in text and "fetch_order_details" in text
    assert f"listening on unix:{device_process.data / 'device.sock'}" in text


def test_cli_execute_prints_the_order(device_process):
    result = droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", ORDERS,
                      "--function", FETCH, "--parameters", '{"orderId": "ORD-8492"}', data=device_process.data)
    assert result.returncode == 0, result.stderr
    order = json.loads(result.stdout)
    assert order["orderId"] == "ORD-8492"
    assert order["status"]


def test_same_result_in_process_and_across_processes(device_process, tmp_path):
    request = ExecuteAppFunctionRequest(ORDERS, FETCH, AppFunctionData(orderId="ORD-8492"))
    with shell_context(device_process) as remote:
        across = remote.app_function_manager.execute_app_function(request).return_value
    with Device(tmp_path / "local", isolated_apps=False) as local:
        local.install_all(SAMPLE_APPS)
        here = local.shell_context().app_function_manager.execute_app_function(request).return_value
    assert across == here
    assert isinstance(across, AppFunctionData)


def test_unknown_function_exits_non_zero_with_code_name(device_process):
    result = droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", ORDERS,
                      "--function", "nope", "--parameters", "{}", data=device_process.data)
    assert result.returncode == 1
    assert "ERROR_FUNCTION_NOT_FOUND (1003): App function not found." in result.stderr


def test_list_app_functions_json_maps_packages_to_functions(device_process):
    result = droidsim("shell", "cmd", "app_function", "list-app-functions", "--json", data=device_process.data)
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    fetch = next(f for f in listing[ORDERS] if f["id"] == FETCH)
    assert fetch["enabled"] is True and fetch["description"]
    assert fetch["parameters"][0]["name"] == "orderId"
    assert set(fetch) == {"id", "enabled", "description", "parameters", "response", "answers"}
    assert fetch["answers"] == {"source": "code"}  # a Python app answers with its code (docs/responses.md)


def test_set_enabled_through_the_shell(device_process):
    base = ["shell", "cmd", "app_function"]
    assert droidsim(*base, "set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "disable",
                    data=device_process.data).returncode == 0
    result = droidsim(*base, "execute-app-function", "--package", HELPER_PACKAGE, "--function", "add",
                      "--parameters", '{"a": 1, "b": 2}', data=device_process.data)
    assert result.returncode == 1 and "ERROR_DISABLED" in result.stderr
    droidsim(*base, "set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "default",
             data=device_process.data)
    result = droidsim(*base, "execute-app-function", "--package", HELPER_PACKAGE, "--function", "add",
                      "--parameters", '{"a": 1, "b": 2}', data=device_process.data)
    assert result.stdout.strip() == "3"


def test_each_app_runs_in_its_own_process_started_on_first_call(device_process):
    with shell_context(device_process) as context:
        noop = ExecuteAppFunctionRequest(HELPER_PACKAGE, "noOp")
        assert context.app_function_manager.execute_app_function(noop).return_value == "com.android.shell"
    children = _child_commands(device_process.process.pid)
    assert any(f"--package {HELPER_PACKAGE}" in c for c in children)


def test_killed_app_gives_app_unknown_error_then_restarts(device_process):
    with shell_context(device_process) as context:
        manager = context.app_function_manager
        with pytest.raises(AppFunctionAppUnknownException):
            manager.execute_app_function(ExecuteAppFunctionRequest(HELPER_PACKAGE, "kill"))
        add = ExecuteAppFunctionRequest(HELPER_PACKAGE, "add", AppFunctionData(a=2, b=3))
        assert manager.execute_app_function(add).return_value == 5


def test_call_without_credential_is_refused(device_process):
    with pytest.raises(SecurityException):
        connect(f"unix:{device_process.data / 'device.sock'}", "not-a-credential")


def test_health_service_reports_serving(device_process):
    channel = grpc.insecure_channel(f"unix:{device_process.data / 'device.sock'}")
    response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""))
    assert response.status == health_pb2.HealthCheckResponse.SERVING
    channel.close()


def test_hostile_app_is_refused_and_the_device_keeps_serving(device_process, tmp_path):
    from tests.helpers import copy_app

    app = copy_app(HELPER_APP, tmp_path)
    (app / "assets" / "app_functions_v2.xml").write_text(
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><appfunctions>&e;</appfunctions>'
    )
    result = droidsim("install", str(app), data=device_process.data)
    assert result.returncode == 1 and "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML" in result.stderr
    assert droidsim("shell", "cmd", "app_function", "list-app-functions", data=device_process.data).returncode == 0


def _child_commands(pid: int) -> list[str]:
    commands = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            if parent == pid:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    commands.append(cmdline.read().replace(b"\0", b" ").decode())
        except (OSError, ValueError, IndexError):
            continue
    return commands


def test_sigterm_shuts_down_cleanly(tmp_path):
    from tests.helpers import DeviceProcess

    device = DeviceProcess(tmp_path / "data", HELPER_APP.parent)
    assert device.stop() == 0
    assert "shutting down" in "".join(device.output)
