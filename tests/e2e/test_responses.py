"""A Kotlin app's folder on a served device, through the CLI: answers recorded from the Python
build replay byte for byte after a restart, a double keeps state, listings say which is which."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from tests.helpers import REPO, SAMPLE_APPS, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

KOTLIN_ORDERS = REPO / "docs" / "examples" / "kotlin-orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
CANCEL = "com.example.orders.OrderFunctionService#cancel_order"


@contextmanager
def running(data, *apps):
    device = DeviceProcess(data, *apps)
    try:
        yield device
    finally:
        device.stop()


def execute(data, function, parameters):
    return droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", "com.example.orders",
                    "--function", function, "--parameters", json.dumps(parameters), data=data)


def test_recorded_answers_replay_byte_identically_after_a_restart(tmp_path):
    data = tmp_path / "data"
    cassette = tmp_path / "orders.cassette.yaml"
    with running(data, SAMPLE_APPS):
        recorded = droidsim("responses", "record", str(REPO / "docs/examples/orders.calls.yaml"), "--out", str(cassette),
                            "--device", str(data))
        assert recorded.returncode == 0, recorded.stderr
        live = execute(data, FETCH, {"orderId": "ORD-8492"}).stdout
        installed = droidsim("install", str(KOTLIN_ORDERS), "--responses", str(cassette), data=data)
        assert installed.returncode == 0, installed.stderr
        replayed = execute(data, FETCH, {"orderId": "ORD-8492"})
        assert replayed.returncode == 0 and replayed.stdout == live
        refused = execute(data, FETCH, {"orderId": "ORD-1234"})
        assert refused.returncode == 1
        assert (f'ERROR_NOT_SUPPORTED (3501): com.example.orders has no answer for {FETCH} with parameters '
                '{"orderId": "ORD-1234"}') in refused.stderr
    with running(data):
        assert execute(data, FETCH, {"orderId": "ORD-8492"}).stdout == live
        listing = json.loads(droidsim("shell", "cmd", "app_function", "list-app-functions", "--json", "--package",
                                      "com.example.orders", data=data).stdout)
        answers = {f["id"]: f["answers"] for f in listing["com.example.orders"]}
        assert answers[FETCH] == {"source": "responses", "cassette": "orders.cassette.yaml", "recorded": 2,
                                  "double": None, "on_miss": "refuse"}
        dump = droidsim("shell", "dumpsys", "app_function", data=data).stdout
        assert "answers=responses cassette=orders.cassette.yaml (3 calls) onMiss=refuse" in dump
        assert "com.example.notes uid=" in dump and "answers=code" in dump


def test_a_double_keeps_state_in_its_app_process(tmp_path):
    data = tmp_path / "data"
    with running(data):
        installed = droidsim("install", str(KOTLIN_ORDERS), "--double", str(REPO / "docs/examples/orders-double"),
                             data=data)
        assert installed.returncode == 0, installed.stderr
        assert json.loads(execute(data, CANCEL, {"orderId": "ORD-7310"}).stdout)["cancelled"] is True
        assert json.loads(execute(data, FETCH, {"orderId": "ORD-7310"}).stdout)["status"] == "CANCELLED"
        refused = droidsim("install", str(KOTLIN_ORDERS), "--on-miss", "guess", data=data)
        assert refused.returncode == 2 and "'guess' is not one of 'refuse', 'schema'" in refused.stderr


def test_generated_answers_say_so_on_stderr_and_in_logcat(tmp_path):
    data = tmp_path / "data"
    with running(data):
        assert droidsim("install", str(KOTLIN_ORDERS), "--on-miss", "schema", data=data).returncode == 0
        answered = execute(data, FETCH, {"orderId": "ORD-8492"})
        assert answered.returncode == 0 and json.loads(answered.stdout)["status"] == "PROCESSING"
        assert answered.stderr.startswith("Warning: generated from the schema (--on-miss schema), not recorded")
        log = droidsim("logcat", data=data).stdout
        assert f'{FETCH} with parameters {{"orderId": "ORD-8492"}}: generated from the schema' in log
