"""``cmd app_function``: what a user sees from the device's shell (spec/platform-android.md §5).

The commands run as ``droidsim shell cmd app_function ...`` in their own process, as
``adb shell cmd app_function ...`` does, and print what AppFunctionManagerServiceShellCommand
.java @f6328b66 prints, byte for byte, with its exit codes. Where droidsim prints something
other than Android (the return value instead of the whole result document, one object per
function in the listing), docs/differences.md says so.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from droid.appfunctions.manager import (
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_USER_GRANTED,
    access_flag_names,
)
from sim.conformance.cases.common import NOT_FOUND
from sim.conformance.expect import equal, show
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import AGENTS, CALLER_PACKAGE, HELPER_PACKAGE, LEVELED_PACKAGE, SYSTEM_CALLER_PACKAGE

SHELL_PACKAGE = "com.android.shell"


def _output(done: subprocess.CompletedProcess) -> str:
    return (done.stdout + done.stderr).strip()


def _succeeds(done: subprocess.CompletedProcess, what: str) -> str:
    if done.returncode != 0:
        raise Mismatch(f"{what} to exit 0", f"exit {done.returncode}: {_output(done)[:300]}")
    return done.stdout


def _json(done: subprocess.CompletedProcess, what: str) -> Any:
    stdout = _succeeds(done, what)
    try:
        return json.loads(stdout)
    except json.JSONDecodeError as error:
        raise Mismatch(f"{what} to print JSON", f"{error}: {show(stdout)}") from None


def _fails(done: subprocess.CompletedProcess, what: str, contains: str) -> None:
    if done.returncode == 0 or contains not in _output(done):
        raise Mismatch(f"{what} to exit non-zero saying {contains!r}", f"exit {done.returncode}: {_output(done)[:300]}")


def _prints(done: subprocess.CompletedProcess, what: str, stdout: str, exit_code: int) -> None:
    """Exactly ``stdout``, nothing on stderr, and ``exit_code``, as the phone's shell command."""
    equal(f"{what}'s exit code, stdout and stderr", (exit_code, stdout, ""), (done.returncode, done.stdout, done.stderr))


@case("shell-list-app-functions", "shell.list")
def shell_list_app_functions(t) -> None:
    """list-app-functions prints a JSON object mapping each package to its functions, with
    their enabled state."""
    listing = _json(t.shell_command("list-app-functions", "--json"), "list-app-functions --json")
    if not isinstance(listing, dict) or not {CALLER_PACKAGE, HELPER_PACKAGE} <= set(listing):
        raise Mismatch(f"a JSON object with keys {CALLER_PACKAGE} and {HELPER_PACKAGE}", show(listing))
    declared = {p.package_name: set(p.function_ids) for p in t.package_manager.list_packages()}
    for package in (CALLER_PACKAGE, HELPER_PACKAGE):
        functions = listing[package]
        if not isinstance(functions, list) or not all(isinstance(f, dict) and "id" in f for f in functions):
            raise Mismatch(f"{package} mapped to a list of functions, each with an id", show(functions))
        equal(f"the function ids listed for {package}", declared[package], {f["id"] for f in functions})
    enabled = {f["id"]: f.get("enabled") for f in listing[CALLER_PACKAGE]}
    equal("enabled states of add and add_disabledByDefault", (True, False), (enabled["add"], enabled["add_disabledByDefault"]))


@case("shell-execute-app-function", "shell.execute")
def shell_execute_app_function(t) -> None:
    """execute-app-function prints the result as JSON, runs as com.android.shell, and exits
    non-zero for an unknown function."""
    def run(function: str, parameters: str = "{}") -> subprocess.CompletedProcess:
        return t.shell_command(
            "execute-app-function", "--package", CALLER_PACKAGE, "--function", function, "--parameters", parameters
        )

    equal("execute-app-function add's output", 3, _json(run("add", '{"a": 1, "b": 2}'), "execute-app-function add"))
    equal("execute-app-function noOp's output", SHELL_PACKAGE, _json(run("noOp"), "execute-app-function noOp"))
    _fails(run("nonExistentFunction"), "execute-app-function of an unknown function", NOT_FOUND)


@case("shell-user-option-and-required-parameters", "shell.options")
def shell_user_option_and_required_parameters(t) -> None:
    """--user 0 and --user current are taken by execute-app-function, set-enabled and
    is-enabled; execute-app-function without --parameters fails naming it, as on Android."""
    add = ("execute-app-function", "--package", CALLER_PACKAGE, "--function", "add", "--parameters", '{"a": 1, "b": 2}')
    for user in ("0", "current"):
        equal(f"execute-app-function add --user {user}'s output", 3, _json(t.shell_command(*add, "--user", user), "--user"))
        _succeeds(t.shell_command("is-enabled", "--package", CALLER_PACKAGE, "--function", "add", "--user", user),
                  f"is-enabled --user {user}")
        _succeeds(t.shell_command("set-enabled", "--package", CALLER_PACKAGE, "--function", "add", "--state", "default",
                                  "--user", user), f"set-enabled --user {user}")
    _fails(t.shell_command(*add[:5]), "execute-app-function without --parameters", "--parameters")


