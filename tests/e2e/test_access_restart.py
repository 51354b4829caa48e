"""Grants, enabled states, revocations and history survive a SIGKILL of the device process."""

from __future__ import annotations

import json

from droid.appfunctions import access_fixes
from tests.helpers import DeviceProcess, droidsim
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, make_app

AGENT = "com.test.agent"
TARGET = "com.test.target"
REVOKED = "com.test.revoked"
READ_CONTACTS = "android.permission.READ_CONTACTS"


def shell(data, *args, as_package=None):
    prefix = ("--as", as_package) if as_package else ()
    return droidsim(*prefix, "shell", *args, data=data)


def ok(result):
    assert result.returncode == 0, result.stderr
    return result.stdout


def run_add(data, target):
    return shell(data, "cmd", "app_function", "execute-app-function", "--package", target, "--function", "add",
                 "--parameters", '{"a": 1, "b": 2}', as_package=AGENT)


def test_grant_disable_and_revoke_survive_sigkill(tmp_path):
    targets, agents = tmp_path / "targets", tmp_path / "agents"
    make_app(targets, TARGET)
    make_app(targets, REVOKED)
    make_app(agents, AGENT, (EXECUTE_APP_FUNCTIONS, READ_CONTACTS))
    data = tmp_path / "data"
    boot = (data, targets)
    extra = ("--system-apps", str(agents))

    device = DeviceProcess(*boot, extra=extra)
    ok(shell(data, "cmd", "app_function", "set-additional-allowlisted-agents", AGENT))
    for target in (TARGET, REVOKED):
        ok(shell(data, "cmd", "app_function", "grant-app-function-access", "--agent-package", AGENT,
                 "--target-package", target))
    ok(shell(data, "cmd", "app_function", "revoke-app-function-access", "--agent-package", AGENT,
             "--target-package", REVOKED))
    ok(shell(data, "cmd", "app_function", "set-enabled", "--package", TARGET, "--function", "noOp", "--state", "disable"))
    ok(shell(data, "pm", "grant", AGENT, READ_CONTACTS))
    assert ok(run_add(data, TARGET)).strip() == "3"
    # A SIGKILL may lose the attempts of the last group-commit window (docs/reliability.md); a
    # read writes the queue first, so the attempt above is on disk once the history is dumped.
    assert "SUCCESS" in ok(shell(data, "dumpsys", "app_function"))
    device.kill()

    device = DeviceProcess(*boot, extra=extra)
    try:
        assert ok(run_add(data, TARGET)).strip() == "3"
        denied = run_add(data, REVOKED)
        assert denied.returncode == 1
        assert denied.stderr == ("Error: ERROR_DENIED (1000): Caller does not have permission to execute the appfunction: "
                                 f"{access_fixes.not_granted(AGENT, REVOKED)}\n")
        disabled = shell(data, "cmd", "app_function", "execute-app-function", "--package", TARGET, "--function", "noOp",
                         "--parameters", "{}")
        assert disabled.returncode == 1 and disabled.stderr == "Error: ERROR_DISABLED (1002): The app function is disabled\n"
        packages = {p["package"]: p for p in json.loads(ok(shell(data, "pm", "list", "packages", "--json")))}
        assert packages[AGENT]["granted_permissions"] == [EXECUTE_APP_FUNCTIONS, READ_CONTACTS]
        dump = ok(shell(data, "dumpsys", "app_function"))
        assert f"Agent allowlist: com.android.shell, {AGENT}" in dump
        assert f"{AGENT} -> {TARGET}: OTHER_GRANTED (GRANTED)" in dump
        assert f"{AGENT} -> {REVOKED}: OTHER_DENIED (DENIED)" in dump
        assert "noOp accessLevel=androidTrusted enabled=false" in dump
        history = [line for line in dump.splitlines() if f"{AGENT} (uid" in line]
        assert [line.rsplit(" ms ", 1)[1] for line in history] == [
            "SUCCESS", "SUCCESS",
            f"ERROR_DENIED (1000): Caller does not have permission to execute the appfunction: "
            f"{access_fixes.not_granted(AGENT, REVOKED)}",
        ]
    finally:
        device.stop()
