"""What the indexer reads of an installed package, per SDK, as the AppSearch module that ships
with each release does (issue 33; docs/differences.md, "Platform versions"). Each test states
the platform's outcome on Android 16 (branch 16-qpr2) and Android 17 (branch 17)."""

from __future__ import annotations

import re

import pytest

from droid.appfunctions import (
    AppFunctionData,
    AppFunctionDisabledException,
    AppFunctionFunctionNotFoundException,
    AppFunctionSystemUnknownException,
    ExecuteAppFunctionRequest,
)
from droid.os import IllegalArgumentException
from sim.device import Device
from tests.helpers import HELPER_APP, HELPER_PACKAGE, SAMPLE_APPS, copy_app

MULTI_SERVICES_APP = HELPER_APP.parent / "multi_services"
MULTI_SERVICES_PACKAGE = "android.app.appfunctions.cts.helper.multiservices"
SCHEMA_PROPERTY = '<property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />'
BIND = 'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"'


@pytest.fixture(params=[36, 37])
def device(request, tmp_path):
    with Device(tmp_path / "data", isolated_apps=False, sdk=request.param) as device:
        yield device


@pytest.fixture
def helper(tmp_path):
    return copy_app(HELPER_APP, tmp_path / "src")


def edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def call(device, package, function, **parameters):
    request = ExecuteAppFunctionRequest(package, function, AppFunctionData(**parameters))
    return device.create_context(package).app_function_manager.execute_app_function(request).return_value


def functions(package):
    return {f.id: f for f in package.metadata.app_functions}


def test_a_v2_file_without_an_app_schema_is_nothing_on_16_and_bare_ids_on_17(device, helper):
    """AppsUtil (16-qpr2) reads android.app.appfunctions.v2 only with an app schema;
    AppFunctionsIndexerUtil (17) reads it against the platform's AppFunctionStaticMetadata."""
    edit(helper / "AndroidManifest.xml", SCHEMA_PROPERTY, "")
    package = device.install(helper)
    (note,) = package.install_notes
    if device.version.sdk_int == 36:
        assert functions(package) == {}
        assert "Android 16 reads android.app.appfunctions.v2 only when the package declares an app schema" in note
        with pytest.raises(AppFunctionFunctionNotFoundException):
            call(device, HELPER_PACKAGE, "add", a=1, b=2)
    else:
        add = functions(package)["add"]
        assert (add.enabled_by_default, add.description, list(add.parameters), add.HasField("response")) == (
            True, "", [], False)
        assert not functions(package)["add_disabledByDefault"].enabled_by_default
        assert package.metadata.components.data_types == []
        assert "Android 17 reads its function XML with the platform's schema" in note
        assert call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3  # the platform still routes the call
    assert note.endswith('Add <property android:name="android.app.appfunctions.schema" '
                         'android:value="app_functions_schema.xsd" /> to the <service> (a Gradle build merges that '
                         "asset in from androidx.appfunctions; for a Python app droidsim appfunctions generate writes it).")


def test_a_schema_named_by_resource_is_no_schema(device, helper):
    """The indexer reads the schema property with getString(): a resource id is no asset path."""
    (helper / "res" / "xml").mkdir(parents=True)
    (helper / "res" / "xml" / "schema.xml").write_text("<x/>")
    edit(helper / "AndroidManifest.xml", 'android:value="app_functions_schema.xsd"', 'android:resource="@xml/schema"')
    package = device.install(helper)
    assert "names a resource (@xml/schema); the indexer reads only an asset path" in package.install_notes[0]
    assert (functions(package) == {}) == (device.version.sdk_int == 36)


def test_without_an_app_schema_android_16_reads_the_v1_file_beside_the_v2_one(device, tmp_path):
    """androidx's generateV1Xml layout: both files, no schema. 16 reads the v1 one, 17 the v2 one
    (here told apart by the v2 file's enabledByDefault false)."""
    app = copy_app(MULTI_SERVICES_APP, tmp_path / "src")
    edit(app / "AndroidManifest.xml", '<property android:name="android.app.appfunctions" android:value="appfunctions2.xml" />',
         '<property android:name="android.app.appfunctions" android:value="appfunctions2.xml" />\n'
         '            <property android:name="android.app.appfunctions.v2" android:value="v2.xml" />')
    (app / "assets" / "v2.xml").write_text(
        "<appfunctions><appfunction><id>echo</id><enabledByDefault>false</enabledByDefault></appfunction></appfunctions>")
    package = device.install(app)
    assert functions(package)["echo"].enabled_by_default == (device.version.sdk_int == 36)
    read = "reads its android.app.appfunctions file instead" if device.version.sdk_int == 36 else (
        "Android 17 reads its function XML with the platform's schema")
    assert any(read in note for note in package.install_notes), package.install_notes


