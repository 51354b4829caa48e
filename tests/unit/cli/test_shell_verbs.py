"""The verbs and options of AppFunctionManagerServiceShellCommand that copied adb scripts use,
and what they print, byte for byte, with its exit code (AppFunctionManagerServiceShellCommand.java
@f6328b66): --user on every verb, help, a verb's own argument errors, set-enabled and is-enabled,
--pending-intent-path, and the test hooks that exist only on Android 17."""

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


@pytest.mark.parametrize("args, line", [
    (("execute-app-function", "--package", HELPER_PACKAGE, "--function", "noOp"), "Error: --parameters must be specified."),
    (("execute-app-function", "--function", "noOp", "--parameters", "{}"), "Error: --package must be specified."),
    (("set-enabled", "--package", HELPER_PACKAGE, "--state", "enable"), "Error: --function must be specified."),
    (("set-enabled", "--package", HELPER_PACKAGE, "--function", "add"),
     "Error: --state must be specified. The accepted values are: `enable`, `disable`, `default`."),
    (("set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "on"),
     "Error: --state must be specified. The accepted values are: `enable`, `disable`, `default`."),
    (("is-enabled", "--package", HELPER_PACKAGE), "Error: --function must be specified."),
    (("grant-app-function-access", "--target-package", HELPER_PACKAGE), "Error: --agent-package must be specified."),
    (("revoke-app-function-access", "--agent-package", "a.b"), "Error: --target-package must be specified."),
    (("is-enabled", "--package", HELPER_PACKAGE, "--verbose"), "Unknown option: --verbose"),
    (("list-valid-agents", "--all"), "Unknown option: --all"),
    (("set-enabled", "--package"), 'Exception: java.lang.IllegalArgumentException: Argument expected after "--package"'),
    (("set-additional-allowlisted-agents",),
     'Exception: java.lang.IllegalArgumentException: Argument expected after "set-additional-allowlisted-agents"'),
    (("execute-app-function", "--package", HELPER_PACKAGE, "--function", "noOp", "--parameters", "{"),
     "Exception: org.json.JSONException: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    (("add-additional-allowlisted-agents", "a.b"), "Unknown command: add-additional-allowlisted-agents"),
    (("remove-additional-allowlisted-agents", "a.b"), "Unknown command: remove-additional-allowlisted-agents"),
])
def test_a_verbs_own_errors_go_to_stdout_with_exit_255_as_on_android(device, args, line):
    result = shell(device, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (255, line + "\n", "")


def test_a_timeout_that_is_no_number_is_refused(device):
    result = shell(device, *ADD, "--timeout-duration", "soon")
    assert result.exit_code == 2 and "'soon' is not a valid float" in result.stderr


def test_read_app_description_says_its_unknown_option_on_stderr(device):
    result = shell(device, "read-app-description", "--package", HELPER_PACKAGE, "--json")
    assert (result.exit_code, result.stdout, result.stderr) == (255, "", "Unknown option: --json\n")


@pytest.mark.parametrize("args", [("help",), (), ("-h",)])
def test_help_lists_the_verbs_and_exits_255_as_on_android(device, args):
    result = shell(device, *args)
    assert result.exit_code == 255
    for verb in ("list-app-functions", "execute-app-function", "set-enabled", "is-enabled", "purge-allowlist-cache",
                 "set-additional-allowlisted-agents", "clear-additional-allowlisted-agents"):
        assert verb in result.stdout
    assert "add-additional-allowlisted-agents" not in result.stdout


def test_set_enabled_prints_the_platforms_answer_and_exits_0_either_way(device):
    done = shell(device, "set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "disable")
    assert (done.exit_code, done.stdout, done.stderr) == (0, "App function enabled state updated successfully.\n", "")
    assert shell(device, "is-enabled", "--package", HELPER_PACKAGE, "--function", "add").stdout == "false\n"
    shell(device, "set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "default")
    unknown = shell(device, "set-enabled", "--package", HELPER_PACKAGE, "--function", "nothing", "--state", "enable")
    assert (unknown.exit_code, unknown.stderr) == (0, "")
    assert unknown.stdout == ("Error setting app function state: android.os.ParcelableException: "
                              "java.lang.IllegalArgumentException: Function nothing does not exist\n")


def test_is_enabled_prints_the_platforms_error_and_exits_0(device):
    result = shell(device, "is-enabled", "--package", HELPER_PACKAGE, "--function", "nothing")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == ("Error checking app function state: android.os.ParcelableException: "
                             "android.app.appfunctions.AppFunctionManagerHelper$AppFunctionNotFoundException: "
                             "App function not found.\n")


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
    else:  # the flag is off: -1 and not a word, as on Android
        assert (result.exit_code, result.stdout, result.stderr) == (255, "", "")


def test_a_page_size_not_given_is_minus_one_as_on_android(device):
    result = shell(device, "set-test-page-size")
    if device.version.sdk_int == 37:
        assert (result.exit_code, result.stdout) == (0, "Invalid page size of -1\nSet test page size to -1\n")


@pytest.mark.parametrize("value", [("many",), ()], ids=["no-number", "missing"])
def test_a_page_size_that_is_no_number_fails_as_on_android(device, value):
    """Android reads the value inside the try that catches a bad number, so a missing one fails alike."""
    result = shell(device, "set-test-page-size", "--page-size", *value)
    expected = "Fail to parse page-size\n" if device.version.sdk_int == 37 else ""
    assert (result.exit_code, result.stdout, result.stderr) == (255, expected, "")


def test_dump_is_dumpsys_app_function_as_on_android(device):
    """android.os.ShellCommand runs the service's dump for ``cmd app_function dump``, exit 0."""
    dumped = shell(device, "dump")
    assert (dumped.exit_code, dumped.stderr) == (0, "")
    assert dumped.stdout.startswith("APP FUNCTION MANAGER (dumpsys app_function)") and HELPER_PACKAGE in dumped.stdout
