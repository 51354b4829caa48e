"""parse_manifest: the reference manifests read correctly; broken manifests are refused."""

from __future__ import annotations

import pytest

from sim.pm.manifest import (
    PROPERTY_APP_METADATA,
    PermissionDeclaration,
    PropertyEntry,
    parse_manifest,
    resolution_order,
)
from sim.xmlsafe import XmlError

FALLBACK = "com.example.fallback"


def write_manifest(tmp_path, application: str = "", extra: str = "", package: str = 'package="com.example.app"'):
    path = tmp_path / "AndroidManifest.xml"
    path.write_text(
        f'<manifest xmlns:android="http://schemas.android.com/apk/res/android"\n'
        f'    xmlns:tools="http://schemas.android.com/tools" {package}>\n'
        f"{extra}\n<application>\n{application}\n</application>\n</manifest>\n"
    )
    return path


FUNCTION_SERVICE = """<service android:name="{name}" android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"
    android:exported="true">
  <intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>
  {properties}
</service>"""


def prop(name: str, value: str) -> str:
    return f'<property android:name="{name}" android:value="{value}"/>'


def test_every_reference_manifest_parses(manifest_file):
    manifest = parse_manifest(manifest_file, package=FALLBACK)
    assert manifest.file == str(manifest_file)
    assert manifest.package
    assert all(name and "." in name for name in manifest.uses_permissions)
    for service in manifest.services:
        assert "." in service.name and not service.name.startswith(".")
    for service in [s for s in manifest.services if s.is_app_function_service]:
        assert service.permission == "android.permission.BIND_APP_FUNCTION_SERVICE"


def test_cts_manifest(reference_dir):
    manifest = parse_manifest(reference_dir / "aosp-cts/AndroidManifest.xml")
    assert manifest.package == "android.app.appfunctions.cts"
    assert manifest.uses_permissions == (
        "android.permission.EXECUTE_APP_FUNCTIONS_TRUSTED",
        "android.permission.EXECUTE_APP_FUNCTIONS",
        "android.permission.INTERACT_ACROSS_USERS",
        "android.permission.INTERACT_ACROSS_USERS_FULL",
    )
    (service,) = manifest.services
    assert service.name == "android.app.appfunctions.testutils.TestAppFunctionService"
    assert (service.exported, service.process, service.is_app_function_service) == (True, ":appfunctions", True)
    assert dict(service.properties) == {"android.app.appfunctions": PropertyEntry("appfunctions.xml", None)}


def test_sample_manifest_takes_the_gradle_namespace(reference_dir):
    path = reference_dir / "android-appfunctions-samples/ChatApp/app/src/main/AndroidManifest.xml"
    with pytest.raises(XmlError, match="no package attribute"):
        parse_manifest(path)
    manifest = parse_manifest(path, package="com.example.chatapp")
    assert manifest.package == "com.example.chatapp"
    assert manifest.application_properties[PROPERTY_APP_METADATA] == PropertyEntry(None, "@xml/app_metadata")
    (service,) = manifest.services
    assert set(service.properties) == {"android.app.appfunctions.schema", "android.app.appfunctions.v2"}


def test_merger_removed_permission_is_not_requested(reference_dir):
    manifest = parse_manifest(reference_dir / "aosp-cts/no-query-all-packages-cts/AndroidManifest.xml")
    assert manifest.uses_permissions == ("android.permission.EXECUTE_APP_FUNCTIONS",)


def test_exported_defaults_to_having_intent_filters_below_target_sdk_31(tmp_path):
    services = (
        '<service android:name=".A"/>'
        '<service android:name=".B"><intent-filter><action android:name="x.Y"/></intent-filter></service>'
        '<service android:name=".C" android:exported="false"><intent-filter><action android:name="x.Y"/></intent-filter></service>'
    )
    manifest = parse_manifest(write_manifest(tmp_path, services, extra='<uses-sdk android:targetSdkVersion="30"/>'))
    assert [(s.exported, s.actions) for s in manifest.services] == [(False, ()), (True, ("x.Y",)), (False, ("x.Y",))]


@pytest.mark.parametrize("target", ['<uses-sdk android:targetSdkVersion="31"/>', '<uses-sdk android:minSdkVersion="34"/>',
                                    '<uses-sdk android:targetSdkVersion="Baklava"/>', ""])
@pytest.mark.parametrize("component", ["service", "activity", "receiver"])
def test_from_target_sdk_31_a_component_with_intent_filters_must_say_exported(tmp_path, target, component):
    """ParsedServiceUtils / ParsedActivityUtils (frameworks/base): MISSING_EXPORTED_FLAG is enabled after R;
    an app without a target SDK is taken to target a current one."""
    element = f'<{component} android:name=".S"><intent-filter><action android:name="x.Y"/></intent-filter></{component}>'
    path = write_manifest(tmp_path, element, extra=target)
    with pytest.raises(XmlError) as caught:
        parse_manifest(path)
    assert caught.value.reason == ("com.example.app.S: Targeting S+ (version 31 and above) requires that an explicit "
                                   "value for android:exported be defined when intent filters are present")
    assert caught.value.line == 5
    without_filter = write_manifest(tmp_path, f'<{component} android:name=".S"/>', extra=target)
    assert parse_manifest(without_filter).package == "com.example.app"


