"""isAppFunctionEnabled and setAppFunctionEnabled: states, defaults and refusals."""

from __future__ import annotations

from droid.appfunctions.manager import ACCESS_FLAG_OTHER_GRANTED
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
)
from droid.os.exceptions import IllegalArgumentException, SecurityException
from sim.conformance.expect import attempt, equal, raises, returns
from sim.conformance.registry import case
from sim.conformance.target import CALLER_PACKAGE, HELPER_PACKAGE

UNKNOWN_ID = "nonExistentFunction"


@case("is-enabled", "ae.is-enabled")
def is_enabled(t) -> None:
    """isEnabled on the caller's own functions: add is true, add_disabledByDefault false."""
    manager = t.caller.app_function_manager
    returns(attempt(lambda: manager.is_app_function_enabled("add")), True)
    returns(attempt(lambda: manager.is_app_function_enabled("add_disabledByDefault")), False)


@case("is-enabled-by-default-parse-boolean", "ae.is-enabled")
def is_enabled_by_default_parse_boolean(t) -> None:
    """The indexer reads enabledByDefault with Boolean.parseBoolean
    (AppFunctionDocumentParserImpl): a function whose XML says 1 is disabled, one that says TRUE
    enabled."""
    manager = t.caller.app_function_manager
    returns(attempt(lambda: manager.is_app_function_enabled("noOp_enabledByDefaultOne")), False)
    returns(attempt(lambda: manager.is_app_function_enabled("noOp_enabledByDefaultUpperCase")), True)


@case("is-enabled-other-package-with-permission", "ae.is-enabled")
def is_enabled_other_package_with_permission(t) -> None:
    """isEnabled on the helper's functions, by the caller holding EXECUTE_APP_FUNCTIONS without
    a grant: add is true, add_disabledByDefault false (an agent sees a target before it asks
    for access)."""
    manager = t.caller.app_function_manager
    returns(attempt(lambda: manager.is_app_function_enabled("add", HELPER_PACKAGE)), True)
    returns(attempt(lambda: manager.is_app_function_enabled("add_disabledByDefault", HELPER_PACKAGE)), False)


@case("enabled-state-of-unknown-id", "ae.illegal-argument")
def enabled_state_of_unknown_id(t) -> None:
    """isEnabled and setEnabled on an id the package does not declare throw IllegalArgumentException."""
    manager = t.caller.app_function_manager
    raises(attempt(lambda: manager.is_app_function_enabled(UNKNOWN_ID)), IllegalArgumentException)
    raises(
        attempt(lambda: manager.set_app_function_enabled(UNKNOWN_ID, APP_FUNCTION_STATE_ENABLED)),
        IllegalArgumentException,
        f"Function {UNKNOWN_ID} does not exist",
    )


@case("is-enabled-other-package-without-permission", "ae.illegal-argument")
def is_enabled_other_package_without_permission(t) -> None:
    """isEnabled on another package's function without EXECUTE_APP_FUNCTIONS throws
    IllegalArgumentException: the function is invisible to the caller."""
    manager = t.helper.app_function_manager
    raises(attempt(lambda: manager.is_app_function_enabled("add", CALLER_PACKAGE)), IllegalArgumentException)


@case("set-enabled-sequence", "ae.set-enabled-sequence")
def set_enabled_sequence(t) -> None:
    """DISABLED turns a function off, ENABLED on, and DEFAULT returns it to the XML's enabledByDefault."""
    manager = t.caller.app_function_manager
    steps = (
        ("add", APP_FUNCTION_STATE_DISABLED, False),
        ("add", APP_FUNCTION_STATE_DEFAULT, True),
        ("add_disabledByDefault", APP_FUNCTION_STATE_ENABLED, True),
        ("add_disabledByDefault", APP_FUNCTION_STATE_DEFAULT, False),
    )
    try:
        for function, state, enabled in steps:
            manager.set_app_function_enabled(function, state)
            equal(f"isEnabled({function}) after setEnabled({state})", enabled, manager.is_app_function_enabled(function))
    finally:
        for function in ("add", "add_disabledByDefault"):
            manager.set_app_function_enabled(function, APP_FUNCTION_STATE_DEFAULT)


@case("set-enabled-other-package", "api.set-enabled-own-package")
def set_enabled_other_package(t) -> None:
    """setEnabled on another package's function is a SecurityException, even for an agent
    holding EXECUTE_APP_FUNCTIONS and a grant for that package; the function stays enabled."""
    manager = t.caller.app_function_manager
    try:
        with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
            raises(
                attempt(lambda: manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED, HELPER_PACKAGE)),
                SecurityException,
            )
        equal("the helper's isEnabled(add) afterwards", True, t.helper.app_function_manager.is_app_function_enabled("add"))
    finally:  # a device that let it through must not leave the helper's add disabled
        t.shell.app_function_manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DEFAULT, HELPER_PACKAGE)
