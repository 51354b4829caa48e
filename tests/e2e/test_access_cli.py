"""The shell's access commands against a device process, as the shell and `--as PKG`."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest

from droid.appfunctions import access_fixes

from tests.helpers import COMMAND_BOUND, DeviceProcess, droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, make_app

AGENT = "com.test.agent"
TARGET = "com.test.target"


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    root = tmp_path_factory.mktemp("access-cli")
    make_app(root / "apps", AGENT, (EXECUTE_APP_FUNCTIONS,))
    make_app(root / "apps", TARGET)
    process = DeviceProcess(root / "data", root / "apps")
    yield process
    process.stop()


def run(device, *args, as_package=None):
    prefix = ("--as", as_package) if as_package else ()
    return droidsim(*prefix, "shell", *args, data=device.data)


def test_pm_grant_of_a_privileged_permission_fails_with_a_clear_error(device):
    result = run(device, "pm", "grant", AGENT, EXECUTE_APP_FUNCTIONS)
    assert result.returncode == 1
    assert result.stderr == (f"Error: SecurityException: Permission {EXECUTE_APP_FUNCTIONS} requested by {AGENT} is not "
                             "a changeable permission type: it is internal|privileged, granted at install to privileged "
                             "packages only (system apps and the device's privileged allowlist)\n")


def test_the_privileged_allowlist_makes_the_agent_valid(device):
    assert run(device, "pm", "set-privileged-allowlist").stdout == "Privileged allowlist: []\n"
    listed = json.loads(run(device, "pm", "list", "packages", "--json").stdout)
    assert next(p for p in listed if p["package"] == AGENT)["granted_permissions"] == []
    assert run(device, "pm", "set-privileged-allowlist", AGENT).returncode == 0
    assert run(device, "cmd", "app_function", "set-additional-allowlisted-agents", AGENT).returncode == 0
    listed = json.loads(run(device, "pm", "list", "packages", "--json").stdout)
    assert next(p for p in listed if p["package"] == AGENT)["granted_permissions"] == [EXECUTE_APP_FUNCTIONS]
    assert run(device, "cmd", "app_function", "list-valid-agents").stdout == f"Valid agents: [{AGENT}]\n"
    assert json.loads(run(device, "cmd", "app_function", "list-valid-targets", "--json").stdout) == [AGENT, TARGET]


def test_an_agent_runs_as_itself_with_as(device):
    run(device, "pm", "set-privileged-allowlist", AGENT)
    run(device, "cmd", "app_function", "set-additional-allowlisted-agents", AGENT)
    noop = ("cmd", "app_function", "execute-app-function", "--package", TARGET, "--function", "noOp",
            "--parameters", "{}")
    denied = run(device, *noop, as_package=AGENT)
    assert denied.returncode == 1 and "ERROR_DENIED (1000)" in denied.stderr
    granted = run(device, "cmd", "app_function", "grant-app-function-access", "--agent-package", AGENT,
                  "--target-package", TARGET)
    assert granted.stdout == "Access granted successfully.\n"
    assert json.loads(run(device, *noop, as_package=AGENT).stdout) == AGENT
    assert json.loads(run(device, *noop).stdout) == "com.android.shell"


def test_a_grant_for_an_invalid_pair_prints_what_a_phone_prints_and_the_log_says_why(device):
    result = run(device, "cmd", "app_function", "grant-app-function-access", "--agent-package", TARGET,
                 "--target-package", AGENT)
    why = access_fixes.missing_permission(TARGET, requested=False)  # the one rule that failed, with its fix
    assert (result.returncode, result.stdout, result.stderr) == (
        255, "Error: Failed to grant the app function access.\n", "")  # piped: a phone's output, byte for byte
    log = droidsim("logcat", data=device.data).stdout
    assert f"{TARGET} -> {AGENT} is not a valid pair, so its access flags stay as they are: {why}" in log


def run_on_a_terminal(device, *args) -> tuple[int, str, str]:
    """The shell verb with its stderr on a terminal (a pty), as a person runs it: (exit code,
    stdout, what the terminal showed)."""
    main, terminal = os.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "sim.cli", "shell", *args], stdout=subprocess.PIPE,
                              stderr=terminal, text=True, timeout=COMMAND_BOUND,
                              env={**os.environ, "DROIDSIM_DEVICE": str(device.data)})
        os.close(terminal)
        shown = b""
        while select.select([main], [], [], 0)[0]:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal's other end is closed: all of it is read
                break
            if not chunk:
                break
            shown += chunk
        return done.returncode, done.stdout, shown.decode().replace("\r\n", "\n")
    finally:
        os.close(main)


def test_a_failed_grant_tells_a_person_at_a_terminal_why_a_typo_with_the_closest_name_a_repeat_as_done(device):
    run(device, "pm", "set-privileged-allowlist", AGENT)
    run(device, "cmd", "app_function", "set-additional-allowlisted-agents", AGENT)
    grant = ("cmd", "app_function", "grant-app-function-access", "--agent-package", AGENT, "--target-package")
    assert run_on_a_terminal(device, *grant, "com.test.targe") == (
        255, "Error: Failed to grant the app function access.\n",
        f"droidsim: com.test.targe is not installed (did you mean {TARGET}?)\n")
    assert run(device, *grant, "com.test.targe").stderr == ""  # piped, a script sees a phone's output
    run(device, *grant, TARGET)
    assert run_on_a_terminal(device, *grant, TARGET) == (
        255, "Error: Failed to grant the app function access.\n",
        f"droidsim: {AGENT} already has OTHER_GRANTED for {TARGET}: nothing to change "
        "(a phone, too, says 'Failed' for that)\n")


def test_adding_a_package_that_is_not_installed_to_an_allowlist_warns_with_the_closest_name(device):
    for command, listed in ((("shell", "pm", "add-privileged-allowlist", "com.test.agnt"), "privileged allowlist"),
                            (("access", "agents", "add", "com.test.agnt"), "agent allowlist")):
        result = droidsim(*command, data=device.data)
        assert result.returncode == 0, result.stderr  # a phone's allowlist may name a package before its install
        assert result.stderr == (f"warning: com.test.agnt is not installed (did you mean {AGENT}?): it is on the "
                                 f"{listed} all the same, and counts once a package of that name is installed\n")
    droidsim("access", "agents", "remove", "com.test.agnt", data=device.data)
    droidsim("shell", "pm", "remove-privileged-allowlist", "com.test.agnt", data=device.data)


@pytest.mark.parametrize("command", [
    ("pm", "grant", AGENT, "android.permission.READ_CONTACTS"),
    ("pm", "set-privileged-allowlist", AGENT),
    ("dumpsys", "app_function"),
])
def test_a_package_cannot_run_the_shells_privileged_commands(device, command):
    result = run(device, *command, as_package=AGENT)
    assert result.returncode == 1
    assert "SecurityException" in result.stderr and AGENT in result.stderr


@pytest.mark.parametrize("command", [
    ("set-additional-allowlisted-agents", AGENT),
    ("grant-app-function-access", "--agent-package", AGENT, "--target-package", TARGET),
])
def test_a_package_cannot_run_the_app_function_services_privileged_verbs(device, command):
    """The verb's refusal as its shell command prints an exception it did not catch itself."""
    result = run(device, "cmd", "app_function", *command, as_package=AGENT)
    assert result.returncode == 255 and result.stderr == ""
    assert result.stdout.startswith("Exception: java.lang.SecurityException: ") and AGENT in result.stdout