def test_android_16_indexes_the_last_service_queryIntentServices_lists(device, tmp_path):
    """AppsUtil.getPackagesToIndex puts each ResolveInfo into a map by package, so the last wins;
    IntentResolver lists higher android:priority first. Android 17 indexes every service."""
    app = copy_app(MULTI_SERVICES_APP, tmp_path / "src")
    edit(app / "AndroidManifest.xml", "<intent-filter>", '<intent-filter android:priority="1">', count=2)
    edit(app / "AndroidManifest.xml", '<intent-filter android:priority="1">', "<intent-filter>")  # the first: 0
    package = device.install(app)
    # By priority, TestAppFunctionService2 is listed first and TestAppFunctionService last.
    if device.version.sdk_int == 36:
        assert set(functions(package)) == {"add"}
        assert "the last PackageManager lists (android.app.appfunctions.testutils.TestAppFunctionService)" in (
            package.install_notes[0])
        assert call(device, MULTI_SERVICES_PACKAGE, "add") == "TestAppFunctionService2:add"  # binds the first
    else:
        assert set(functions(package)) == {"add", "echo"} and package.install_notes == ()
        assert call(device, MULTI_SERVICES_PACKAGE, "add") == "TestAppFunctionService:add"


def test_an_omitted_enabled_by_default_is_disabled_on_16_and_enabled_on_17(device, helper):
    """16-qpr2 builds a v2 function as a generic document, without a default; 17 (and AppSearch
    cfd54a97, "Default enabledByDefault to true") as AppFunctionStaticMetadata, default true."""
    edit(helper / "assets" / "app_functions_v2.xml", "<id>add</id>\n        <enabledByDefault>true</enabledByDefault>",
         "<id>add</id>")
    package = device.install(helper)
    manager = device.create_context(HELPER_PACKAGE).app_function_manager
    if device.version.sdk_int == 36:
        assert manager.is_app_function_enabled("add") is False
        with pytest.raises(AppFunctionDisabledException):
            call(device, HELPER_PACKAGE, "add", a=1, b=2)
        assert package.install_notes == (
            f"{helper / 'assets' / 'app_functions_v2.xml'}:3: add has no <enabledByDefault>: Android 16 indexes it "
            "disabled (ERROR_DISABLED until set-enabled). Write <enabledByDefault>true</enabledByDefault>.",)
    else:
        assert manager.is_app_function_enabled("add") is True and call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3
        assert package.install_notes == ()


def test_a_v1_file_named_by_resource_without_an_app_schema_installs_indexing_nothing_on_16(device, tmp_path):
    """AppSearch 16-qpr2 reads a resource against the package's app schemas, here none
    (AppsUtil.java:342-377, 688-695): nothing is indexed and the package installs; 17 reads it."""
    app = copy_app(MULTI_SERVICES_APP, tmp_path / "src")
    (app / "res" / "xml").mkdir(parents=True)
    (app / "assets" / "appfunctions2.xml").rename(app / "res" / "xml" / "functions.xml")
    edit(app / "AndroidManifest.xml", 'android:value="appfunctions2.xml"', 'android:resource="@xml/functions"')
    package = device.install(app)
    if device.version.sdk_int == 36:
        assert functions(package) == {}
        (note,) = [n for n in package.install_notes if "android:resource" in n]
        assert note.endswith('Name the file by its asset path, android:value="NAME.xml" with the file in assets/ '
                             "(droidsim appfunctions generate writes assets/<xml_file_name>.xml for a Python app), or "
                             "declare an app schema and name the file with android.app.appfunctions.v2.")
        with pytest.raises(AppFunctionFunctionNotFoundException):
            call(device, MULTI_SERVICES_PACKAGE, "echo")
    else:
        assert set(functions(package)) == {"add", "echo"} and package.install_notes == ()


def test_a_function_id_without_an_id_is_the_id_on_17(device, helper):
    """AppSearch 17 takes <functionId> as the document id (AppFunctionDocumentParserImpl
    .java:364-374); 16's parser throws "No id found", so the file indexes nothing, and droidsim
    refuses the install naming what to write (docs/differences.md)."""
    edit(helper / "assets" / "app_functions_v2.xml", "<id>add</id>", "")  # it has <functionId>add</functionId>
    if device.version.sdk_int == 36:
        with pytest.raises(IllegalArgumentException) as refused:
            device.install(helper)
        assert "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML" in str(refused.value)
        assert "<appfunction> has <functionId>add</functionId> but no <id>: Android 16's indexer" in str(refused.value)
        assert "Write <id>add</id>" in str(refused.value)
        return
    package = device.install(helper)
    assert "add" in functions(package)
    assert call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3


def test_an_omitted_enabled_by_default_in_a_v1_file_is_enabled_on_both(device, tmp_path):
    """A v1 file is read with AppFunctionStaticMetadata.Builder, whose default is true."""
    package = device.install(copy_app(MULTI_SERVICES_APP, tmp_path / "src"))
    assert all(f.enabled_by_default for f in package.metadata.app_functions)