@case("shell-android-17-test-hooks", "shell.test-hooks", sdks=frozenset({37}))
def shell_android_17_test_hooks(t) -> None:
    """purge-allowlist-cache prints "Purge allowlist cache"; set-test-page-size --page-size N
    prints "Set test page size to N"; reset-test-page-size prints nothing; each exits 0. A
    --page-size without its value is read inside setTestPageSize's try: "Fail to parse page-size", -1."""
    for args, output in ((("purge-allowlist-cache",), "Purge allowlist cache\n"),
                         (("set-test-page-size", "--page-size", "3"), "Set test page size to 3\n"),
                         (("reset-test-page-size",), "")):
        equal(f"{args[0]}'s output", output, _succeeds(t.shell_command(*args), args[0]))
    _prints(t.shell_command("set-test-page-size", "--page-size"), "set-test-page-size --page-size without a value",
            "Fail to parse page-size\n", 255)


@case("shell-set-enabled", "shell.set-enabled")
def shell_set_enabled(t) -> None:
    """set-enabled --state disable|enable|default changes the function's state and prints "App
    function enabled state updated successfully."; an unknown function prints "Error setting app
    function state: ..." (lines 452-477); both exit 0."""
    manager = t.caller.app_function_manager

    def set_enabled(function: str, state: str) -> subprocess.CompletedProcess:
        return t.shell_command("set-enabled", "--package", CALLER_PACKAGE, "--function", function, "--state", state)

    try:
        for function, state, enabled in (
            ("add", "disable", False),
            ("add", "default", True),
            ("add_disabledByDefault", "enable", True),
        ):
            _prints(set_enabled(function, state), f"set-enabled {function} {state}",
                    "App function enabled state updated successfully.\n", 0)
            equal(f"isEnabled({function}) after set-enabled {state}", enabled, manager.is_app_function_enabled(function))
        _prints(set_enabled("nonExistentFunction", "enable"), "set-enabled of an unknown function",
                "Error setting app function state: android.os.ParcelableException: java.lang.IllegalArgumentException: "
                "Function nonExistentFunction does not exist\n", 0)
    finally:
        t.clear_package_data(CALLER_PACKAGE)  # back to the XML's defaults


@case("shell-grant-and-revoke-access", "shell.grant-access")
def shell_grant_and_revoke_access(t) -> None:
    """grant-app-function-access sets OTHER_GRANTED and revoke-app-function-access OTHER_DENIED,
    leaving the USER flags alone, and print "Access granted successfully." / "Access revoked
    successfully."; when the device changes nothing (the flag already set, an invalid pair)
    they print "Error: Failed to grant the app function access." and exit 255 (lines 795-808)."""
    shell = t.shell.app_function_manager
    pair = ("--agent-package", CALLER_PACKAGE, "--target-package", HELPER_PACKAGE)
    failed = "Error: Failed to grant the app function access.\n"

    def flags_after(command: str, printed: str, exit_code: int, expected: int) -> None:
        _prints(t.shell_command(command, *pair), command, printed, exit_code)
        equal(f"the pair's flags after {command}", access_flag_names(expected),
              access_flag_names(shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE)))

    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_USER_GRANTED):
        granted = ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_GRANTED
        flags_after("grant-app-function-access", "Access granted successfully.\n", 0, granted)
        flags_after("grant-app-function-access", failed, 255, granted)
        flags_after("revoke-app-function-access", "Access revoked successfully.\n", 0,
                    ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_DENIED)
    invalid = t.shell_command("grant-app-function-access", "--agent-package", HELPER_PACKAGE,
                              "--target-package", CALLER_PACKAGE)
    _prints(invalid, "grant-app-function-access for an agent that does not request EXECUTE_APP_FUNCTIONS", failed, 255)


@case("shell-is-enabled-of-an-unknown-function", "shell.is-enabled")
def shell_is_enabled_of_an_unknown_function(t) -> None:
    """is-enabled prints true or false; for an unknown function its callback's error, "Error
    checking app function state: ...", and exits 0 (lines 536-556)."""
    _prints(t.shell_command("is-enabled", "--package", CALLER_PACKAGE, "--function", "add"), "is-enabled add",
            "true\n", 0)
    _prints(t.shell_command("is-enabled", "--package", CALLER_PACKAGE, "--function", "nonExistentFunction"),
            "is-enabled of an unknown function",
            "Error checking app function state: android.os.ParcelableException: "
            "android.app.appfunctions.AppFunctionManagerHelper$AppFunctionNotFoundException: App function not found.\n", 0)


