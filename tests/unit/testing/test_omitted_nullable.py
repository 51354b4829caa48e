"""An omitted nullable parameter without a default is passed as None, by the shell's and the
agent's JSON path (parameters_from_json) exactly as by the app's own codec: the platform rule
is that only a missing required non-null value is an error (AppFunctionDataParameterExtractor)."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionInvalidArgumentException, ExecuteAppFunctionRequest
from droid.appfunctions.json_codec import parameters_from_json
from tests.helpers import write_generated_app

GREET = """
class FunctionService(AppFunctionServiceEntryPoint):
    service_name = SERVICE
    xml_file_name = "functions"

    @app_function
    def greet(self, name: str, title: str | None) -> str:
        return f"Hello, {title + ' ' if title else ''}{name}"
"""


@pytest.fixture
def greet(droid_device, tmp_path):
    droid_device.install(write_generated_app(tmp_path, "greet", GREET, description="Greets people by name.",
                                             package_prefix="com.example"))
    return droid_device.function("greet")


def test_the_xml_says_required_and_nullable(greet) -> None:
    title = next(p for p in greet.metadata.parameters if p.name == "title")
    assert title.is_required and title.data_type.is_nullable


def test_omitted_it_reaches_the_app_as_none_from_json_and_from_python(droid_device, greet) -> None:
    document = parameters_from_json(greet.metadata, {"name": "Ada"}, greet.components)
    response = droid_device.shell.manager.execute_app_function(
        ExecuteAppFunctionRequest(greet.package_name, greet.function_id, document))
    assert response.return_value == "Hello, Ada"
    assert droid_device.call("greet", name="Ada") == "Hello, Ada"


def test_a_missing_non_null_value_is_still_an_error(greet) -> None:
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter name is required"):
        parameters_from_json(greet.metadata, {"title": "Dr"}, greet.components)