def test_a_service_without_the_bind_permission_beside_a_correct_one(device, tmp_path):
    """17 (AppSearch 966c992a) leaves the service out and indexes the other. 16 indexes the last
    service whatever its permission, and binds the first, which ServiceHelperImpl refuses when it
    lacks the permission: every call is ERROR_SYSTEM_ERROR "Cannot find the target service."."""
    app = copy_app(MULTI_SERVICES_APP, tmp_path / "src")
    edit(app / "AndroidManifest.xml", BIND, 'android:permission="android.permission.INTERNET"')  # the first's
    package = device.install(app)
    if device.version.sdk_int == 36:
        assert set(functions(package)) == {"echo"}
        with pytest.raises(AppFunctionSystemUnknownException, match="Cannot find the target service."):
            call(device, MULTI_SERVICES_PACKAGE, "echo")
        assert "Android 16 binds the first AppFunctionService" in package.install_notes[0]
    else:
        assert set(functions(package)) == {"echo"}
        assert call(device, MULTI_SERVICES_PACKAGE, "echo") == "TestAppFunctionService2:echo"
        assert package.install_notes == (
            f"{app / 'AndroidManifest.xml'}:9: Android 17 does not index service "
            "android.app.appfunctions.testutils.TestAppFunctionService: it lacks "
            'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE". Add '
            'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" to its <service>.',)


def test_a_service_protected_by_the_applications_permission_is_indexed(device, helper):
    """ParsedServiceUtils: a service without android:permission takes the application's."""
    edit(helper / "AndroidManifest.xml", BIND, "")
    edit(helper / "AndroidManifest.xml", "<application>", f"<application {BIND}>")
    package = device.install(helper)
    assert "add" in functions(package) and package.install_notes == ()
    assert call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3


def test_an_element_the_app_schema_does_not_declare_in_a_data_type(device, helper):
    """17 skips it with its subtree (AppSearch 5e82a257); 16-qpr2 throws (fcfe73c6), so the
    file indexes nothing: install refuses it, naming the element (docs/differences.md)."""
    xml = helper / "assets" / "app_functions_v2.xml"
    edit(xml, "<isNullable>false</isNullable>", "<isNullable>false</isNullable>\n<unit><name>cm</name></unit>")
    if device.version.sdk_int == 36:
        with pytest.raises(IllegalArgumentException, match=re.escape(
                f"INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: {xml}:10: <unit> is not a property of "
                "AppFunctionDataTypeMetadataDocument in the app schema: Android 16's indexer throws on it, so none "
                "of this file's functions are indexed (Android 17 skips it)")):
            device.install(helper)
        return
    package = device.install(helper)
    assert [p.name for p in functions(package)["add"].parameters] == ["a", "b"]
    assert package.install_notes == (
        f"{xml}:10: <unit> is not a property of AppFunctionDataTypeMetadataDocument in the app schema: Android 17 "
        "skips it. Declare it in the app schema, or remove it.",)
    assert call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3


def test_a_document_type_the_app_schema_does_not_declare_is_not_indexed(device, helper):
    """The parser reads only top-level elements whose type the package's schemas hold, on both."""
    edit(helper / "assets" / "app_functions_v2.xml", "<appfunctions>", "<appfunctions>\n<Extra><id>x</id></Extra>")
    package = device.install(helper)
    assert "add" in functions(package)
    assert package.install_notes[0].endswith("<Extra> is no document type of the app schema: it is not indexed. "
                                             "Declare it in the app schema, or remove it.")


def test_a_service_that_is_not_exported_is_still_indexed_and_bound(device, helper):
    """The system binds it: ActivityManager.checkComponentPermission grants the system uid
    whatever android:exported says, and the indexer's queryIntentServices lists it."""
    edit(helper / "AndroidManifest.xml", 'android:exported="true"', 'android:exported="false"')
    package = device.install(helper)
    assert "add" in functions(package) and call(device, HELPER_PACKAGE, "add", a=1, b=2) == 3


def test_droidsims_own_destructive_mark_is_read_on_both(device):
    """An Android 16 QPR1/QPR2 phone would refuse the file over the undeclared
    <droidsim:isDestructive> (a droidsim-only property; docs/differences.md); droidsim reads its
    own mark on both SDKs."""
    package = device.install(SAMPLE_APPS / "orders")
    assert functions(package)["com.example.orders.OrderFunctionService#cancel_order"].is_destructive
    assert package.install_notes == ()


def test_a_folders_property_value_is_the_text_as_written(device, helper):
    """A compiled manifest's android:value="@string/..." is the string it names (TypedArray
    resolves it; an APK's is resolved when decoded); an app folder is not compiled, so its text is
    the asset path (docs/differences.md)."""
    (helper / "res" / "values").mkdir(parents=True)
    (helper / "res" / "values" / "strings.xml").write_text(
        '<resources><string name="functions">app_functions_v2.xml</string></resources>')
    edit(helper / "AndroidManifest.xml", 'android:value="app_functions_v2.xml"', 'android:value="@string/functions"')
    with pytest.raises(IllegalArgumentException, match=re.escape(
            "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: " + str(helper / "AndroidManifest.xml") + ": service "
            "android.app.appfunctions.testutils.TestAppFunctionService names assets/@string/functions, which does not exist")):
        device.install(helper)
