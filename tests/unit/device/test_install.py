"""Install is atomic and refuses bad apps with an error that names the problem."""

from __future__ import annotations

import pytest

from droid.os import IllegalArgumentException
from tests.helpers import HELPER_APP, HELPER_PACKAGE, copy_app


@pytest.fixture
def app(tmp_path):
    return copy_app(HELPER_APP, tmp_path / "src")


def installed_dirs(device):
    root = device.data_dir / "app"
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def refused(device, app, match):
    before = installed_dirs(device)
    packages = [p.package_name for p in device.registry.all()]
    with pytest.raises(IllegalArgumentException, match=match):
        device.install(app)
    assert installed_dirs(device) == before
    assert [p.package_name for p in device.registry.all()] == packages


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_missing_function_xml_is_refused(device, app):
    (app / "assets" / "app_functions_v2.xml").unlink()
    edit(app / "AndroidManifest.xml", HELPER_PACKAGE, "com.example.noxml")
    refused(device, app, r"assets/app_functions_v2.xml, which does not exist")


def test_schema_invalid_function_xml_names_file_and_line(device, app):
    edit(app / "assets" / "app_functions_v2.xml", "<type>6</type>", "<type>six</type>")
    edit(app / "AndroidManifest.xml", HELPER_PACKAGE, "com.example.badxml")
    refused(device, app, r"INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: .*app_functions_v2.xml:\d+")


def test_xml_function_the_code_lacks_is_refused(device, app):
    edit(app / "testutils.py", '"throwException", "kill",', '"kill",')
    edit(app / "AndroidManifest.xml", HELPER_PACKAGE, "com.example.lacks")
    refused(device, app, r"declares throwException, which .*TestAppFunctionService does not implement")


def test_code_function_missing_from_xml_is_refused(device, app):
    edit(app / "testutils.py", '"uncaughtClientException",', '"uncaughtClientException", "extra",')
    edit(app / "AndroidManifest.xml", HELPER_PACKAGE, "com.example.extra")
    refused(device, app, r"implements extra, which .* does not declare")


def test_code_that_kills_its_loader_is_refused_and_the_device_lives_on(device, app):
    (app / "testutils.py").write_text("import os\nos._exit(3)\n")
    edit(app / "AndroidManifest.xml", HELPER_PACKAGE, "com.example.suicide")
    refused(device, app, r"INSTALL_FAILED_BAD_CODE")
    assert device.registry.get(HELPER_PACKAGE) is not None


def test_reinstall_keeps_uid_and_replaces_the_copy(device):
    first = device.registry.get(HELPER_PACKAGE)
    again = device.install(HELPER_APP)
    assert again.uid == first.uid
    assert again.app_dir != first.app_dir and not first.app_dir.exists()
    assert len(installed_dirs(device)) == 1


def test_not_a_folder_is_refused(device, tmp_path):
    with pytest.raises(IllegalArgumentException, match="is not a folder|does not exist"):
        device.install(tmp_path / "missing")


def write_numbered_app(target, package, count):
    """An app whose one service declares (v1) and implements functions f0 … f<count-1>."""
    target.mkdir()
    (target / "AndroidManifest.xml").write_text(f'''<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">
  <application>
    <service android:name="{package}.numbered.Numbered" android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">
      <property android:name="android.app.appfunctions" android:value="functions.xml"/>
      <intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>
    </service>
  </application>
</manifest>''')
    (target / "assets").mkdir()
    (target / "assets" / "functions.xml").write_text("<appfunctions>\n" + "".join(
        f"<appfunction><function_id>f{i}</function_id></appfunction>\n" for i in range(count)) + "</appfunctions>")
    (target / "numbered.py").write_text(f'''from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse


class Numbered(AppFunctionService):
    @classmethod
    def implemented_function_ids(cls):
        return frozenset(f"f{{i}}" for i in range({count}))

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        callback.on_result(ExecuteAppFunctionResponse.of(request.function_identifier))
''')
    return target


def test_only_the_first_250_functions_of_a_file_are_indexed(device, tmp_path):
    """As AppSearch's indexer (DEFAULT_MAX_APP_FUNCTIONS_PER_PACKAGE, 250 per file): the app
    installs, its code may implement the rest, and calling one of them is not found."""
    from droid.appfunctions import AppFunctionFunctionNotFoundException, ExecuteAppFunctionRequest

    package = device.install(write_numbered_app(tmp_path / "numbered", "com.example.numbered", 260))
    assert [f.id for f in package.metadata.app_functions] == [f"f{i}" for i in range(250)]
    manager = device.create_context("com.example.numbered").app_function_manager
    assert manager.execute_app_function(ExecuteAppFunctionRequest("com.example.numbered", "f249")).return_value == "f249"
    with pytest.raises(AppFunctionFunctionNotFoundException):
        manager.execute_app_function(ExecuteAppFunctionRequest("com.example.numbered", "f250"))


@pytest.mark.parametrize("element", ["<service ", "<application"])
def test_a_disabled_service_is_neither_indexed_nor_a_target(device, tmp_path, element):
    """android:enabled="false" on the service (or its application): queryIntentServices leaves
    a disabled component out, so the indexer indexes none of its functions and the package is
    no valid target for agent access."""
    from droid.appfunctions import AppFunctionSearchSpec

    app = write_numbered_app(tmp_path / "disabled", "com.example.disabled", 2)
    edit(app / "AndroidManifest.xml", element, f'{element} android:enabled="false" '.replace("  ", " "))
    package = device.install(app)
    assert list(package.metadata.app_functions) == []
    assert not [s for s in package.manifest.services if s.name.endswith("Numbered")]
    manager = device.shell_context().app_function_manager
    assert manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({"com.example.disabled"}))) == []


def test_an_enabled_attribute_must_be_a_literal_boolean(device, tmp_path):
    """In an app folder android:enabled is written as aapt compiles it; a @bool/ reference is
    resolved only in an APK, by its decoder."""
    app = write_numbered_app(tmp_path / "bool-ref", "com.example.boolref", 1)
    edit(app / "AndroidManifest.xml", "<service ", '<service android:enabled="@bool/on" ')
    refused(device, app, r"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: .*enabled.*'@bool/on'")
