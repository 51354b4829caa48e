"""Every supported type crosses the binder unchanged, in-process and across processes (issue 3)."""

from __future__ import annotations

from datetime import date, datetime, time, timezone
from zoneinfo import ZoneInfo

import pytest

from droid.app import ComponentName, Intent, PendingIntent
from droid.appfunctions import ExecuteAppFunctionRequest, SetField
from droid.appfunctions.codec import decode_value, encode_arguments
from droid.appfunctions.loader import load_app_service_class
from droid.content import connect
from droid.net import Uri
from droid.os import Bundle
from sim.device import Device
from tests.helpers import REPO, DeviceProcess, copy_app

ECHO_APP = REPO / "tests" / "e2e" / "apps" / "echo"
PACKAGE = "com.example.echo"
SERVICE = "com.example.echo.EchoService"

echo = load_app_service_class(ECHO_APP, SERVICE)
module = __import__(echo.__module__, fromlist=["Node"])
Node, Wrapper, Derived = module.Node, module.Wrapper, module.Derived
Circle, Square = module.Circle, module.Square

PENDING = PendingIntent.get_activity(
    None, 3,
    Intent(action="com.example.VIEW", component=ComponentName(PACKAGE, "com.example.echo.Main"),
           data=Uri.parse("echo://item/1"), extras={"id": 1, "name": "x"}),
    PendingIntent.FLAG_IMMUTABLE,
)

VALUES = {
    "boolean": True, "long": -(2**62), "int": 2**31 - 1, "double": 1.25, "string": "héllo\n",
    "bytes": bytes(range(256)), "nullable": None, "strings": ["a", "", "c"], "longs": [1, -2, 3],
    "date": date(2024, 2, 29), "time": time(23, 59, 58, 999999),
    "datetime": datetime(1999, 12, 31, 23, 59, 59, 123456),
    "instant": datetime(2025, 6, 14, 16, 0, 0, 250000, tzinfo=timezone.utc),
    "zone": ZoneInfo("Asia/Bangkok"), "uri": Uri.parse("content://com.example/items/1?x=y#z"),
    "pending_intent": PENDING,
    "nested": Node("root", [Node("a"), Node("b", [Node("b1")])], Node("up")),
    "generic": Wrapper(1, [2, 3]),
    "set_field": SetField(None),           # present, holding null: "set the field to null"
    "optional_set_field": None,            # absent: "leave the field unchanged"
    "derived": Derived("d-1", 7),
    "bundle": Bundle({"id": 1, "name": "x", "tags": ["a", "b"], "blob": b"\x00"}),  # any Parcelable (issue 16)
    "shape": Square(2.5, "sq"),  # a sealed class's case keeps its own fields (issue 16)
    "either": Circle(1.0),  # a union A | B
}


@pytest.fixture(scope="module")
def managers(tmp_path_factory):
    """The same app behind both transports."""
    root = tmp_path_factory.mktemp("echo")
    apps = root / "apps"
    copy_app(ECHO_APP, apps)
    device_process = DeviceProcess(root / "remote", apps)
    remote = connect(f"unix:{root / 'remote' / 'device.sock'}", (root / "remote" / "shell.credential").read_text())
    local = Device(root / "local", isolated_apps=False)
    local.install_all(apps)
    yield {"in-process": local.shell_context().app_function_manager, "cross-process": remote.app_function_manager}
    remote.close()
    local.shutdown()
    device_process.stop()


@pytest.mark.parametrize("transport", ["in-process", "cross-process"])
@pytest.mark.parametrize("name", sorted(VALUES))
def test_value_comes_back_unchanged(managers, transport, name):
    spec = echo.app_function_spec().function(f"{SERVICE}#echo_{name}")
    request = ExecuteAppFunctionRequest(PACKAGE, spec.id, encode_arguments(spec, value=VALUES[name]))
    response = managers[transport].execute_app_function(request)
    assert decode_value(spec.returns, response.return_value, "value") == VALUES[name]


def test_null_and_absent_differ_on_the_wire(managers):
    spec = echo.app_function_spec().function(f"{SERVICE}#echo_optional_set_field")
    absent = encode_arguments(spec, value=None)
    null = encode_arguments(spec, value=SetField(None))
    assert absent != null
    for manager in managers.values():
        assert manager.execute_app_function(ExecuteAppFunctionRequest(PACKAGE, spec.id, absent)).return_value is None
        returned = manager.execute_app_function(ExecuteAppFunctionRequest(PACKAGE, spec.id, null)).return_value
        assert decode_value(spec.returns, returned, "value") == SetField(None)


def test_the_echo_apps_xml_is_up_to_date():
    from droid.appfunctions.compiler import check

    assert check(ECHO_APP) == []
