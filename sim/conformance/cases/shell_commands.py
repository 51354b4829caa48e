"""``cmd app_function``: what a user sees from the device's shell (spec/platform-android.md §5).

The commands run as ``droidsim shell cmd app_function ...`` in their own process, as
``adb shell cmd app_function ...`` does. Where droidsim prints something other than Android
(the return value instead of the whole result document, one object per function in the
listing), docs/differences.md says so.
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
from sim.conformance.target import CALLER_PACKAGE, HELPER_PACKAGE, LEVELED_PACKAGE, SYSTEM_CALLER_PACKAGE

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
    prints "Set test page size to N"; reset-test-page-size prints nothing; each exits 0."""
    for args, output in ((("purge-allowlist-cache",), "Purge allowlist cache\n"),
                         (("set-test-page-size", "--page-size", "3"), "Set test page size to 3\n"),
                         (("reset-test-page-size",), "")):
        equal(f"{args[0]}'s output", output, _succeeds(t.shell_command(*args), args[0]))


@case("shell-set-enabled", "shell.set-enabled")
def shell_set_enabled(t) -> None:
    """set-enabled --state disable|enable|default changes the function's state; an unknown
    function exits non-zero."""
    manager = t.caller.app_function_manager

    def set_enabled(function: str, state: str) -> subprocess.CompletedProcess:
        return t.shell_command("set-enabled", "--package", CALLER_PACKAGE, "--function", function, "--state", state)

    try:
        for function, state, enabled in (
            ("add", "disable", False),
            ("add", "default", True),
            ("add_disabledByDefault", "enable", True),
        ):
            _succeeds(set_enabled(function, state), f"set-enabled {function} {state}")
            equal(f"isEnabled({function}) after set-enabled {state}", enabled, manager.is_app_function_enabled(function))
        _fails(set_enabled("nonExistentFunction", "enable"), "set-enabled of an unknown function", "does not exist")
    finally:
        t.clear_package_data(CALLER_PACKAGE)  # back to the XML's defaults


@case("shell-grant-and-revoke-access", "shell.grant-access")
def shell_grant_and_revoke_access(t) -> None:
    """grant-app-function-access sets OTHER_GRANTED and revoke-app-function-access OTHER_DENIED,
    leaving the USER flags alone; granting again changes nothing and succeeds (droidsim;
    Android exits -1); an invalid pair exits non-zero saying why."""
    shell = t.shell.app_function_manager
    pair = ("--agent-package", CALLER_PACKAGE, "--target-package", HELPER_PACKAGE)

    def flags_after(command: str, expected: int) -> None:
        _succeeds(t.shell_command(command, *pair), command)
        equal(f"the pair's flags after {command}", access_flag_names(expected),
              access_flag_names(shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE)))

    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_USER_GRANTED):
        flags_after("grant-app-function-access", ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_GRANTED)
        flags_after("grant-app-function-access", ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_GRANTED)
        flags_after("revoke-app-function-access", ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_DENIED)
    invalid = t.shell_command("grant-app-function-access", "--agent-package", HELPER_PACKAGE,
                              "--target-package", CALLER_PACKAGE)
    _fails(invalid, "grant-app-function-access for an agent that does not request EXECUTE_APP_FUNCTIONS",
           "not a valid pair")


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
