"""`cmd app_function` as a new user meets it: exact ids with hints, whole tables, ISO dates,
and every attempt in the access history."""

from __future__ import annotations

import json

import pytest

from tests.helpers import SAMPLE_APPS, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
SEARCH = "com.example.booking.BookingFunctionService#search_tables"


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    process = DeviceProcess(tmp_path_factory.mktemp("shell") / "data", SAMPLE_APPS)
    yield process
    process.stop()


def shell(device, *args: str):
    return droidsim("shell", "cmd", "app_function", *args, data=device.data)


def execute(device, package: str, function: str, parameters: str = "{}"):
    return shell(device, "execute-app-function", "--package", package, "--function", function,
                 "--parameters", parameters)


def history(device) -> str:
    return droidsim("shell", "dumpsys", "app_function", data=device.data).stdout.split("Access history", 1)[1]


def test_a_short_name_is_refused_with_the_exact_id_by_execute_and_as_a_phone_by_set_enabled(device) -> None:
    refused = execute(device, "com.example.orders", "fetch_order_details", '{"orderId": "ORD-8492"}')
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        "Error: ERROR_FUNCTION_NOT_FOUND (1003): App function not found.",
        f"--function takes the exact id: 'fetch_order_details' is {FETCH}.",
    ]
    assert "com.android.shell (uid 2000) -> com.example.orders fetch_order_details" in history(device)
    refused = shell(device, "set-enabled", "--package", "com.example.orders", "--function", "cancel_order",
                    "--state", "disable")
    assert (refused.returncode, refused.stderr) == (0, ""), "as a phone: the callback's line, exit 0"
    assert refused.stdout == ("Error setting app function state: android.os.ParcelableException: "
                              "java.lang.IllegalArgumentException: Function cancel_order does not exist\n")
    assert execute(device, "com.example.orders", FETCH, '{"orderId": "ORD-8492"}').returncode == 0


def test_unknown_package_and_unknown_function_say_which_and_suggest(device) -> None:
    package = execute(device, "com.example.ordrs", FETCH)
    assert package.stderr.splitlines()[1].startswith("No package com.example.ordrs with app functions is installed; did you mean "
                                                      "com.example.orders")
    function = execute(device, "com.example.orders", FETCH[:-1])
    assert function.stderr.splitlines()[1] == (
        f"com.example.orders has no function {FETCH[:-1]}; did you mean {FETCH}?"
    )


def test_another_caller_gets_no_hint_about_what_it_may_not_see(device) -> None:
    as_app = droidsim("--as", "com.example.notes", "shell", "cmd", "app_function", "execute-app-function",
                      "--package", "com.example.ordrs", "--function", "x", "--parameters", "{}", data=device.data)
    assert as_app.returncode == 1
    assert len(as_app.stderr.splitlines()) == 1


def test_dates_and_times_as_iso_text(device) -> None:
    found = execute(device, "com.example.booking", SEARCH, '{"date": "2025-06-14", "time": "19:30", "partySize": 2}')
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)[0]["date"] == {"year": 2025, "month": 6, "dayOfMonth": 14}
    bad = execute(device, "com.example.booking", SEARCH, '{"date": "14/06/2025", "time": "19:30", "partySize": 2}')
    assert bad.returncode == 1
    assert bad.stderr.startswith("Error: ERROR_INVALID_ARGUMENT (1001): ")


def test_parameters_the_shell_cannot_type_still_reach_the_device_and_its_history(device) -> None:
    refused = execute(device, "com.example.orders", FETCH, '{"orderId": 5}')
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: ERROR_INVALID_ARGUMENT (1001): ")
    assert f"-> com.example.orders {FETCH}" in history(device).splitlines()[-1]
    assert "ERROR_INVALID_ARGUMENT" in history(device).splitlines()[-1]


def test_the_piped_list_shows_whole_ids_access_levels_and_descriptions(device) -> None:
    listing = shell(device, "list-app-functions")
    assert listing.returncode == 0
    header = listing.stdout.splitlines()[1].split()
    assert header == ["package", "function", "enabled", "access", "parameters", "description"]
    row = next(line for line in listing.stdout.splitlines() if SEARCH in line)
    assert "androidTrusted" in row
    full = json.loads(shell(device, "list-app-functions", "--json").stdout)["com.example.booking"][0]["description"]
    assert row.endswith(" ".join(full.split()))
