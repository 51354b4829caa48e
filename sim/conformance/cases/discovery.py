"""Android 17's discovery APIs (spec/platform-android.md §1 DEV): searchAppFunctions with its
spec, getAppFunctionStates, and the application-level function XML (SearchAppFunctionsTest,
GetAppFunctionStatesTest, AppFunctionRegistrationTest)."""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.metadata import SCOPE_ACTIVITY, SCOPE_GLOBAL
from droid.appfunctions.requests import AppFunctionName, AppFunctionSearchSpec, AppFunctionState
from sim.conformance.cases.access_levels import SELF_FUNCTION, TRUSTED_FUNCTION
from sim.conformance.cases.common import execute
from sim.conformance.expect import equal, fails_with
from sim.conformance.registry import case
from sim.conformance.target import (
    CALLER_PACKAGE,
    DISCOVERER_PACKAGE,
    HELPER_PACKAGE,
    LEVELED_PACKAGE,
    NONEXISTENT_PACKAGE,
)
from sim.platform_version import CINNAMON_BUN

ANDROID_17 = frozenset({CINNAMON_BUN})
APP_LEVEL_FUNCTION = "concatStrings_registeredAtRuntime"  # tests/conformance/apps/leveled
ADD = AppFunctionName(HELPER_PACKAGE, "add")
ADD_DISABLED = AppFunctionName(HELPER_PACKAGE, "add_disabledByDefault")


def _search(context, **spec) -> list:
    return context.app_function_manager.search_app_functions(AppFunctionSearchSpec(**spec))


@case("search-by-function-names-and-scopes", "search.spec")
def search_by_function_names_and_scopes(t) -> None:
    """searchAppFunctions returns one flat list, each function with its package's metadata; the
    spec's function names, packages and scopes must all match (a logical AND)."""
    trusted = AppFunctionName(LEVELED_PACKAGE, TRUSTED_FUNCTION)
    names = frozenset({ADD, trusted, AppFunctionName(NONEXISTENT_PACKAGE, "add")})
    found = _search(t.caller, function_names=names)
    equal("the (package, id, package metadata) of what the names find",
          [(HELPER_PACKAGE, "add", HELPER_PACKAGE), (LEVELED_PACKAGE, TRUSTED_FUNCTION, LEVELED_PACKAGE)],
          [(f.package_name, f.id, f.package_metadata.package_name) for f in found])
    equal("what the names find within the helper package", ["add"],
          [f.id for f in _search(t.caller, function_names=names, package_names=frozenset({HELPER_PACKAGE}))])
    helper = {f.id for f in _search(t.caller, package_names=frozenset({HELPER_PACKAGE}))}
    equal("the helper's functions in SCOPE_GLOBAL", helper,
          {f.id for f in _search(t.caller, package_names=frozenset({HELPER_PACKAGE}), scopes=frozenset({SCOPE_GLOBAL}))})
    equal("the helper's functions in SCOPE_ACTIVITY", [],
          _search(t.caller, package_names=frozenset({HELPER_PACKAGE}), scopes=frozenset({SCOPE_ACTIVITY})))


@case("app-function-states", "states")
def app_function_states(t) -> None:
    """getAppFunctionStates answers each named function the caller may see, in the order asked,
    and silently leaves out one that does not exist or that it may not see."""
    asked = [ADD_DISABLED, AppFunctionName(NONEXISTENT_PACKAGE, "doesNotExist"), ADD]
    equal("the caller's states", [AppFunctionState(ADD_DISABLED, False), AppFunctionState(ADD, True)],
          t.caller.app_function_manager.get_app_function_states(asked))
    own = t.helper.app_function_manager
    equal("the helper's states of its own functions, without any permission",
          [AppFunctionState(ADD, True), AppFunctionState(ADD_DISABLED, False)], own.get_app_function_states([ADD, ADD_DISABLED]))
    equal("the helper's states of another package's function, without any permission", [],
          own.get_app_function_states([AppFunctionName(CALLER_PACKAGE, "add")]))


@case("discover-permission-sees-every-package", "search.discover-permission")
def discover_permission_sees_every_package(t) -> None:
    """An app holding DISCOVER_APP_FUNCTIONS searches another package's functions and reads
    their states on Android 17, and executes none (VisibilityHelperImpl
    .hasPermissionsToQueryRuntimeMetadata @f6328b66:181-198); Android 16 defines no such
    permission, so it sees only its own package."""
    discoverer = t.context(DISCOVERER_PACKAGE)
    on_17 = t.shell.sdk_int >= CINNAMON_BUN
    found = {f.id for f in _search(discoverer, package_names=frozenset({HELPER_PACKAGE}))}
    equal("whether the discoverer sees the helper's add", on_17, "add" in found)
    equal("the discoverer's states of the helper's functions",
          [AppFunctionState(ADD, True)] if on_17 else [], discoverer.app_function_manager.get_app_function_states([ADD]))
    fails_with(execute(discoverer, HELPER_PACKAGE, "add", a=1, b=2), AppFunctionException.ERROR_DENIED)


@case("search-service-and-app-level-functions", "search.app-level", sdks=ANDROID_17)
def search_service_and_app_level_functions(t) -> None:
    """An app with a service's function XML and an application-level one: search lists the
    functions of both; the application-level one is disabled until an app registers it."""
    listed = {f.id: f.is_enabled for f in _search(t.context(LEVELED_PACKAGE), package_names=frozenset({LEVELED_PACKAGE}))}
    equal("the service's function and the application-level one, with their enabled state",
          {SELF_FUNCTION: True, APP_LEVEL_FUNCTION: False},
          {i: listed.get(i) for i in (SELF_FUNCTION, APP_LEVEL_FUNCTION)})


@case("execute-unregistered-app-level-function", "registration.unregistered", sdks=ANDROID_17)
def execute_unregistered_app_level_function(t) -> None:
    """AppFunctionRegistrationTest.execute_unregisteredFunction_returnsError: ERROR_DISABLED."""
    fails_with(execute(t.context(LEVELED_PACKAGE), LEVELED_PACKAGE, APP_LEVEL_FUNCTION),
               AppFunctionException.ERROR_DISABLED)
