"""The verbs and options of AppFunctionManagerServiceShellCommand that copied adb scripts use:
--user on every verb, help, --parameters required, --pending-intent-path, and the test hooks
that exist only on Android 17 (purge-allowlist-cache, set-/reset-test-page-size)."""

from __future__ import annotations

import pytest

from droid.app.pending_intent import ComponentName, Intent, PendingIntent
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.proxies import pending_intent_to_data
from sim.cli.shell import _pending_intent_report
from sim.device import Device
from tests.helpers import HELPER_APP, HELPER_PACKAGE
from tests.unit.cli.test_shell_functions import shell


@pytest.fixture(scope="module", params=[37, 36], ids=["sdk37", "sdk36"])
def device(request, tmp_path_factory):
    with Device(tmp_path_factory.mktemp(f"verbs{request.param}") / "data", isolated_apps=False, sdk=request.param) as device:
        device.install(HELPER_APP)
        device.serve()
        yield device


ADD = ("execute-app-function", "--package", HELPER_PACKAGE, "--function", "add", "--parameters", '{"a": 1, "b": 2}')


@pytest.mark.parametrize("args", [
    ("list-app-functions", "--json"),
    ADD,
    ("set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "default"),
    ("is-enabled", "--package", HELPER_PACKAGE, "--function", "add"),
    ("list-valid-agents",),
    ("list-valid-targets",),
])
@pytest.mark.parametrize("user", ["0", "current"])
def test_every_verb_takes_the_devices_one_user(device, args, user):
    assert shell(device, *args, "--user", user).exit_code == 0


def test_another_user_is_refused_naming_the_one_there_is(device):
    result = shell(device, *ADD, "--user", "10")
    assert result.exit_code == 2 and "user 10 does not exist: this device has user 0 only" in result.stderr
    result = shell(device, "grant-app-function-access", "--agent-package", "a", "--target-package", "t", "--agent-user", "x")
    assert result.exit_code == 2 and "'x' is not a user id" in result.stderr


def test_parameters_are_required_as_on_android(device):
    result = shell(device, "execute-app-function", "--package", HELPER_PACKAGE, "--function", "noOp")
    assert result.exit_code == 2 and "Missing option '--parameters'" in result.stderr


def test_help_lists_the_verbs(device):
    result = shell(device, "help")
    assert result.exit_code == 0
    for verb in ("list-app-functions", "execute-app-function", "set-enabled", "is-enabled", "purge-allowlist-cache"):
        assert verb in result.stdout


def test_pending_intent_path_reports_what_is_there(device):
    result = shell(device, *ADD, "--pending-intent-path", "launch.intent")
    assert (result.exit_code, result.stdout) == (0, "3\nNo PendingIntent found at extras key: launch.intent\n")


def test_pending_intent_path_follows_nested_extras():
    intent = PendingIntent.get_activity(None, 0, Intent(component=ComponentName(HELPER_PACKAGE, "a.Main")),
                                        PendingIntent.FLAG_IMMUTABLE)
    extras = AppFunctionData(outer=AppFunctionData(launch=pending_intent_to_data(intent)))
    assert _pending_intent_report(extras, "outer.launch").startswith("Found PendingIntent at extras key: outer.launch: ")
    assert _pending_intent_report(extras, "outer") == "No PendingIntent found at extras key: outer"
    assert _pending_intent_report(extras, "outer.launch.more") == "No PendingIntent found at extras key: outer.launch.more"


@pytest.mark.parametrize("args, output", [
    (("purge-allowlist-cache",), "Purge allowlist cache\n"),
    (("set-test-page-size", "--page-size", "5"), "Set test page size to 5\n"),
    (("set-test-page-size", "--page-size", "0"), "Invalid page size of 0\nSet test page size to 0\n"),
    (("reset-test-page-size",), ""),
])
def test_test_hooks_exist_on_android_17_only(device, args, output):
    result = shell(device, *args)
    if device.version.sdk_int == 37:
        assert (result.exit_code, result.stdout) == (0, output)
    else:
        assert result.exit_code == 255 and "needs" in result.stderr and "Android 16 (SDK 36)" in result.stderr


def test_a_page_size_that_is_no_number_fails_as_on_android(device):
    result = shell(device, "set-test-page-size", "--page-size", "many")
    assert result.exit_code == 255
    if device.version.sdk_int == 37:
        assert result.stdout == "Fail to parse page-size\n"