def test_a_service_without_a_permission_takes_the_applications(tmp_path):
    """ParsedServiceUtils: setPermission(permission != null ? permission : pkg.getPermission())."""
    path = tmp_path / "AndroidManifest.xml"
    path.write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">\n'
        '<application android:permission="android.permission.BIND_APP_FUNCTION_SERVICE">\n'
        '<service android:name=".Inherits" android:exported="true"/>\n'
        '<service android:name=".Own" android:permission="com.example.OWN" android:exported="true"/>\n'
        '</application></manifest>\n')
    assert [s.permission for s in parse_manifest(path).services] == ["android.permission.BIND_APP_FUNCTION_SERVICE",
                                                                      "com.example.OWN"]


def test_android_resource_wins_over_android_value(tmp_path):
    """ParsingPackageUtils.parseMetaData reads android:resource first; android:value is then ignored."""
    both = '<property android:name="p" android:value="v.xml" android:resource="@xml/x"/>'
    manifest = parse_manifest(write_manifest(tmp_path, both))
    assert manifest.application_properties["p"] == PropertyEntry(None, "@xml/x")


def test_services_resolve_by_intent_filter_priority_then_manifest_order(tmp_path):
    """IntentResolver.sortResults: higher android:priority first, a stable sort otherwise."""
    def service(name: str, priority: str = "") -> str:
        return FUNCTION_SERVICE.format(name=name, properties="").replace("<intent-filter>", f"<intent-filter{priority}>")

    services = service(".A") + service(".B", ' android:priority="5"') + service(".C") + service(".D", ' android:priority="-1"')
    manifest = parse_manifest(write_manifest(tmp_path, services))
    assert [s.name.rsplit(".", 1)[1] for s in resolution_order(manifest.services)] == ["B", "A", "C", "D"]


def test_permissions_declared_and_requested(tmp_path):
    extra = (
        '<permission android:name="com.example.app.READ" android:protectionLevel="signature|privileged"/>\n'
        '<permission android:name="com.example.app.PLAIN"/>\n'
        '<uses-permission android:name="android.permission.EXECUTE_APP_FUNCTIONS"/>\n'
        '<uses-permission-sdk-23 android:name="android.permission.CAMERA"/>'
    )
    manifest = parse_manifest(write_manifest(tmp_path, extra=extra))
    assert manifest.permissions == (
        PermissionDeclaration("com.example.app.READ", "signature|privileged"),
        PermissionDeclaration("com.example.app.PLAIN", "normal"),
    )
    assert manifest.uses_permissions == ("android.permission.EXECUTE_APP_FUNCTIONS", "android.permission.CAMERA")


BROKEN = {
    "wrong root": ('<application xmlns:android="http://schemas.android.com/apk/res/android"/>', 1, "expected <manifest>"),
    "service without name": (None, '<service android:exported="true"/>', "android:name' is required"),
    "action without name": (None, '<service android:name=".S"><intent-filter><action/></intent-filter></service>', "android:name' is required"),
    "exported not boolean": (None, '<service android:name=".S" android:exported="sometimes"/>', "'sometimes'"),
    "property with neither value nor resource": (None, '<property android:name="p"/>',
                                                  "<property> p requires an android:value or android:resource attribute"),
    "property declared twice": (None, prop("p", "a") + "\n" + prop("p", "b"), "declared twice"),
    "malformed resource reference": (None, '<property android:name="p" android:resource="xml/x"/>', "xml/x"),
}


@pytest.mark.parametrize("name", BROKEN)
def test_broken_manifest_is_refused_with_file_line_and_reason(tmp_path, name):
    whole, application, words = BROKEN[name]
    if whole is not None:
        path = tmp_path / "AndroidManifest.xml"
        path.write_text(whole)
        line = application
    else:
        path = write_manifest(tmp_path, application)
        line = 5 + application.count("\n")
    with pytest.raises(XmlError) as caught:
        parse_manifest(path)
    assert (caught.value.file, caught.value.line) == (str(path), line), str(caught.value)
    assert words in caught.value.reason, str(caught.value)


def test_invalid_package_name_is_refused(tmp_path):
    with pytest.raises(XmlError, match="'nodots'"):
        parse_manifest(write_manifest(tmp_path, package='package="nodots"'))


def test_two_applications_are_refused(tmp_path):
    with pytest.raises(XmlError, match="more than one <application>"):
        parse_manifest(write_manifest(tmp_path, extra="<application/>"))