@case("shell-argument-errors", "shell.errors")
def shell_argument_errors(t) -> None:
    """A verb's own argument errors print on stdout and exit 255 (onCommand's -1): a missing
    option, an option without its value, an unknown option, an unknown verb (a phone has no
    add-additional-allowlisted-agents), and read-app-description's PackageManager.getProperty
    failures (a package without app metadata: NameNotFoundException; no --package: requireNonNull)."""
    for args, line in (
        (("execute-app-function", "--package", CALLER_PACKAGE, "--function", "noOp"),
         "Error: --parameters must be specified."),
        (("set-enabled", "--package", CALLER_PACKAGE, "--function", "add"),
         "Error: --state must be specified. The accepted values are: `enable`, `disable`, `default`."),
        (("grant-app-function-access", "--target-package", HELPER_PACKAGE), "Error: --agent-package must be specified."),
        (("is-enabled", "--package"), 'Exception: java.lang.IllegalArgumentException: Argument expected after "--package"'),
        (("is-enabled", "--package", CALLER_PACKAGE, "--function", "add", "--verbose"), "Unknown option: --verbose"),
        (("add-additional-allowlisted-agents", CALLER_PACKAGE), "Unknown command: add-additional-allowlisted-agents"),
        (("read-app-description", "--package", HELPER_PACKAGE),
         "Exception: android.content.pm.PackageManager$NameNotFoundException"),
        (("read-app-description",), "Exception: java.lang.NullPointerException"),
    ):
        _prints(t.shell_command(*args), " ".join(args[:1]), f"{line}\n", 255)


@case("shell-dump-and-help", "shell.default-commands")
def shell_dump_and_help(t) -> None:
    """android.os.ShellCommand's default commands: ``dump`` runs the service's dump and exits 0;
    ``-h`` prints the help and exits 255, as ``help`` does (handleDefaultCommands)."""
    dumped = _succeeds(t.shell_command("dump"), "dump")
    if HELPER_PACKAGE not in dumped:
        raise Mismatch(f"dump to name {HELPER_PACKAGE}", show(dumped[:300]))
    helped = t.shell_command("-h")
    equal("-h's exit code and stderr", (255, ""), (helped.returncode, helped.stderr))
    if "set-enabled" not in helped.stdout:
        raise Mismatch("-h to print the help", show(helped.stdout[:300]))


@case("shell-set-and-clear-additional-allowlisted-agents", "shell.allowlist")
def shell_set_and_clear_additional_allowlisted_agents(t) -> None:
    """set-additional-allowlisted-agents writes the Secure setting whole and
    clear-additional-allowlisted-agents empties it, each printing nothing and exiting 0
    (lines 731-756); without a package set- is "Argument expected after" and -1."""
    with t.agent_allowlist_restored():
        _prints(t.shell_command("set-additional-allowlisted-agents", *AGENTS), "set-additional-allowlisted-agents", "", 0)
        equal("the additional agents after set-", sorted(AGENTS), t.additional_agents())
        _prints(t.shell_command("clear-additional-allowlisted-agents"), "clear-additional-allowlisted-agents", "", 0)
        equal("the additional agents after clear-", [], t.additional_agents())
    _prints(t.shell_command("set-additional-allowlisted-agents"), "set-additional-allowlisted-agents without a package",
            'Exception: java.lang.IllegalArgumentException: Argument expected after "set-additional-allowlisted-agents"\n',
            255)


@case("shell-list-valid-agents-and-targets", "shell.list-valid")
def shell_list_valid_agents_and_targets(t) -> None:
    """list-valid-agents --json lists the allowlisted agents that request EXECUTE_APP_FUNCTIONS,
    list-valid-targets --json the packages with an AppFunctionService."""
    for command, present, absent in (
        ("list-valid-agents", {CALLER_PACKAGE, SYSTEM_CALLER_PACKAGE}, {HELPER_PACKAGE, LEVELED_PACKAGE}),
        ("list-valid-targets", {CALLER_PACKAGE, HELPER_PACKAGE, LEVELED_PACKAGE}, {SYSTEM_CALLER_PACKAGE}),
    ):
        listed = _json(t.shell_command(command, "--json"), f"{command} --json")
        if not isinstance(listed, list) or not present <= set(listed) or absent & set(listed):
            raise Mismatch(f"{command} --json to list {sorted(present)} and not {sorted(absent)}", show(listed))
