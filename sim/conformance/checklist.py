"""The CTS checklist of spec/platform-android.md §4 (and the shell commands of §5), row by row.

Each row says what the platform does and how droidsim answers for it: by the cases that name
the row (``sim.conformance.cases``), or by a ``not_applicable`` note when droidsim does not
model the feature at all (then docs/conformance.md lists it). Besides the CTS rows, a few rows
hold the device to rules of §1 and §2 that no CTS class of §4 checks (Android 17's access
levels, setAppFunctionEnabled's own-package rule), so that every access rule has a case.
"""

from __future__ import annotations

from dataclasses import dataclass

# The public source each section stands for (docs/conformance.md, "Sources").
PUBLIC_SOURCE = {"§1": "API", "§2": "API", "§3": "AppSearch", "§4": "CTS", "§5": "shell"}


@dataclass(frozen=True)
class Row:
    key: str
    section: str  # "§1" to "§5"
    source: str  # the CTS class (§4), the shell command (§5), or the API or rule (§1, §2)
    setup: str
    expected: str
    not_applicable: str | None = None

    @property
    def reference(self) -> str:
        """Where the row comes from, in public terms: "CTS AccessEnabledTest: noOp"."""
        return f"{PUBLIC_SOURCE[self.section]} {self.source}: {self.setup}"


def _ae(key: str, setup: str, expected: str, **status: str) -> Row:
    return Row(f"ae.{key}", "§4", "AccessEnabledTest", setup, expected, **status)


def _v2(key: str, setup: str, expected: str, **status: str) -> Row:
    return Row(f"v2.{key}", "§4", "V2Test", setup, expected, **status)


def _access(key: str, setup: str, expected: str) -> Row:
    return Row(f"access.{key}", "§4", "AppFunctionAccessTest", setup, expected)


def _index(key: str, source: str, setup: str, expected: str) -> Row:
    return Row(f"index.{key}", "§3", source, setup, expected)


def _level(key: str, setup: str, expected: str) -> Row:
    return Row(f"levels.{key}", "§2", "Access levels (Android 17)", setup, expected)