def test_as_needs_the_packages_credential(device):
    result = run(device, "cmd", "app_function", "list-app-functions", as_package="com.nobody")
    assert result.returncode == 1
    assert "no credential for com.nobody" in result.stderr


def test_device_config_and_settings_hold_the_keys_the_device_reads(device):
    key = ("machine_learning", "allowlisted_app_functions_agents")
    assert run(device, "device_config", "put", *key, f"{AGENT};com.test.other").returncode == 0
    assert run(device, "device_config", "get", *key).stdout == f"{AGENT};com.test.other\n"
    assert "com.test.other" in run(device, "dumpsys", "app_function").stdout
    assert run(device, "device_config", "delete", *key).returncode == 0
    assert run(device, "device_config", "get", *key).stdout == "null\n"
    unknown = run(device, "settings", "put", "secure", "no_such_key", "1")
    assert unknown.returncode == 1 and "unknown setting: secure no_such_key" in unknown.stderr


def test_a_public_tcp_listener_is_reported(tmp_path):
    device = DeviceProcess(tmp_path / "data", extra=("--listen", "0.0.0.0:0"))
    try:
        assert any("reachable from other machines, not only this one" in line for line in device.output)
    finally:
        device.stop()


def test_a_comma_separated_list_of_packages_is_refused_saying_to_separate_them_with_spaces(device):
    for command in (("pm", "add-privileged-allowlist", f"{AGENT},{TARGET}"),):
        result = run(device, *command)
        assert result.returncode == 1
        assert (f"not a package name: '{AGENT},{TARGET}': separate packages with spaces on a command line "
                "(with ';' in a setting's value)") in result.stderr
    added = droidsim("access", "agents", "add", f"{AGENT},{TARGET}", data=device.data)
    assert added.returncode == 1 and "separate packages with spaces" in added.stderr
