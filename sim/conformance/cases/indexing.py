"""What the AppFunction indexer reads of an installed package, on each SDK (§3): AppSearch's
``16-qpr2`` branch for Android 16, ``17`` for Android 17. Each case installs the indexer app
(tests/conformance/apps/indexer) with one thing changed, checks as the shell what the platform
indexes, and uninstalls it."""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.requests import AppFunctionSearchSpec
from droid.os.exceptions import IllegalArgumentException
from sim.conformance.cases.common import NOT_FOUND, execute, listed_function_ids
from sim.conformance.expect import Outcome, attempt, equal, fails_with, raises, returns
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import MULTI_SERVICES_PACKAGE

INDEXER_APP = "indexer"
INDEXER_PACKAGE = "android.app.appfunctions.cts.indexer"
MANIFEST = "AndroidManifest.xml"
ECHO_XML = "assets/echo.xml"
SCHEMA_PROPERTY = '<property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />'
ECHO_SERVICE = '        <service android:name="android.app.appfunctions.cts.indexer.EchoService"'
# A service listed before EchoService, without the bind permission, with a function of its own.
UNBOUND_SERVICE = """        <service android:name="android.app.appfunctions.cts.indexer.UnboundService"
            android:exported="true">
            <intent-filter>
                <action android:name="android.app.appfunctions.AppFunctionService" />
            </intent-filter>
            <property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />
            <property android:name="android.app.appfunctions.v2" android:value="unbound.xml" />
        </service>
"""


def _on_android_16(t) -> bool:
    return t.shell.sdk_int == 36


def _installed(outcome: object) -> None:
    if isinstance(outcome, Exception):
        raise Mismatch("the app to install", f"{type(outcome).__name__}: {outcome}")


def _refused(installed: object, *says: str) -> None:
    """Android 16's parser throws on the file, so it indexes nothing; droidsim refuses the
    install instead, saying why (a difference)."""
    outcome = Outcome(error=installed) if isinstance(installed, Exception) else Outcome(value=installed)
    for text in ("INSTALL_PARSE_FAILED_BAD_FUNCTION_XML", *says):
        raises(outcome, IllegalArgumentException, text)


def _echo_indexed_and_runs(t) -> None:
    equal("the indexer app's functions", {"echo"}, listed_function_ids(t.shell, INDEXER_PACKAGE))
    returns(_echo(t), "EchoService:hi")


def _echo(t) -> Outcome:
    return execute(t.shell, INDEXER_PACKAGE, "echo", text="hi")


def _echo_metadata(t):
    spec = AppFunctionSearchSpec(package_names=frozenset({INDEXER_PACKAGE}))
    return next(f for f in t.shell.app_function_manager.search_app_functions(spec) if f.id == "echo")


@case("index-multi-service-package", "index.one-service")
def multi_service_indexes_one_service(t) -> None:
    """Android 16 indexes one AppFunctionService per package, the last queryIntentServices lists
    (echo's); Android 17 indexes both."""
    expected = {"echo"} if _on_android_16(t) else {"add", "echo"}
    equal("the multi-service helper's functions", expected, listed_function_ids(t.shell, MULTI_SERVICES_PACKAGE))


@case("index-v2-without-app-schema", "index.no-app-schema")
def v2_without_app_schema(t) -> None:
    """Without android.app.appfunctions.schema, Android 16 reads no android.app.appfunctions.v2
    file, so echo is not found; Android 17 reads it with the platform's schema, so echo is listed
    with no description or parameters, and still runs."""
    with t.installed_variant(INDEXER_APP, {MANIFEST: (SCHEMA_PROPERTY, "")}) as installed:
        _installed(installed)
        if _on_android_16(t):
            equal("the indexer app's functions", set(), listed_function_ids(t.shell, INDEXER_PACKAGE))
            fails_with(_echo(t), AppFunctionException.ERROR_FUNCTION_NOT_FOUND, NOT_FOUND)
            return
        echo = _echo_metadata(t)
        equal("echo's description and parameters", ("", []), (echo.description, list(echo.parameters)))
        returns(_echo(t), "EchoService:hi")


