"""function_xml_files: the files AppSearch's indexer reads, per SDK (issue 16 rows 3, 15; issue 33)."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionData, ExecuteAppFunctionRequest
from sim.device import Device
from sim.platform_version import ANDROID_16, ANDROID_17
from sim.pm.function_files import (
    APPLICATION_LEVEL,
    FunctionFileError,
    FunctionXmlFile,
    function_xml_files,
    service_function_xml,
)
from sim.pm.manifest import parse_manifest, resolution_order
from sim.xmlsafe import XmlError
from tests.helpers import HELPER_APP, HELPER_PACKAGE, copy_app
from tests.unit.xml.test_manifest import FUNCTION_SERVICE, prop, write_manifest


def app_with(tmp_path, application: str, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    manifest = parse_manifest(write_manifest(tmp_path, application))
    return manifest, resolution_order(manifest.services)


def indexed(tmp_path, application: str, files: dict[str, str], version=ANDROID_17) -> list[tuple[str, str, str]]:
    manifest, services = app_with(tmp_path, application, files)
    return [(str(f.path.relative_to(tmp_path)), f.format, f.service_name)
            for f in function_xml_files(manifest, tmp_path, services, version).files]


def notes(tmp_path, application: str, files: dict[str, str], version) -> list[str]:
    manifest, services = app_with(tmp_path, application, files)
    return [note.message for note in function_xml_files(manifest, tmp_path, services, version).notes]


def test_every_service_and_the_application_are_indexed(reference_dir):
    """SearchAppFunctionsTest: a service's functions and the app-level ones are both found."""
    root = reference_dir / "aosp-cts/helper-app-dynamic-schema"
    manifest = parse_manifest(root / "AndroidManifest.xml")
    services = resolution_order(manifest.services)
    files = function_xml_files(manifest, root, services, ANDROID_17).files
    schema = root / "assets/app_functions_schema.xsd"
    assert files == [
        FunctionXmlFile(root / "assets/app_functions_v2.xml", "v2", services[0].name, schema),
        FunctionXmlFile(root / "assets/dynamic_appfunctions.xml", "v2", APPLICATION_LEVEL, schema),
    ]
    # Android 16 reads neither the application's functions nor its schema, and a service's v2
    # file only in a package with a (service-level) schema: nothing at all of this app.
    on_16 = function_xml_files(manifest, root, services, ANDROID_16)
    assert on_16.files == []
    assert [n.message.split(":")[0] for n in on_16.notes] == [f"service {services[0].name}", "Android 16 does not read application-level function XML"]


def test_v2_beats_v1_at_both_levels(tmp_path):
    service = FUNCTION_SERVICE.format(
        name=".Functions", properties=prop("android.app.appfunctions", "old.xml") + prop("android.app.appfunctions.v2", "new.xml"))
    application = service + prop("android.app.appfunctions", "app_v1.xml") + prop("android.app.appfunctions.v2", "app_v2.xml")
    files = {f"assets/{n}": "<appfunctions/>" for n in ("old.xml", "new.xml", "app_v1.xml", "app_v2.xml")}
    assert indexed(tmp_path, application, files) == [
        ("assets/new.xml", "v2", "com.example.app.Functions"), ("assets/app_v2.xml", "v2", APPLICATION_LEVEL),
    ]


def test_resources_and_several_application_files(tmp_path):
    """Row 15: android:resource at either level, and several files at application level, as a
    comma-separated asset list or an @array of @xml resources."""
    service = FUNCTION_SERVICE.format(
        name=".S", properties='<property android:name="android.app.appfunctions.v2" android:resource="@xml/service_functions"/>')
    files = {"res/xml/service_functions.xml": "<appfunctions/>", "assets/a.xml": "<appfunctions/>",
             "assets/b.xml": "<appfunctions/>", "res/xml/c.xml": "<appfunctions/>", "res/xml/d.xml": "<appfunctions/>",
             "res/values/arrays.xml": '<resources><array name="functions"><item>@xml/c</item><item>@xml/d</item></array></resources>'}
    listed = service + prop("android.app.appfunctions.v2", " a.xml, b.xml ,")
    assert indexed(tmp_path, listed, files) == [
        ("res/xml/service_functions.xml", "v2", "com.example.app.S"),
        ("assets/a.xml", "v2", APPLICATION_LEVEL), ("assets/b.xml", "v2", APPLICATION_LEVEL),
    ]
    array = service + '<property android:name="android.app.appfunctions.v2" android:resource="@array/functions"/>'
    assert [path for path, _, _ in indexed(tmp_path, array, files)][1:] == ["res/xml/c.xml", "res/xml/d.xml"]


def test_services_that_disagree_on_the_schema_get_none(tmp_path):
    schema = lambda name: prop("android.app.appfunctions.schema", name)  # noqa: E731
    one = FUNCTION_SERVICE.format(name=".One", properties=prop("android.app.appfunctions.v2", "f.xml") + schema("a.xsd"))
    two = FUNCTION_SERVICE.format(name=".Two", properties=prop("android.app.appfunctions.v2", "g.xml") + schema("b.xsd"))
    files = {"assets/f.xml": "<appfunctions/>", "assets/g.xml": "<appfunctions/>", "assets/a.xsd": "", "assets/b.xsd": ""}
    manifest, services = app_with(tmp_path, one + two, files)
    disagree = function_xml_files(manifest, tmp_path, services, ANDROID_17)
    assert {f.schema for f in disagree.files} == {None}
    assert "Defaulting to platform schema" in disagree.notes[0].message
    manifest, services = app_with(tmp_path, one + two + schema("a.xsd"), files)  # the application's wins
    assert {f.schema for f in function_xml_files(manifest, tmp_path, services, ANDROID_17).files} == {tmp_path / "assets/a.xsd"}


