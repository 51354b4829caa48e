"""Real formats: the AOSP and AndroidX reference files, read by the code the device uses.

- every CTS and sample manifest becomes an app folder (built in tmp_path at test time from the
  reference manifest, its reference assets and a stand-in Python module for each service class
  it names) and is installed on a device, or refused for a reason the spec gives;
- every v1 and v2 function XML installs as the asset of a stand-in app and indexes exactly the
  functions it declares;
- the AppSearch-dialect XSDs parse into their document types, and the custom top-level documents
  of the v2 files the manifests name are checked against the XSD the manifest names.

Reference data is read in place (``reference_dir``); nothing of it is copied into the project.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lxml import etree

from droid.appfunctions import AppFunctionDisabledException, AppFunctionSearchSpec, ExecuteAppFunctionRequest
from droid.os import IllegalArgumentException
from sim.device import Device
from sim.pm.dialect_xsd import check_custom_documents, parse_dialect_xsd
from sim.pm.function_xml import parse_function_xml
from sim.pm.manifest import PROPERTY_FUNCTIONS_V2, PROPERTY_SCHEMA, parse_manifest
from tests.conftest import reference_root

ANDROID_NS = "http://schemas.android.com/apk/res/android"
APPFN_NS = "http://schemas.android.com/apk/androidx.appfunctions"
XS_NS = "http://www.w3.org/2001/XMLSchema"
TEST_SERVICE = "android.app.appfunctions.testutils.TestAppFunctionService"

CTS_TEST_FUNCTIONS = frozenset({
    "add", "add_disabledByDefault", "add_invokeCallbackTwice", "addAsync", "kill", "noOp", "uncaughtClientException",
    "notInvokeCallback", "throwException", "longRunningFunction", "runForever", "noSchema",
})
CTS_HELPER_FUNCTIONS = frozenset({
    "add", "noOp", "addWithRestrictCallersWithExecuteAppFunctionsFalse", "addWithRestrictCallersWithExecuteAppFunctionsTrue",
})
DYNAMIC_SCHEMA_APP_LEVEL_FUNCTIONS = frozenset({
    "contextConcatStrings", "contextLongRunning", "contextOutputInvalidArgument", "contextThrowUnknownException",
    "contextThrowInvalidArgument", "contextStopProcess",
})
CTS_DYNAMIC_FUNCTIONS = frozenset({"contextConcatStrings", "contextLongRunning", "contextDisabledByDefault"})
DYNAMIC_SCHEMA_SERVICE_FUNCTIONS = frozenset({
    "appFunctionEnabledByDefault", "appFunctionDisabledByDefault_noSchema", "appFunctionWithHighSchemaVersion",
})
DYNAMIC_SCHEMA_DISABLED = frozenset({"appFunctionDisabledByDefault_noSchema"})


@dataclass(frozen=True)
class ReferenceApp:
    """A reference manifest, where its assets come from, and what the device should make of it."""

    manifest: str  # under the reference folder
    assets: str | None  # the reference folder its assets/ holds
    services: dict[str, frozenset[str]]  # service class -> the ids its XML declares (the stand-in implements them)
    disabled: frozenset[str] = frozenset()  # ids whose XML says enabled_by_default false
    package: str | None = None  # for a manifest without one, as the build's namespace supplies it
    res: str | None = None  # the reference res/ folder
    replace_assets: dict[str, str] = field(default_factory=dict)  # asset name -> stand-in reference file
    # Application-level ids (Android 17 indexes them; no service runs them: ERROR_DISABLED).
    app_level: frozenset[str] = frozenset()
    # The CTS TestAppFunctionService implements the application-level ids beside its own.
    stand_in_implements_app_level: bool = False

INSTALLABLE = {
    "cts": ReferenceApp("aosp-cts/AndroidManifest.xml", "aosp-cts/assets", {TEST_SERVICE: CTS_TEST_FUNCTIONS},
                        disabled=frozenset({"add_disabledByDefault"})),
    "cts-helper": ReferenceApp("aosp-cts/helper-app/AndroidManifest.xml", "aosp-cts/helper-app/assets",
                               {TEST_SERVICE: CTS_HELPER_FUNCTIONS}, disabled=frozenset({"noOp"})),
    "cts-helper-sidecar": ReferenceApp(
        "aosp-cts/helper-app/AndroidManifest_sidecar.xml", "aosp-cts/helper-app/assets",
        {"android.app.appfunctions.testutils.TestSidecarAppFunctionService": CTS_HELPER_FUNCTIONS},
        disabled=frozenset({"noOp"})),
    # The service's file and the application's are both indexed (AppSearch AppFunctionResolveInfo),
    # and the service's code implements both, as the CTS TestAppFunctionService does.
    "cts-dynamic-schema": ReferenceApp("aosp-cts/helper-app-dynamic-schema/AndroidManifest.xml",
                                       "aosp-cts/helper-app-dynamic-schema/assets",
                                       {TEST_SERVICE: DYNAMIC_SCHEMA_SERVICE_FUNCTIONS},
                                       app_level=DYNAMIC_SCHEMA_APP_LEVEL_FUNCTIONS, disabled=DYNAMIC_SCHEMA_DISABLED,
                                       stand_in_implements_app_level=True),
    "cts-dynamic-schema-less-one": ReferenceApp(
        "aosp-cts/helper-app-dynamic-schema/AndroidManifest_lessOneFunction.xml", "aosp-cts/helper-app-dynamic-schema/assets",
        {TEST_SERVICE: DYNAMIC_SCHEMA_SERVICE_FUNCTIONS - {"appFunctionWithHighSchemaVersion"}},
        app_level=DYNAMIC_SCHEMA_APP_LEVEL_FUNCTIONS, disabled=DYNAMIC_SCHEMA_DISABLED),
    "cts-dynamic-schema-no-top-level": ReferenceApp(
        "aosp-cts/helper-app-dynamic-schema/AndroidManifest_noTopLevelDocs.xml", "aosp-cts/helper-app-dynamic-schema/assets",
        {TEST_SERVICE: DYNAMIC_SCHEMA_SERVICE_FUNCTIONS}, app_level=DYNAMIC_SCHEMA_APP_LEVEL_FUNCTIONS, disabled=DYNAMIC_SCHEMA_DISABLED),
    # No AppFunctionService: only application-level functions, listed and disabled until an app
    # registers them at runtime, which droidsim does not model (docs/differences.md).
    "cts-app-level-only": ReferenceApp("aosp-cts/helper-app-dynamic-schema/AndroidManifest_appLevelFunctionsOnly.xml",
                                       "aosp-cts/helper-app-dynamic-schema/assets", {},
                                       app_level=DYNAMIC_SCHEMA_APP_LEVEL_FUNCTIONS),
    "cts-multi-services": ReferenceApp(
        "aosp-cts/helper-app-multi-services/AndroidManifest.xml", "aosp-cts/helper-app-multi-services/assets",
        {TEST_SERVICE: frozenset({"add"}), "android.app.appfunctions.testutils.TestAppFunctionService2": frozenset({"echo"})}),
    "cts-deprecated-service": ReferenceApp(
        "aosp-cts/deprecated-service-test-helper/AndroidManifest.xml", "aosp-cts/deprecated-service-test-helper/assets",
        {"android.app.appfunctions.service.test.DeprecatedAppFunctionService": frozenset({"test"})}),
    # Its manifest names exactly the three files of the CTS package's own assets folder: the
    # service's appfunctions.xml, and the application's dynamic_appfunctions.xml.
    "cts-no-query-all-packages": ReferenceApp("aosp-cts/no-query-all-packages-cts/AndroidManifest.xml", "aosp-cts/assets",
                                              {TEST_SERVICE: CTS_TEST_FUNCTIONS}, app_level=CTS_DYNAMIC_FUNCTIONS,
                                              disabled=frozenset({"add_disabledByDefault"})),
    # The samples' function XML is generated at build time and not in the reference: AndroidX
    # compiler output stands in for it, and the library's own dialect XSD for the schema.
    "chat-app": ReferenceApp(
        "android-appfunctions-samples/ChatApp/app/src/main/AndroidManifest.xml", None,
        {"com.example.chatapp.appfunctions.ChatAppFunctionService": frozenset({"com.testdata.SimpleEntryPoint#simpleFunction"})},
        package="com.example.chatapp", res="android-appfunctions-samples/ChatApp/app/src/main/res",
        replace_assets={"chat_app_function_service.xml": "androidx-compiler-output/entrypoints/my_simple_service.xml",
                        "app_functions_schema.xsd": "androidx-assets/app_functions_schema.xsd"}),
    "chat-app-wear": ReferenceApp(
        "android-appfunctions-samples/ChatApp/wear/src/main/AndroidManifest.xml", None,
        {"com.example.chatapp.appfunctions.ChatAppFunctionService": frozenset({"com.testdata.SimpleEntryPoint#simpleFunction"})},
        package="com.example.chatapp.wear", res="android-appfunctions-samples/ChatApp/wear/src/main/res",
        replace_assets={"chat_app_function_service.xml": "androidx-compiler-output/entrypoints/my_simple_service.xml",
                        "app_functions_schema.xsd": "androidx-assets/app_functions_schema.xsd"}),
    "agent": ReferenceApp(
        "android-appfunctions-samples/agent/app/src/main/AndroidManifest.xml", None,
        {"com.example.appfunctions.agent.data.BuiltInAppFunctionService": frozenset({"com.testdata.SimpleEntryPoint#simpleFunction"}),
         "com.example.appfunctions.agent.data.FakeAppFunctionService": frozenset({"com.testdata.ExtensionEntryPoint#simpleFunction"})},
        package="com.example.appfunctions.agent", res="android-appfunctions-samples/agent/app/src/main/res",
        replace_assets={"builtin_app_function_service.xml": "androidx-compiler-output/entrypoints/my_simple_service.xml",
                        "fake_app_function_service.xml": "androidx-compiler-output/entrypoints/my_extension_service.xml",
                        "app_functions_schema.xsd": "androidx-assets/app_functions_schema.xsd"}),
}

# What the device refuses as the reference folder has it, and why that is right.
REFUSED = {
    # Its Android.bp supplies app_functions.xml from elsewhere; a folder without the asset its
    # manifest names is a broken app (Android would index no functions for it; droidsim refuses
    # the install, docs/differences.md).
    "cts-service-test-helper": (
        ReferenceApp("aosp-cts/service-test-helper/AndroidManifest.xml", None,
                     {"android.app.appfunctions.service.test.AppFunctionServiceImpl": frozenset()}),
        r"INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: .*names assets/app_functions\.xml, which does not exist",
    ),
    # Source manifests of Gradle modules: the package comes from the build's namespace, and an
    # APK's merged manifest always has one.
    "chat-app-source-manifest": (
        ReferenceApp("android-appfunctions-samples/ChatApp/app/src/main/AndroidManifest.xml", None, {}),
        r"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: .*<manifest> has no package attribute",
    ),
    "agent-source-manifest": (
        ReferenceApp("android-appfunctions-samples/agent/app/src/main/AndroidManifest.xml", None, {}),
        r"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: .*<manifest> has no package attribute",
    ),
}

STAND_IN = '''"""Stand-in for {services}: answers each declared function with its class and id."""

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
{classes}'''

STAND_IN_CLASS = '''

class {name}(AppFunctionService):
    @classmethod
    def implemented_function_ids(cls):
        return frozenset({ids!r})

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        callback.on_result(ExecuteAppFunctionResponse.of(f"{{type(self).__name__}}:{{request.function_identifier}}"))
'''


def write_stand_ins(app_dir: Path, services: dict[str, frozenset[str]]) -> None:
    """One module per package path, found as the shortest suffix of it (e.g. testutils.py for
    android.app.appfunctions.testutils.TestAppFunctionService): the device looks for the longest
    suffix that exists, down to this one."""
    modules: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for service, ids in services.items():
        package_path, class_name = service.rsplit(".", 1)
        modules.setdefault(package_path.rsplit(".", 1)[-1], []).append((class_name, ids))
    for module, classes in modules.items():
        source = STAND_IN.format(
            services=", ".join(name for name, _ in classes),
            classes="".join(STAND_IN_CLASS.format(name=name, ids=set(sorted(ids)) or set()) for name, ids in classes),
        )
        (app_dir / f"{module}.py").write_text(source)


def build_app(reference: Path, app: ReferenceApp, target: Path) -> Path:
    """An app folder in ``target``: the reference manifest, assets and res/, plus stand-in code."""
    target.mkdir(parents=True)
    manifest = etree.parse(str(reference / app.manifest))
    if app.package is not None:
        manifest.getroot().set("package", app.package)
    manifest.write(str(target / "AndroidManifest.xml"), xml_declaration=True, encoding="utf-8")
    if app.assets is not None:
        shutil.copytree(reference / app.assets, target / "assets")
    for name, source in app.replace_assets.items():
        (target / "assets").mkdir(exist_ok=True)
        shutil.copyfile(reference / source, target / "assets" / name)
    if app.res is not None:
        shutil.copytree(reference / app.res, target / "res")
    extra = app.app_level if app.stand_in_implements_app_level else frozenset()
    write_stand_ins(target, {service: ids | extra for service, ids in app.services.items()})
    return target


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    with Device(tmp_path_factory.mktemp("reference") / "data", isolated_apps=False) as device:
        yield device


@pytest.mark.parametrize("name", INSTALLABLE)
def test_reference_app_installs_with_stand_in_code(reference_dir, device, tmp_path, name):
    app = INSTALLABLE[name]
    package = device.install(build_app(reference_dir, app, tmp_path / name))
    functions = {f.id: f for f in package.metadata.app_functions}
    assert set(functions) == set().union(app.app_level, *app.services.values())
    for service, ids in app.services.items():
        assert {i for i, f in functions.items() if f.service_name == service} == ids
    manager = device.create_context(package.package_name).app_function_manager
    listed = manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({package.package_name})))
    assert {f.id for f in listed if not f.is_enabled} == app.disabled | app.app_level
    for function in sorted(app.app_level)[:1]:  # AppFunctionRegistrationTest: execute_unregisteredFunction
        with pytest.raises(AppFunctionDisabledException, match="declared at application level and is not registered"):
            manager.execute_app_function(ExecuteAppFunctionRequest(package.package_name, function))
    for service, ids in app.services.items():  # each service answers its own functions
        function = sorted(ids - app.disabled)[0]
        request = ExecuteAppFunctionRequest(package.package_name, function)
        class_name = service.rsplit(".", 1)[1]
        assert manager.execute_app_function(request).return_value == f"{class_name}:{function}"


@pytest.mark.parametrize("name", [n for n, app in INSTALLABLE.items() if app.res is not None])
def test_sample_app_metadata_reaches_agents(reference_dir, device, tmp_path, name):
    app = INSTALLABLE[name]
    metadata_file = reference_dir / app.res / "xml" / "app_metadata.xml"
    description = etree.parse(str(metadata_file)).getroot().get(f"{{{APPFN_NS}}}description")
    package = device.install(build_app(reference_dir, app, tmp_path / name))
    listed = device.create_context(package.package_name).app_function_manager.search_app_functions(
        AppFunctionSearchSpec(package_names=frozenset({package.package_name}))
    )
    assert description and {f.package_metadata.app_metadata.description for f in listed} == {description}


@pytest.mark.parametrize("name", REFUSED)
def test_reference_app_refused_for_the_right_reason(reference_dir, device, tmp_path, name):
    app, reason = REFUSED[name]
    before = {p.package_name for p in device.registry.all()}
    with pytest.raises(IllegalArgumentException, match=reason):
        device.install(build_app(reference_dir, app, tmp_path / name))
    assert {p.package_name for p in device.registry.all()} == before


# The custom top-level documents of every v2 file a manifest names, by manifest; each checked
# against the dialect XSD the same manifest names.
CUSTOM_DOCUMENTS = {
    "cts-dynamic-schema": {("CustomTopLevelComponent1", "testTopLevelComponentId"),
                           ("CustomTopLevelComponent2", "testTopLevelComponentId2")},
    "cts-dynamic-schema-less-one": {("CustomTopLevelComponent1", "testTopLevelComponentId"),
                                    ("CustomTopLevelComponent2", "testTopLevelComponentId2")},
    "cts-dynamic-schema-no-top-level": set(),
    "cts-app-level-only": set(),
    "cts-multi-services": {("CustomTopLevelComponent1", "testTopLevelComponentId")},
    "cts-no-query-all-packages": set(),
}


@pytest.mark.parametrize("name", CUSTOM_DOCUMENTS)
def test_custom_documents_match_the_schema_their_manifest_names(reference_dir, name):
    app = INSTALLABLE[name]
    manifest = parse_manifest(reference_dir / app.manifest)
    assets = reference_dir / app.assets
    found = set()
    for properties in (manifest.application_properties, *(s.properties for s in manifest.services)):
        if PROPERTY_FUNCTIONS_V2 not in properties:
            continue
        schema = manifest.application_properties.get(PROPERTY_SCHEMA) or properties.get(PROPERTY_SCHEMA)
        assert schema is not None, f"{app.manifest} names a v2 file but no schema XSD"
        document = parse_function_xml(assets / properties[PROPERTY_FUNCTIONS_V2].value, "p", "s", format="v2")
        check_custom_documents(document, parse_dialect_xsd(assets / schema.value))
        found |= {(custom.tag, custom.id) for custom in document.custom_documents}
    assert found == CUSTOM_DOCUMENTS[name]


def _reference_files(*patterns: str) -> list[str]:
    root = reference_root()
    return sorted({p.relative_to(root).as_posix() for pattern in patterns for p in root.glob(pattern)}) or ["none-found"]


FUNCTION_XML = _reference_files("**/assets/*.xml", "androidx-compiler-output/**/*.xml")
DIALECT_XSD = _reference_files("**/*.xsd")


def declared_ids(root: etree._Element) -> list[str]:
    """The ids a function XML declares, read plainly: <id>, else the v1 <function_id>."""
    return [(f.findtext("id") or f.findtext("function_id") or "").strip() for f in root.findall("appfunction")]


MANIFEST = """<manifest xmlns:android="{ns}" package="{package}">
  <application>
    <service android:name="{package}.standin.StandInService"
        android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">
      <intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>
      <property android:name="{property}" android:value="{asset}"/>
    </service>
  </application>
