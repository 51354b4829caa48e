"""Android 17's per-function access levels (spec/platform-android.md §2), on the leveled app:
who runs each level, who sees it (search and isEnabled), and that a caller below a function's
level learns nothing of its enabled state.

SELF is the same uid only; SYSTEM adds holders of EXECUTE_APP_FUNCTIONS_SYSTEM (the system
caller, and the shell, which holds it); ANDROID_TRUSTED adds EXECUTE_APP_FUNCTIONS with a grant.
"""

from __future__ import annotations

from droid.appfunctions import access_fixes
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.manager import ACCESS_FLAG_OTHER_GRANTED
from droid.appfunctions.requests import APP_FUNCTION_STATE_DEFAULT, APP_FUNCTION_STATE_DISABLED
from droid.os.exceptions import IllegalArgumentException
from sim.conformance.cases.common import denied, execute, listed_function_ids
from sim.conformance.expect import attempt, fails_with, raises, returns
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import CALLER_PACKAGE, LEVELED_PACKAGE, SYSTEM_CALLER_PACKAGE
from sim.platform_version import CINNAMON_BUN

SELF_FUNCTION = "noOp_accessLevelSelf"
SYSTEM_FUNCTION = "noOp_accessLevelSystem"
TRUSTED_FUNCTION = "noOp_accessLevelAndroidTrusted"
# The platform enforces levels from Android 17 (17.2); before it only Jetpack does, for functions
# that opt in (the leveled app's do not): tests/unit/device/test_platform_version.py.
LEVELS_ENFORCED = frozenset({CINNAMON_BUN})


def _runs(context, function: str) -> None:
    returns(execute(context, LEVELED_PACKAGE, function), context.package_name)


def _denied(context, function: str) -> None:
    """ERROR_DENIED, naming the level (or, for an ANDROID_TRUSTED function, the grant) missing."""
    if function == SELF_FUNCTION:
        reason = access_fixes.self_only(function, LEVELED_PACKAGE)
    elif function == SYSTEM_FUNCTION:
        reason = access_fixes.system_only(context.package_name, function)
    else:
        reason = access_fixes.not_granted(context.package_name, LEVELED_PACKAGE)
    fails_with(execute(context, LEVELED_PACKAGE, function), AppFunctionException.ERROR_DENIED, message=denied(reason))


def _sees(context, function: str, visible: bool) -> None:
    """Search lists the function to ``context`` exactly when ``visible``; isEnabled answers
    true for it, or throws IllegalArgumentException as for a missing function."""
    listed = function in listed_function_ids(context, LEVELED_PACKAGE)
    if listed != visible:
        raise Mismatch(f"{context.package_name}'s search to {'list' if visible else 'omit'} {function}",
                       f"it {'lists' if listed else 'omits'} it")
    outcome = attempt(lambda: context.app_function_manager.is_app_function_enabled(function, LEVELED_PACKAGE))
    if visible:
        returns(outcome, True)
    else:
        raises(outcome, IllegalArgumentException)


@case("level-self", "levels.self", sdks=LEVELS_ENFORCED)
def level_self(t) -> None:
    """ACCESS_LEVEL_SELF: the leveled app runs and sees its own function; the system caller, the
    shell and the caller with a grant are ERROR_DENIED and do not see it."""
    leveled = t.context(LEVELED_PACKAGE)
    _runs(leveled, SELF_FUNCTION)
    _sees(leveled, SELF_FUNCTION, True)
    with t.access_flags(CALLER_PACKAGE, LEVELED_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        for other in (t.context(SYSTEM_CALLER_PACKAGE), t.shell, t.caller):
            _denied(other, SELF_FUNCTION)
            _sees(other, SELF_FUNCTION, False)


@case("level-system", "levels.system", sdks=LEVELS_ENFORCED)
def level_system(t) -> None:
    """ACCESS_LEVEL_SYSTEM: the system caller, the shell and the leveled app run and see it; the
    caller with EXECUTE_APP_FUNCTIONS and a grant is ERROR_DENIED and does not see it, and stays
    ERROR_DENIED (not ERROR_DISABLED) while the function is disabled."""
    system_caller = t.context(SYSTEM_CALLER_PACKAGE)
    for allowed in (system_caller, t.shell, t.context(LEVELED_PACKAGE)):
        _runs(allowed, SYSTEM_FUNCTION)
        _sees(allowed, SYSTEM_FUNCTION, True)
    shell = t.shell.app_function_manager
    with t.access_flags(CALLER_PACKAGE, LEVELED_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        _denied(t.caller, SYSTEM_FUNCTION)
        _sees(t.caller, SYSTEM_FUNCTION, False)
        shell.set_app_function_enabled(SYSTEM_FUNCTION, APP_FUNCTION_STATE_DISABLED, LEVELED_PACKAGE)
        try:
            _denied(t.caller, SYSTEM_FUNCTION)
            fails_with(execute(system_caller, LEVELED_PACKAGE, SYSTEM_FUNCTION), AppFunctionException.ERROR_DISABLED)
        finally:
            shell.set_app_function_enabled(SYSTEM_FUNCTION, APP_FUNCTION_STATE_DEFAULT, LEVELED_PACKAGE)


@case("level-android-trusted", "levels.android-trusted", sdks=LEVELS_ENFORCED)
def level_android_trusted(t) -> None:
    """ACCESS_LEVEL_ANDROID_TRUSTED: the caller with EXECUTE_APP_FUNCTIONS sees it without a
    grant, is ERROR_DENIED until the pair is granted, and runs it once it is."""
    _sees(t.caller, TRUSTED_FUNCTION, True)
    _denied(t.caller, TRUSTED_FUNCTION)
    with t.access_flags(CALLER_PACKAGE, LEVELED_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        _runs(t.caller, TRUSTED_FUNCTION)