@pytest.mark.parametrize(("properties", "files", "error", "message"), [
    (prop("android.app.appfunctions.v2", "missing.xml"), {}, FunctionFileError, "names assets/missing.xml, which does not exist"),
    (prop("android.app.appfunctions.v2", "../x.xml"), {}, FunctionFileError, "outside the app's assets"),
    ('<property android:name="android.app.appfunctions.v2" android:resource="@xml/gone"/>', {}, FunctionFileError,
     r"names @xml/gone \(res/xml/gone.xml\), which does not exist"),
    ('<property android:name="android.app.appfunctions.v2" android:resource="@string/x"/>', {}, XmlError,
     "is not an @xml/<name> resource reference"),
])
def test_a_file_the_app_cannot_provide_is_named(tmp_path, properties, files, error, message):
    service = FUNCTION_SERVICE.format(name=".S", properties=properties)
    manifest, services = app_with(tmp_path, service, files)
    with pytest.raises(error, match=message):
        service_function_xml(manifest, tmp_path, services[0])


def test_an_undefined_array_is_named(tmp_path):
    application = '<property android:name="android.app.appfunctions.v2" android:resource="@array/nothing"/>'
    manifest, services = app_with(tmp_path, application, {})
    with pytest.raises(FunctionFileError, match=r'@array/nothing is not defined in res/values/'):
        function_xml_files(manifest, tmp_path, services, ANDROID_17)
    assert function_xml_files(manifest, tmp_path, services, ANDROID_16).files == []


def test_an_app_whose_function_xml_is_an_xml_resource_installs_and_runs(tmp_path):
    """Row 15 end to end: the service's property names @xml/helper_functions, not an asset."""
    app = copy_app(HELPER_APP, tmp_path / "src")
    (app / "res" / "xml").mkdir(parents=True)
    (app / "assets" / "app_functions_v2.xml").rename(app / "res" / "xml" / "helper_functions.xml")
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(
        'android:value="app_functions_v2.xml"', 'android:resource="@xml/helper_functions"'))
    with Device(tmp_path / "data", isolated_apps=False) as device:
        installed = device.install(app)
        assert "add" in {f.id for f in installed.metadata.app_functions}
        request = ExecuteAppFunctionRequest(HELPER_PACKAGE, "add", AppFunctionData(a=1, b=2))
        assert device.create_context(HELPER_PACKAGE).app_function_manager.execute_app_function(request).return_value == 3


V1_FILE = ("<appfunctions><appfunction><function_id>com.example.app.S#one</function_id>"
           "<enabled_by_default>true</enabled_by_default></appfunction></appfunctions>")


def test_a_v1_file_named_by_resource_without_an_app_schema_is_nothing_on_16_and_indexed_on_17(tmp_path):
    """AppSearch 16-qpr2 hands a resource to parseIntoMapForGivenSchemas with the package's app
    schemas, of which it has none (AppsUtil.java:342-377, 688-695;
    AppFunctionDocumentParserImpl.java:272), so nothing is indexed; 17 reads it."""
    service = FUNCTION_SERVICE.format(
        name=".S", properties='<property android:name="android.app.appfunctions" android:resource="@xml/functions"/>')
    files = {"res/xml/functions.xml": V1_FILE}
    assert indexed(tmp_path, service, files, ANDROID_17) == [("res/xml/functions.xml", "v1", "com.example.app.S")]
    assert indexed(tmp_path, service, files, ANDROID_16) == []
    [note] = notes(tmp_path, service, files, ANDROID_16)
    assert note == ("service com.example.app.S: its android.app.appfunctions file is named by android:resource "
                    "(@xml/functions); Android 16 reads a resource against the package's app schema "
                    "(android.app.appfunctions.schema), and there is none, so none of its functions are indexed "
                    "(Android 17 indexes them).")
    assert notes(tmp_path, service, files, ANDROID_17) == []
    by_asset = FUNCTION_SERVICE.format(name=".S", properties=prop("android.app.appfunctions", "functions.xml"))
    assert indexed(tmp_path, by_asset, {"assets/functions.xml": V1_FILE}, ANDROID_16) == [
        ("assets/functions.xml", "v1", "com.example.app.S")]


@pytest.mark.parametrize("version", [ANDROID_16, ANDROID_17], ids=["sdk36", "sdk37"])
def test_a_meta_data_element_is_no_property(tmp_path, version):
    """The indexer asks PackageManager.getProperty, which holds <property> elements only
    (ParsedComponentUtils.addProperty); a <meta-data> of the same name is never read."""
    service = FUNCTION_SERVICE.format(
        name=".S", properties='<meta-data android:name="android.app.appfunctions.v2" android:value="f.xml"/>'
                              + prop("android.app.appfunctions.schema", "s.xsd"))
    files = {"assets/f.xml": "<appfunctions/>", "assets/s.xsd": ""}
    assert indexed(tmp_path, service, files, version) == []
