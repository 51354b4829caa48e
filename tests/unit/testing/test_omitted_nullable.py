"""An omitted nullable parameter without a default is passed as None, by the shell's and the
agent's JSON path (parameters_from_json) exactly as by the app's own codec: the platform rule
is that only a missing required non-null value is an error (AppFunctionDataParameterExtractor)."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionInvalidArgumentException, ExecuteAppFunctionRequest
from droid.appfunctions.compiler import generate
from droid.appfunctions.json_codec import parameters_from_json

MANIFEST = """<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.greet">
  <application>
    <service android:name="com.example.greet.GreetService"
        android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">
      <intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>
      <property android:name="android.app.appfunctions.v2" android:value="greet_functions.xml"/>
    </service>
  </application>
</manifest>
"""
CODE = '''from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class GreetService(AppFunctionServiceEntryPoint):
    service_name = "com.example.greet.GreetService"
    xml_file_name = "greet_functions"

    @app_function
    def greet(self, name: str, title: str | None) -> str:
        return f"Hello, {title + ' ' if title else ''}{name}"
'''


@pytest.fixture
def greet(droid_device, tmp_path):
    app = tmp_path / "greet"
    app.mkdir()
    (app / "AndroidManifest.xml").write_text(MANIFEST)
    (app / "__init__.py").touch()
    (app / "greet.py").write_text(CODE)
    generate(app)
    droid_device.install(app)
    return droid_device.function("greet")


def test_the_xml_says_required_and_nullable(greet) -> None:
    title = next(p for p in greet.metadata.parameters if p.name == "title")
    assert title.is_required and title.data_type.is_nullable


def test_omitted_it_reaches_the_app_as_none_from_json_and_from_python(droid_device, greet) -> None:
    document = parameters_from_json(greet.metadata, {"name": "Ada"}, greet.components)
    response = droid_device.shell.manager.execute_app_function(
        ExecuteAppFunctionRequest("com.example.greet", greet.function_id, document))
    assert response.return_value == "Hello, Ada"
    assert droid_device.call("greet", name="Ada") == "Hello, Ada"


def test_a_missing_non_null_value_is_still_an_error(greet) -> None:
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter name is required"):
        parameters_from_json(greet.metadata, {"title": "Dr"}, greet.components)