ROWS: tuple[Row, ...] = (
    # AppFunctionManagerAccessEnabledTest
    _ae("permission-no-grant", "permission, no grant, helper noOp",
        'ERROR_DENIED, message contains "does not have permission to execute the appfunction", '
        "service never created"),
    _ae("grant-without-permission", "grant without permission; neither", "ERROR_DENIED"),
    _ae("permission-and-grant", "permission + grant, helper add(1,2)", "success, return value 3, service then destroyed"),
    _ae("own-package", "own package, any combination of permission/grant", "success"),
    _ae("uncaught-client-exception", "uncaughtClientException", 'ERROR_INVALID_ARGUMENT "Function does not exist"'),
    _ae("invoke-callback-twice", "add_invokeCallbackTwice", "exactly one callback"),
    _ae("calling-package", "noOp", "result reports calling package == caller; with a grant the target also sees the caller"),
    _ae("cross-user", "cross-user with INTERACT_ACROSS_USERS_FULL", "ERROR_DENIED",
        not_applicable="droidsim has one user"),
    _ae("manager-as-other-user", "creating a manager as another user without the permission", "SecurityException",
        not_applicable="droidsim has one user"),
    _ae("other-package-no-permission", "other package, nonexistent or existing, no permission",
        "ERROR_DENIED with the same message suffix"),
    _ae("throw-and-kill", "throwException; kill (process dies, not re-created)", "ERROR_APP_UNKNOWN_ERROR"),
    _ae("async-and-empty-package", "addAsync; empty package name", "success (3); ERROR_INVALID_ARGUMENT"),
    _ae("profiles", "run in a work or private profile, or target one", "ERROR_DENIED",
        not_applicable="droidsim has no work or private profiles"),
    _ae("disabled", "add_disabledByDefault, or add after setEnabled(DISABLED)", "ERROR_DISABLED, service not created"),
    _ae("enterprise-policy", "device owner without policy; DPM APP_FUNCTIONS_DISABLED",
        "success; ERROR_ENTERPRISE_POLICY_DISALLOWED", not_applicable="droidsim has no DevicePolicyManager"),
    _ae("large-payloads", "1 MB parameter; 5 MB echoBytes", "success; bytes round-trip"),
    _ae("unknown-function", "unknown function id (own package, or helper with grant)",
        'ERROR_FUNCTION_NOT_FOUND, message contains "App function not found."'),
    _ae("cancel-long-running", "cancel during longRunningFunction",
        "the app's cancel listener fires, service destroyed, no callback"),
    _ae("cancel-not-invoke-callback", "cancel while notInvokeCallback is running",
        "the same, after the cancellation timeout"),
    _ae("is-enabled", "isEnabled: add / add_disabledByDefault / helper add with permission", "true / false / true"),
    _ae("illegal-argument", "isEnabled or setEnabled on an unknown id; isEnabled on another package without permission",
        "IllegalArgumentException"),
    _ae("set-enabled-sequence", "setEnabled DISABLED -> DEFAULT -> ENABLED", "false -> default -> true"),
    _ae("foreground-binding", "run own function without permission / with permission + grant", "process not BFGS / BFGS",
        not_applicable="droidsim does not model process importance (foreground service binding)"),
    _ae("pm-clear", "cmd app_function set-enabled then pm clear", "state back to default"),
    _ae("uris", "getUris", "the caller gets read/write access exactly as granted",
        not_applicable="droidsim has no content URI grants"),
    # AppFunctionManagerV2Test: the same matrix with the allowlist instead of grants.
    _v2("denied", "no permission, or permission without allowlisting, or neither", "ERROR_DENIED"),
    _v2("allowlisted", "permission + allowlisted", "success"),
    _v2("system-permission", "EXECUTE_APP_FUNCTIONS_SYSTEM + allowlisted", "success"),
    _v2("nonexistent-package", "nonexistent package, permission + allowlisted", "ERROR_FUNCTION_NOT_FOUND"),
    _v2("attribution", "attribution does not reach the target", "the target sees no attribution",
        not_applicable="droidsim requests carry no attribution (QPR2 setAttribution is not modelled)"),
    # AppFunctionAccessTest: the access API itself.
    _access("flags", "USER/OTHER/PREGRANTED flags on a fresh or flagged pair",
            "fresh, USER_DENIED, OTHER_DENIED, PREGRANTED+USER_DENIED: denied; PREGRANTED, USER_GRANTED, OTHER_GRANTED: granted"),
    _access("other-overrides-user", "OTHER_DENIED + USER_GRANTED", "denied (conflicts with the code, §2)"),
    _access("unrequestable", "missing agent or target", "UNREQUESTABLE and flags 0"),
    _access("system-api-permission", "two-argument getAccessRequestState, getAccessFlags, updateAccessFlags, "
            "getValidAgents/Targets without permission", "SecurityException"),
    _access("one-argument-form", "one-argument getAccessRequestState", "uses the context's opPackageName"),
    _access("invalid-flags", "invalid or opposing flags", "IllegalArgumentException"),
    _access("revoke-self", "revokeSelfAccess", "leaves exactly OTHER_DENIED (0 if nothing was set)"),
    _access("validity", "agents and targets", "agents must request the permission, targets must have the service"),
    # Which service a call binds (§2, step 6); CTS's helper-app-multi-services layout.
    Row("multi-service", "§2", "ServiceHelperImpl.resolveAppFunctionService",
        "a package with two AppFunctionServices, a function declared by the second",
        "Android 16: the first service gets the call; Android 17: the declaring one"),
    # What the AppFunction indexer reads of a package (§3), per release: AppSearch branches 16-qpr2
    # (AppsUtil) and 17 (AppFunctionsIndexerUtil, AppFunctionResolveInfo).
    _index("one-service", "AppsUtil.getPackagesToIndex", "a package with two AppFunctionServices",
           "Android 16: the last queryIntentServices lists is indexed; Android 17: both"),
    _index("no-app-schema", "AppsUtil / AppFunctionsIndexerUtil.buildAppFunctionDocumentsIntoMap",
           "a v2 function XML without android.app.appfunctions.schema",
           "Android 16: none of its functions; Android 17: their ids and enabled state, no description, parameters "
           "or response"),
    _index("enabled-by-default", "AppFunctionDocumentParserImpl", "a v2 function without <enabledByDefault>",
           "Android 16: disabled; Android 17: enabled (cfd54a97)"),
    _index("bind-permission", "AppsUtil.getAppFunctionServiceInfos",
           "a service without BIND_APP_FUNCTION_SERVICE listed before a correct one",
           "Android 16: the correct (last) one is indexed, every call binds the first and fails (ERROR_SYSTEM_ERROR); "
           "Android 17: that service is left out, the other indexed and bound"),
    _index("undeclared-element", "AppFunctionDocumentParserImpl",
           "an element the app schema does not declare, inside a data type",
           "Android 16: the parser throws, none of the file's functions are indexed; Android 17: skipped"),
    _index("v1-resource", "AppsUtil.buildAppFunctionDocumentsIntoMap",
           "a v1 function XML named by android:resource, no app schema",
           "Android 16: read against the package's (empty) app schemas, nothing indexed, the package installs; "
           "Android 17: indexed"),
    _index("function-id", "AppFunctionDocumentParserImpl", "an <appfunction> with <functionId> and no <id>",
           "Android 16: the parser throws (No id found), none of the file's functions are indexed; Android 17: "
           "<functionId> is the document id"),
    # Android 17 access levels (§2); no CTS class in the sources checks them yet.
    _level("self", "a function at ACCESS_LEVEL_SELF",
           "its own package runs and sees it; anyone else, EXECUTE_APP_FUNCTIONS_SYSTEM included, gets ERROR_DENIED "
           "and does not see it"),
    _level("system", "a function at ACCESS_LEVEL_SYSTEM",
           "a holder of EXECUTE_APP_FUNCTIONS_SYSTEM runs and sees it; EXECUTE_APP_FUNCTIONS with a grant gets "
           "ERROR_DENIED and does not see it"),
    _level("android-trusted", "a function at ACCESS_LEVEL_ANDROID_TRUSTED (the default)",
           "EXECUTE_APP_FUNCTIONS sees it, and runs it once the pair is granted"),
    # §1: setAppFunctionEnabled takes no target package on Android.
    Row("api.set-enabled-own-package", "§1", "AppFunctionManager.setAppFunctionEnabled",
        "an app sets the state of another package's function", "SecurityException; own package only"),
    # AppFunctionServiceTest
    Row("service.v2-off", "§4", "AppFunctionServiceTest", "v2 off",
        "the service sees the real calling package and signing info"),
    Row("service.v2-on", "§4", "AppFunctionServiceTest", "v2 on", 'the service sees "" and no signing info'),
    # AppFunctionRegistrationTest
    Row("registration", "§4", "AppFunctionRegistrationTest", "dynamic registration",
        "the registration rules of §1",
        not_applicable="droidsim has no runtime registration of functions"),
    Row("registration.unregistered", "§4", "AppFunctionRegistrationTest", "execute_unregisteredFunction: an "
        "application-level function no process registered", "ERROR_DISABLED"),
    # SearchAppFunctionsTest, GetAppFunctionStatesTest (Android 17)
    Row("search.spec", "§1", "AppFunctionManager.searchAppFunctions", "a spec of function names, packages and scopes",
        "one flat list of what matches every filter, each function with its package's metadata"),
    Row("search.discover-permission", "§2", "VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata",
        "an app holding DISCOVER_APP_FUNCTIONS only", "Android 17: it sees other packages' functions and states and "
        "executes none (ERROR_DENIED); Android 16: no such permission, it sees its own package only"),
    Row("search.app-level", "§4", "SearchAppFunctionsTest", "an app with service-level and application-level "
        "function XML", "the functions of both are listed"),
    Row("states", "§4", "GetAppFunctionStatesTest", "states of own, other, missing and invisible functions",
        "the visible ones' states, in the order asked; the others left out"),
    Row("access.listener", "§1", "AppFunctionManager.addAccessChangedListener", "an agent's access changes",
        "the listener hears the agent's uid; it needs MANAGE_APP_FUNCTION_ACCESS"),
    # androidx's dispatcher, in the app (§1: what a Jetpack app answers)
    Row("jetpack.missing-parameter", "§1", "androidx AppFunctionDataParameterExtractor.unsafeGetParameterValue",
        "a call without a required parameter of an @AppFunction",
        'ERROR_INVALID_ARGUMENT "Parameter orderId should be the type of AppFunctionStringTypeMetadata(...)"'),
    # AppFunctionMetadataTest
    Row("metadata", "§4", "AppFunctionMetadataTest", "installing, updating or uninstalling an APK",
        "adds, replaces or removes its runtime documents"),
    # ExecuteAppFunctionRequestTest / ResponseTest / ExceptionTest
    Row("parcel", "§4", "ExecuteAppFunctionRequestTest / ResponseTest / ExceptionTest",
        "round-trips, including the empty defaults", "equal objects"),
    Row("parcel.null-message", "§4", "AppFunctionExceptionTest", "testParcel_nullErrorMessage",
        "the message is still null"),
    Row("pending-intent", "§1", "PendingIntent (android.app PendingIntentTest)", "an immutable implicit or mutable "
        "explicit intent; a mutable implicit one, both flags, neither",
        "created; IllegalArgumentException for the last three (an app targeting Android 14+)"),
    # §5 the shell command
    Row("shell.list", "§5", "cmd app_function list-app-functions", "list-app-functions",
        "a JSON object mapping each package to its functions"),
    Row("shell.execute", "§5", "cmd app_function execute-app-function", "execute-app-function --package P --function F "
        "--parameters JSON", "the result printed as JSON; the caller is com.android.shell"),
    Row("shell.options", "§5", "cmd app_function execute-app-function / set-enabled / is-enabled",
        "--user 0 or --user current; execute-app-function without --parameters",
        "the user is taken; a missing --parameters is an error"),
    Row("shell.test-hooks", "§5", "cmd app_function purge-allowlist-cache / set-test-page-size / reset-test-page-size",
        "on Android 17; --page-size without its value", "Purge allowlist cache; Set test page size to N; nothing; "
        '"Fail to parse page-size", exit 255'),
    Row("shell.set-enabled", "§5", "cmd app_function set-enabled", "set-enabled --package P --function F "
        "--state enable|disable|default; an unknown function",
        '"App function enabled state updated successfully." and the state changes; "Error setting app function '
        'state: ..." on stdout; exit 0 either way'),
    Row("shell.is-enabled", "§5", "cmd app_function is-enabled", "is-enabled of an unknown function",
        '"Error checking app function state: ..." on stdout, exit 0'),
    Row("shell.errors", "§5", "cmd app_function (every verb)", "a missing option, an option without its value, an "
        "unknown option, an unknown verb, read-app-description of an app without app metadata or without --package",
        '"Error: --x must be specified.", "Exception: ... Argument expected after", "Unknown option: --x", '
        '"Unknown command: x", "Exception: ...NameNotFoundException" / "...NullPointerException" on stdout, exit 255'),
    Row("shell.default-commands", "§5", "cmd app_function dump / -h", "dump; -h",
        "the service's dump, exit 0; the help, exit 255 (android.os.ShellCommand.handleDefaultCommands)"),
    Row("shell.allowlist", "§5", "cmd app_function set-additional-allowlisted-agents / "
        "clear-additional-allowlisted-agents", "set PKG...; clear", "the Secure setting written whole; nothing "
        "printed, exit 0"),
    Row("shell.grant-access", "§5", "cmd app_function grant-app-function-access / revoke-app-function-access",
        "--agent-package A --target-package T; an invalid pair, or a flag already set",
        '"Access granted successfully." with OTHER_GRANTED / OTHER_DENIED set under the OTHER mask; '
        '"Error: Failed to grant the app function access." on stdout, exit 255, when nothing changed'),
    Row("shell.list-valid", "§5", "cmd app_function list-valid-agents / list-valid-targets", "list-valid-agents, "
        "list-valid-targets", "the valid agents; the valid targets"),
)

_BY_KEY = {r.key: r for r in ROWS}


def row(key: str) -> Row:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no checklist row {key!r}") from None
