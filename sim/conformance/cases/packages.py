"""What package operations do to functions: ``pm clear`` resets enabled state; installing and
uninstalling adds and removes a package's functions."""

from __future__ import annotations

from droid.appfunctions.requests import APP_FUNCTION_STATE_ENABLED
from droid.os.exceptions import IllegalArgumentException
from sim.conformance.cases.common import listed_function_ids
from sim.conformance.expect import attempt, equal, raises, returns
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import HELPER_PACKAGE


@case("pm-clear-resets-enabled-state", "ae.pm-clear")
def pm_clear_resets_enabled_state(t) -> None:
    """After ``cmd app_function set-enabled --state disable``, ``pm clear`` puts the function back
    to its default (enabled) state."""
    manager = t.helper.app_function_manager
    done = t.shell_command("set-enabled", "--package", HELPER_PACKAGE, "--function", "add", "--state", "disable")
    if done.returncode != 0:
        raise Mismatch("set-enabled to exit 0", f"exit {done.returncode}: {(done.stderr or done.stdout).strip()}")
    equal("isEnabled(add) after set-enabled disable", False, manager.is_app_function_enabled("add"))
    t.clear_package_data(HELPER_PACKAGE)
    equal("isEnabled(add) after pm clear", True, manager.is_app_function_enabled("add"))


@case("install-and-uninstall-index-functions", "metadata")
def install_and_uninstall_index_functions(t) -> None:
    """Uninstalling a package removes its functions and their enabled state; installing it
    again brings back every function it declares, in its default state."""
    declared = set(t.install(HELPER_PACKAGE).function_ids)  # an update: everything stays
    equal("the helper's functions after an update", declared, listed_function_ids(t.shell, HELPER_PACKAGE))
    t.helper.app_function_manager.set_app_function_enabled("add_disabledByDefault", APP_FUNCTION_STATE_ENABLED)
    shell = t.shell.app_function_manager
    t.uninstall(HELPER_PACKAGE)
    try:
        equal("the helper's functions after uninstall", set(), listed_function_ids(t.shell, HELPER_PACKAGE))
        raises(attempt(lambda: shell.is_app_function_enabled("add", HELPER_PACKAGE)), IllegalArgumentException)
    finally:
        t.install(HELPER_PACKAGE)
    try:
        equal("the helper's functions after installing again", declared, listed_function_ids(t.shell, HELPER_PACKAGE))
        helper = t.helper.app_function_manager  # a new install: a new identity
        returns(attempt(lambda: helper.is_app_function_enabled("add_disabledByDefault")), False)
    finally:
        t.clear_package_data(HELPER_PACKAGE)
