"""More androidx compiler goldens from the shared reference folder, ported as in
test_golden_ports.py: each port's XML must be structurally equal to the golden.

Goldens the compiler cannot write are covered elsewhere: the v1 files
(``*_app_function.xml`` with snake_case tags, ``*_legacy.xml``) and the app-level
``AppFunctionSignature`` files are read by the device in tests/unit/xml, since
droidsim's compiler writes the v2 format of service entry points only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Generic, TypeVar

import pytest
from lxml import etree

from droid.appfunctions import (
    AppFunctionServiceEntryPoint,
    Float32,
    Int32,
    app_function,
    app_function_schema_definition,
    app_function_serializable,
)
from droid.appfunctions.compiler import render_entry_points
from droid.net import Uri

from .test_golden_ports import DerivedSerializable
from .xmltree import first_difference

T = TypeVar("T")


@pytest.fixture(scope="module")
def golden(reference_dir):
    root = reference_dir / "androidx-compiler-output" / "xml"
    if not root.is_dir():
        pytest.skip(f"no androidx-compiler-output under {reference_dir}")
    return lambda name: (root / name).read_bytes()


def assert_port(entry_points, golden_bytes: bytes, component_id: str | None = "unused") -> None:
    """Aggregate files name their component document "unused"; an entry point's file
    (``component_id=None``) names it after the service."""
    actual = render_entry_points(entry_points, component_id=component_id)
    difference = first_difference(actual, golden_bytes)
    assert difference is None, f"{difference}\n{actual.decode()}"


# --------------------------------------------------------------------------- schema implementations
def _schema_impl(function: str, returns: object) -> type:
    """``<Function>Impl``: one entry point implementing the schema ``function`` (version 1,
    fake_schema_category), as the androidx test inputs declare each."""

    def method(self):
        raise NotImplementedError

    method.__name__ = method.__qualname__ = function
    method.__annotations__ = {"return": returns}
    schema = app_function_schema_definition(name=function, version=1, category="fake_schema_category")(
        type(f"Fake{function[:1].upper()}{function[1:]}", (), {function: method})
    )
    name = f"{function[:1].upper()}{function[1:]}Impl"
    return type(
        name,
        (AppFunctionServiceEntryPoint, schema),
        {"service_name": f"com.testdata.{name}", "xml_file_name": "functions", function: app_function(method)},
    )


RETURNS = {
    "booleanArrayReturn": list[bool], "booleanReturn": bool, "byteArrayReturn": bytes,
    "doubleArrayReturn": list[float], "doubleReturn": float, "floatArrayReturn": list[Float32],
    "floatReturn": Float32, "intArrayReturn": list[Int32], "intReturn": Int32, "longArrayReturn": list[int],
    "longReturn": int, "nullableBooleanArrayReturn": list[bool] | None, "nullableBooleanReturn": bool | None,
    "nullableByteArrayReturn": bytes | None, "nullableDoubleArrayReturn": list[float] | None,
    "nullableDoubleReturn": float | None, "nullableFloatArrayReturn": list[Float32] | None,
    "nullableFloatReturn": Float32 | None, "nullableIntArrayReturn": list[Int32] | None,
    "nullableIntReturn": Int32 | None, "nullableLongArrayReturn": list[int] | None,
    "nullableLongReturn": int | None, "nullableStringItemListReturn": list[str | None],
    "nullableStringListReturn": list[str] | None, "nullableStringReturn": str | None,
    "stringListReturn": list[str], "stringReturn": str, "unitReturn": None,
}


def test_fake_all_primitive_returns(golden):
    ports = [_schema_impl(name, returns) for name, returns in RETURNS.items()]
    assert_port(ports, golden("fakeAllPrimitiveReturns_app_function_dynamic_schema.xml"))


@pytest.mark.parametrize(
    ("name", "service"),
    [
        ("fakeNoArgImpl_app_function_dynamic_schema.xml", "FakeNoArgImpl"),
        ("fakeNoArgImpl_isEnabled_true_app_function_dynamic_schema.xml", "FakeNoArgImpl_IsEnabled_True"),
    ],
)
def test_fake_no_arg_impl(golden, name, service):
    port = _schema_impl("noArg", None)
    port.service_name = f"com.testdata.{service}"
    assert_port([port], golden(name))


class FakeNoArg(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FakeNoArg"
    xml_file_name = "no_arg"

    @app_function(described_by_docstring=True)
    def noArg(self) -> None:
        """A free-form AppFunction without parameters."""


def test_fake_no_arg_free_form_function(golden):
    assert_port([FakeNoArg], golden("fakeNoArg_freeForm_function_app_function_dynamic_schema.xml"))


def test_empty_xml(golden):
    assert_port([], golden("emptyXml_app_function.xml"))


@app_function_serializable(described_by_docstring=True)
@dataclass
class MultiModuleLibrarySerializable:
    """Serializable defined in a separate library module.

    Attributes:
        library_property: Library property fallback.
    """

    library_property: str


class MultiModuleAppService(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.MultiModuleAppService"
    xml_file_name = "multi_module_app"

    @app_function
    def useLibrarySerializable(self, serializable: MultiModuleLibrarySerializable) -> None: ...


def test_multi_module_app(golden):
    assert_port([MultiModuleAppService], golden("multi_module_app.xml"), component_id=None)


# --------------------------------------------------------------------------- inheritance
class DerivedSerializableOutputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.DerivedSerializableOutputFunctions"
    xml_file_name = "derived_output"

    @app_function
    def simpleFunction(self) -> DerivedSerializable: ...

    @app_function
    def simpleFunctionNullableSerializable(self) -> DerivedSerializable | None: ...

    @app_function
    def simpleFunctionNullableSerializableList(self) -> list[DerivedSerializable] | None: ...

    @app_function
    def simpleFunctionSerializableList(self) -> list[DerivedSerializable]: ...


def test_derived_serializable_output_functions(golden):
    assert_port([DerivedSerializableOutputFunctions], golden("derivedSerializableOutputFunctions_app_function_dynamic_schema.xml"))


@app_function_serializable
@dataclass
class NestedBaseSerializable:
    string_base_name: str
    nested_base: NestedBaseSerializable | None


@app_function_serializable
@dataclass
class NonNestedChildSerializable(NestedBaseSerializable):
    long_base_value: int
    nested_derived: NestedDerivedSerializable | None


@app_function_serializable
@dataclass
class NestedDerivedSerializable(NonNestedChildSerializable):
    pass


class NestedDerivedSerializableInputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.NestedDerivedSerializableInputFunctions"
    xml_file_name = "nested_input"

    @app_function
    def functionWithDerivedSerializable(self, serializable: NestedDerivedSerializable) -> None: ...

    @app_function
    def functionWithDerivedSerializableList(self, serializable: list[NestedDerivedSerializable]) -> None: ...


class NestedDerivedSerializableOutputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.NestedDerivedSerializableOutputFunctions"
    xml_file_name = "nested_output"

    @app_function
    def simpleFunction(self) -> NestedDerivedSerializable: ...

    @app_function
    def simpleFunctionSerializableList(self) -> list[NestedDerivedSerializable]: ...


@pytest.mark.parametrize(
    ("name", "port"),
    [
        ("nestedDerivedSerializableInputFunctions_app_function_dynamic_schema.xml", NestedDerivedSerializableInputFunctions),
        ("nestedDerivedSerializableOutputFunctions_app_function_dynamic_schema.xml", NestedDerivedSerializableOutputFunctions),
    ],
)
def test_nested_derived_serializables(golden, name, port):
    assert_port([port], golden(name))


# --------------------------------------------------------------------------- proxies and packages
@app_function_serializable
@dataclass
class SerializableWithProxyType:
    local_date_time: datetime
    local_date_time_list: list[datetime]
    local_date_time_nullable: datetime | None
    android_uri: Uri
    android_uri_list: list[Uri]
    android_uri_nullable: Uri | None
    android_uri_list_nullable: list[Uri] | None
    local_date: date
    local_date_list: list[date]
    local_date_nullable: date | None
    local_time: time
    local_time_list: list[time]
    local_time_nullable: time | None


class FunctionWithSerializableProxyInput(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FunctionWithSerializableProxyInput"
    xml_file_name = "proxies"

    @app_function
    def simpleFunctionWithLocalDateTime(self, local_date_time: datetime) -> None: ...

    @app_function
    def simpleFunctionWithSerializableWithProxy(self, serializable_with_proxy_type: SerializableWithProxyType) -> None: ...


def as_newest_uri(golden_bytes: bytes) -> bytes:
    """The golden with each inline ``android.net.Uri`` object ({uri: STRING of format
    uri}, the form of that golden's commit ad855b05) written as the newest androidx
    writes a Uri: the STRING of format uri itself (valid_uri_service.xml at d15fa46;
    docs/differences.md)."""
    root = etree.fromstring(golden_bytes, etree.XMLParser(remove_blank_text=True))
    for element in root.xpath("//*[objectQualifiedName='android.net.Uri' and type='3']"):
        nullable = element.findtext("isNullable")
        for child in list(element):
            element.remove(child)
        for tag, text in (("id", "unused"), ("isNullable", nullable), ("format", "uri"), ("type", "8")):
            etree.SubElement(element, tag).text = text
    return etree.tostring(root)


def test_function_with_serializable_proxy_input(golden):
    raw = golden("functionWithSerializableProxyInput_app_function_dynamic_schema.xml")
    assert b"<objectQualifiedName>android.net.Uri</objectQualifiedName>" in raw  # what as_newest_uri rewrites
    assert_port([FunctionWithSerializableProxyInput], as_newest_uri(raw))


@app_function_serializable(qualified_name="com.testdata.differentPackage.DiffPackageSerializable")
@dataclass
class DiffPackageSerializable:
    long_param: int


@app_function_serializable(qualified_name="com.testdata.anotherDifferentPackage.AnotherDiffPackageSerializable")
@dataclass
class AnotherDiffPackageSerializable:
    string_param: str


@app_function_schema_definition(name="diffPackageInputSchemas", version=1, category="diff_package_schemas_category")
class DiffPackageSchemas:
    def functionWithDiffPackageInput(self, *args, **kwargs) -> None: ...


class AppFunctionWithInputFromDifferentPackage(AppFunctionServiceEntryPoint, DiffPackageSchemas):
    service_name = "com.testdata.AppFunctionWithInputFromDifferentPackage"
    xml_file_name = "diff_package"

    @app_function
    def functionWithDiffPackageInput(
        self, input: DiffPackageSerializable, input_list: list[AnotherDiffPackageSerializable]
    ) -> None: ...


def test_app_function_with_input_from_different_package(golden):
    assert_port(
        [AppFunctionWithInputFromDifferentPackage],
        golden("appFunctionWithInputFromDifferentPackage_app_function_dynamic_schema.xml"),
    )


# --------------------------------------------------------------------------- descriptions
@app_function_serializable
@dataclass
class NotDescribedByKdoc:
    """A class whose docstring is not its description."""

    param: Int32


@app_function_serializable(described_by_docstring=True)
@dataclass
class InputToFakeFreeFormFunction:
    """A test input class to the free-form function.

    Attributes:
        data: A string param.
    """

    data: str


@app_function_serializable(described_by_docstring=True)
@dataclass
class DerivedInputToFakeFreeFormFunction(InputToFakeFreeFormFunction):
    """A child class of [InputToFakeFreeFormFunction].

    Attributes:
        another_data: An int param.
    """

    another_data: Int32


@app_function_serializable(described_by_docstring=True)
@dataclass
class Optional(Generic[T]):
    """A generic serializable class.

    Attributes:
        value: The value.
    """

    value: T


@app_function_serializable(described_by_docstring=True)
@dataclass
class InputWithParametrizedTypes:
    """An input class with parametrized types

    Attributes:
        parametrized_int: Parametrized primitive param.
        parametrized_nullable_int: Parametrized nullable primitive param.
        parametrized_serializable: Parametrized entity param.
        parametrized_nullable_serializable: Parametrized nullable entity param.
    """

    parametrized_int: Optional[Int32]
    parametrized_nullable_int: Optional[Int32 | None]
    parametrized_serializable: Optional[InputToFakeFreeFormFunction]
    parametrized_nullable_serializable: Optional[InputToFakeFreeFormFunction | None]


@app_function_serializable(described_by_docstring=True)
@dataclass
class InputWithRepeatedTypes:
    """An input class with repeated params.

    Attributes:
        int_array: Primitive array param.
        string_list: String list param.
        serializable_list: Serializable list param.
    """

    int_array: list[Int32]
    string_list: list[str]
    serializable_list: list[InputToFakeFreeFormFunction]


class FakeFreeFormFunctionsWithDetailedKdoc(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FakeFreeFormFunctions"
    xml_file_name = "detailed_kdoc"

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_inputClassDescribedByKdoc_false(self, not_described_by_kdoc: NotDescribedByKdoc) -> None:
        """Tests that the input class description is empty when class's isDescribedByKDoc = false."""

    @app_function
    def fakeFreeFormFunction_isDescribedByKDoc_false(self, input: InputToFakeFreeFormFunction) -> str:
        """A docstring that is not the description."""
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_isDescribedByKDoc_true(self, serializable_param: InputToFakeFreeFormFunction) -> str:
        """A fake free-form AppFunction to test the description element in the function's generated metadata xml.

        This kdoc consists of multiple paragraphs and is used as the function's description to the agent.

        Args:
            serializable_param: an input AppFunctionSerializable.

        Returns:
            The result string.
        """
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_isDescribedByKDoc_withDerivedSerializable_true(
        self, input: DerivedInputToFakeFreeFormFunction
    ) -> str:
        """A fake free-form AppFunction to test the description elements in the function generated metadata xml. This version uses a derived serializable class.

        This kdoc consists of multiple paragraphs and is used as the function's description to the agent.

        Args:
            input: an input AppFunctionSerializable.

        Returns:
            The result string.
        """
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_withParametrizedTypes(self, parametrized_types_input: InputWithParametrizedTypes) -> None:
        """Tests the description elements for serializable's parametrized properties."""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_withRepeatedTypes(self, parametrized_types_input: InputWithRepeatedTypes) -> None:
        """Tests the description elements for serializable's repeated properties."""


class FakeFreeFormFunctionsWithParamKdocs(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FakeFreeFormFunctions"
    xml_file_name = "param_kdocs"

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_emptyDescription_ignored(self, param_with_empty_description: Int32) -> str:
        """A fake free-form AppFunction to test descriptions in parameter metadata.

        Args:
            param_with_empty_description:

        Returns:
            a string.
        """
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_invalidParam_ignored(self, int_param: Int32) -> str:
        """A fake free-form AppFunction to test descriptions in parameter metadata.

        Args:
            no_such_param: a parameter the function does not have.

        Returns:
            a string.
        """
        return ""

    @app_function
    def fakeFreeFormFunction_isDescribedByKDoc_false(self, int_param: Int32) -> str:
        """A fake free-form AppFunction to test descriptions in parameter metadata."""
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_isDescribedByKDoc_true(self, int_param: Int32, string_list_param: list[str]) -> str:
        """A fake free-form AppFunction to test descriptions in parameter metadata.

        Args:
            int_param: an input integer. Adding more text here to test multi-line description:
                Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor
                incididunt ut labore et dolore magna aliqua.
            string_list_param: an input String list.

        Returns:
            a string.
        """
        return ""

    @app_function(described_by_docstring=True)
    def fakeFreeFormFunction_onlyKnownTagsSkipped(self, int_param: Int32) -> str:
        """A fake free-form AppFunction to test descriptions in parameter metadata.

        @fakeCustomTag Custom tag's content.

        Args:
            int_param: an input integer.

        Returns:
            a string.
        """
        return ""


@pytest.mark.parametrize(
    ("name", "port"),
    [
        ("fake_freeForm_with_detailed_kdoc_app_function_dynamic_schema.xml", FakeFreeFormFunctionsWithDetailedKdoc),
        ("fake_freeForm_with_param_kdocs_app_function_dynamic_schema.xml", FakeFreeFormFunctionsWithParamKdocs),
    ],
)
def test_free_form_descriptions(golden, name, port):
    assert_port([port], golden(name))