@case("index-omitted-enabled-by-default", "index.enabled-by-default")
def omitted_enabled_by_default(t) -> None:
    """A v2 function without <enabledByDefault> is disabled on Android 16 (ERROR_DISABLED) and
    enabled on Android 17."""
    edits = {ECHO_XML: ("<enabledByDefault>true</enabledByDefault>", "")}
    with t.installed_variant(INDEXER_APP, edits) as installed:
        _installed(installed)
        enabled = not _on_android_16(t)
        manager = t.shell.app_function_manager
        returns(attempt(lambda: manager.is_app_function_enabled("echo", INDEXER_PACKAGE)), enabled)
        if enabled:
            returns(_echo(t), "EchoService:hi")
        else:
            fails_with(_echo(t), AppFunctionException.ERROR_DISABLED)


@case("index-service-without-bind-permission", "index.bind-permission")
def service_without_bind_permission(t) -> None:
    """A service without BIND_APP_FUNCTION_SERVICE listed first: Android 17 leaves it out and
    indexes and binds EchoService; Android 16 indexes EchoService (the last) but binds the first
    for every call, which it refuses: ERROR_SYSTEM_ERROR "Cannot find the target service."."""
    with t.installed_variant(INDEXER_APP, {MANIFEST: (ECHO_SERVICE, UNBOUND_SERVICE + ECHO_SERVICE)}) as installed:
        _installed(installed)
        equal("the indexer app's functions", {"echo"}, listed_function_ids(t.shell, INDEXER_PACKAGE))
        if _on_android_16(t):
            fails_with(_echo(t), AppFunctionException.ERROR_SYSTEM_ERROR, message="Cannot find the target service.")
        else:
            returns(_echo(t), "EchoService:hi")


@case("index-undeclared-element-in-a-data-type", "index.undeclared-element")
def undeclared_element_in_a_data_type(t) -> None:
    """An element the app schema does not declare inside a data type: Android 17 skips it, and
    echo keeps its parameter; Android 16's parser throws, so the file indexes nothing (droidsim
    refuses the install, naming the element: a difference)."""
    edits = {ECHO_XML: ("<type>8</type>", "<type>8</type>\n                <unit>characters</unit>")}
    with t.installed_variant(INDEXER_APP, edits) as installed:
        if _on_android_16(t):
            _refused(installed, "<unit> is not a property of AppFunctionDataTypeMetadataDocument")
            return
        _installed(installed)
        equal("echo's parameters", ["text"], [p.name for p in _echo_metadata(t).parameters])
        returns(_echo(t), "EchoService:hi")


V2_PROPERTY = '<property android:name="android.app.appfunctions.v2" android:value="echo.xml" />'
V1_RESOURCE_PROPERTY = '<property android:name="android.app.appfunctions" android:resource="@xml/echo_v1" />'


@case("index-v1-resource-without-app-schema", "index.v1-resource")
def v1_resource_without_app_schema(t) -> None:
    """A v1 function XML named by android:resource, no app schema: Android 16 reads a resource
    against the package's app schemas, of which it has none, so nothing is indexed and the
    package installs (AppSearch 16-qpr2 AppsUtil.java:342-377, 688-695); Android 17 indexes echo."""
    edits = {MANIFEST: (f"{SCHEMA_PROPERTY}\n            {V2_PROPERTY}", V1_RESOURCE_PROPERTY)}
    with t.installed_variant(INDEXER_APP, edits) as installed:
        _installed(installed)
        if _on_android_16(t):
            equal("the indexer app's functions", set(), listed_function_ids(t.shell, INDEXER_PACKAGE))
            fails_with(_echo(t), AppFunctionException.ERROR_FUNCTION_NOT_FOUND, NOT_FOUND)
            return
        _echo_indexed_and_runs(t)


@case("index-function-id-without-id", "index.function-id")
def function_id_without_id(t) -> None:
    """An <appfunction> with <functionId> and no <id>: Android 17 takes it as the document id
    (AppSearch 17 AppFunctionDocumentParserImpl.java:364-374), so echo is indexed and runs; Android
    16's parser throws "No id found", so the file indexes nothing (droidsim refuses the install,
    naming what to write: a difference)."""
    with t.installed_variant(INDEXER_APP, {ECHO_XML: ("<id>echo</id>", "<functionId>echo</functionId>")}) as installed:
        if _on_android_16(t):
            _refused(installed, "has <functionId>echo</functionId> but no <id>")
            return
        _installed(installed)
        _echo_indexed_and_runs(t)
