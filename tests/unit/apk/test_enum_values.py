"""A function's <enumValues> where a Kotlin developer looks: list-app-functions (its table and
--json) and apk inspect (its table and --json)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sim.cli.main import cli
from tests.helpers import ShellOf
from tests.unit.apk.conftest import APKS

PAYMENT = "com.example.bank.payments.PaymentFunctions#sendPayment"
FREEZE = "com.example.bank.cards.CardFunctions#freezeCard"
PAYMENT_PARAMETERS = "fromAccountId: string, payee: string, amount: double, speed: string (STANDARD|INSTANT)"


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_list_app_functions_shows_enum_values_in_its_table_and_its_json(droid_device, monkeypatch):
    droid_device.install(APKS / "bank-signed.apk")
    monkeypatch.setattr("sim.cli.shell.context_from", lambda *a, **k: ShellOf(droid_device))
    shell = ("--device", "unused", "shell", "cmd", "app_function", "list-app-functions", "--package", "com.example.bank")
    row = next(line for line in run(*shell).splitlines() if PAYMENT in line)
    assert PAYMENT_PARAMETERS in row
    functions = {f["id"]: f for f in json.loads(run(*shell, "--json"))["com.example.bank"]}
    speed = functions[PAYMENT]["parameters"][3]
    assert (speed["name"], speed["enum_values"]) == ("speed", ["STANDARD", "INSTANT"])
    assert "enum_values" not in functions[PAYMENT]["parameters"][0]  # a plain string has none
    assert functions[FREEZE]["response"]["enum_values"] == ["ACTIVE", "FROZEN"]


def test_apk_inspect_shows_enum_values_in_its_table_and_its_json():
    row = next(line for line in run("apk", "inspect", str(APKS / "bank.apk")).splitlines() if PAYMENT in line)
    assert row.endswith(PAYMENT_PARAMETERS)
    functions = {f["id"]: f for f in json.loads(run("apk", "inspect", str(APKS / "bank.apk"), "--json"))["functions"]}
    assert functions[PAYMENT]["parameters"][3]["enum_values"] == ["STANDARD", "INSTANT"]
    assert functions[FREEZE]["response"]["enum_values"] == ["ACTIVE", "FROZEN"]


def test_an_int_enum_lists_numbers_and_a_reference_lists_what_it_refers_to():
    from droid.appfunctions.metadata import AppFunctionDataTypeMetadata, DataType
    from sim.responses.types import enum_values

    level = AppFunctionDataTypeMetadata(type=DataType.INT, enum_values=["1", "2"])
    reference = AppFunctionDataTypeMetadata(type=DataType.REFERENCE, data_type_reference="com.example.Level")
    assert enum_values(reference, {"com.example.Level": level}) == [1, 2]