</manifest>
"""


@pytest.mark.parametrize("relative", FUNCTION_XML)
def test_every_function_xml_installs_as_an_app_asset(reference_dir, device, tmp_path, relative):
    assert relative != "none-found", f"no function XML under {reference_dir}"
    source = reference_dir / relative
    root = etree.parse(str(source)).getroot()
    ids = declared_ids(root)
    v1 = bool(ids) and all(f.find("id") is None for f in root.findall("appfunction"))
    package = "com.example.reference." + "".join(c if c.isalnum() else "_" for c in Path(relative).stem).lower()
    app = tmp_path / "app"
    (app / "assets").mkdir(parents=True)
    shutil.copyfile(source, app / "assets" / source.name)
    (app / "AndroidManifest.xml").write_text(MANIFEST.format(
        ns=ANDROID_NS, package=package, asset=source.name,
        property="android.app.appfunctions" if v1 else PROPERTY_FUNCTIONS_V2,
    ))
    write_stand_ins(app, {f"{package}.standin.StandInService": frozenset(ids)})
    installed = device.install(app)
    assert [f.id for f in installed.metadata.app_functions] == ids
    listed = device.create_context(package).app_function_manager.search_app_functions(
        AppFunctionSearchSpec(package_names=frozenset({package}))
    )  # the app itself sees every function, whatever its access level
    assert [f.id for f in listed] == ids


@pytest.mark.parametrize("relative", DIALECT_XSD)
def test_dialect_xsd_parses_into_its_document_types(reference_dir, relative):
    assert relative != "none-found", f"no dialect XSD under {reference_dir}"
    path = reference_dir / relative
    declared = {
        element.get("name"): [p.get("name") for p in element.iterchildren(f"{{{XS_NS}}}element")]
        for element in etree.parse(str(path)).getroot().iterchildren(f"{{{XS_NS}}}documentType")
    }
    types = parse_dialect_xsd(path)
    assert list(types) == list(declared)
    for name, properties in declared.items():
        assert [p.name for p in types[name].properties] == properties
