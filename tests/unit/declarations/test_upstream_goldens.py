"""androidx compiler goldens that the shared reference folder does not hold, ported.

Each test names the golden's path in androidx/androidx and the commit it was read
at; its structure is restated in ``expected`` form (no fetched file is committed)
and the port's XML must equal it, whitespace aside. Kotlin ``Int`` is ``Int32``;
ports declare their functions in id order, the order the goldens list them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from droid.appfunctions import (
    AppFunctionServiceEntryPoint,
    Int32,
    StringValueConstraint,
    UriValueConstraint,
    app_function,
    app_function_schema_capability,
    app_function_schema_definition,
    app_function_serializable,
)
from droid.appfunctions.compiler import render_entry_points
from droid.appfunctions.metadata import DataType
from droid.net import Uri

from . import expected as x
from .test_more_golden_ports import AnotherDiffPackageSerializable, DiffPackageSerializable
from .xmltree import first_difference

OUTPUT = "appfunctions/appfunctions-compiler/src/test/test-data/output/"


def assert_matches(entry_points: list[type], expected: bytes, golden: str, component_id: str | None = "unused") -> None:
    """The ports' XML equals the restated golden (aggregate files name their component
    document "unused"; an entry-point file names it after the service)."""
    actual = render_entry_points(entry_points, component_id=component_id)
    difference = first_difference(actual, expected)
    assert difference is None, f"differs from androidx {golden}: {difference}\n{actual.decode()}"


# --------------------------------------------------------------------------- Uri (row 5)
# androidx/androidx OUTPUT + entrypoints/valid_uri_service.xml at d15fa46bf30f53426db3d95d575ff6cd79113269
# (newer than the reference folder's 4b1020c5, where a Uri was a reference to an
# android.net.Uri object): a Uri is a STRING of format "uri", and allowed schemes
# become a Java-quoted pattern, as AppFunctionUriValueConstraint.kt documents.
@app_function_serializable
@dataclass
class SerializableWithValueConstraints:
    content_uri: Annotated[Uri, UriValueConstraint(["content"])]
    numeric_string: Annotated[str, StringValueConstraint(pattern="^[0-9]+$", format="numeric")]


class ValidUriConstraintService(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.ValidUriConstraintService"
    xml_file_name = "valid_uri_service"

    @app_function
    def functionWithContentUri(self, file_uri: Annotated[Uri, UriValueConstraint(["content"])]) -> None: ...

    @app_function
    def functionWithMultiSchemeUri(
        self, multi_uri: Annotated[Uri, UriValueConstraint(["content", "file"])]
    ) -> None: ...

    @app_function
    def functionWithUnconstrainedUri(self, plain_uri: Uri) -> None: ...

    @app_function
    def functionWithStringConstraintNoEnumValues(
        self, string_param: Annotated[str, StringValueConstraint(pattern="^[a-z]+$", format="custom")]
    ) -> None: ...

    @app_function
    def functionWithSerializableValueConstraints(self, param: SerializableWithValueConstraints) -> None: ...

    @app_function
    def functionWithUriReturn(self) -> Annotated[Uri, UriValueConstraint(["content"])]:
        return Uri.parse("content://x/y")


def test_valid_uri_service():
    service = "com.testdata.ValidUriConstraintService#"
    content = x.string(pattern=r"^\Qcontent\E:.*", format="uri")
    golden = x.document(
        [
            x.function(service + "functionWithContentUri", [("fileUri", content)]),
            x.function(
                service + "functionWithMultiSchemeUri",
                [("multiUri", x.string(pattern=r"^(\Qcontent\E|\Qfile\E):.*", format="uri"))],
            ),
            x.function(service + "functionWithUnconstrainedUri", [("plainUri", x.string(format="uri"))]),
            x.function(
                service + "functionWithStringConstraintNoEnumValues",
                [("stringParam", x.string(pattern="^[a-z]+$", format="custom"))],
            ),
            x.function(
                service + "functionWithSerializableValueConstraints",
                [("param", x.ref("com.testdata.SerializableWithValueConstraints"))],
            ),
            x.function(service + "functionWithUriReturn", returns=content),
        ],
        {
            "com.testdata.SerializableWithValueConstraints": x.obj(
                "com.testdata.SerializableWithValueConstraints",
                {"contentUri": content, "numericString": x.string(pattern="^[0-9]+$", format="numeric")},
                ["contentUri", "numericString"],
            )
        },
        component_id="com.testdata.ValidUriConstraintService",
    )
    assert_matches([ValidUriConstraintService], golden, "entrypoints/valid_uri_service.xml", component_id=None)


# --------------------------------------------------------------------------- int enums (row 8)
# androidx/androidx OUTPUT + intEnumValueFunctions_app_functions_v2.xml at a9b06aaf32dbcf83aa12e3f8185a109d14fbe8e9:
# enum values are written on INT (a Kotlin Int); LONG has none.
@app_function_serializable
@dataclass
class IntEnumPropSerializable:
    int_prop: Annotated[Literal[0, 1], Int32]


class IntEnumValueFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.IntEnumValueFunctions"
    xml_file_name = "int_enum"

    @app_function
    def intEnumParamFunction(self, int_param: Annotated[Literal[0, 1], Int32]) -> None: ...

    @app_function
    def intEnumReturnFunction(self) -> Annotated[Literal[0, 1], Int32]:
        return 0

    @app_function
    def intEnumSerializableFunction(self, int_enum_prop_serializable: IntEnumPropSerializable) -> None: ...


def test_int_enum_value_functions():
    service = "com.testdata.IntEnumValueFunctions#"
    golden = x.document(
        [
            x.function(service + "intEnumParamFunction", [("intParam", x.int32(0, 1))]),
            x.function(service + "intEnumReturnFunction", returns=x.int32(0, 1)),
            x.function(
                service + "intEnumSerializableFunction",
                [("intEnumPropSerializable", x.ref("com.testdata.IntEnumPropSerializable"))],
            ),
        ],
        {
            "com.testdata.IntEnumPropSerializable": x.obj(
                "com.testdata.IntEnumPropSerializable", {"intProp": x.int32(0, 1)}, ["intProp"]
            )
        },
        component_id="unused",
    )
    assert_matches([IntEnumValueFunctions], golden, "intEnumValueFunctions_app_functions_v2.xml")


def test_an_expectation_that_differs_is_reported():
    """The comparison can fail: an enum value off by one is caught with its path."""
    golden = x.document(
        [x.function("com.testdata.IntEnumValueFunctions#intEnumReturnFunction", returns=x.int32(0, 2))], {}, "unused"
    )

    class One(AppFunctionServiceEntryPoint):
        service_name = "com.testdata.IntEnumValueFunctions"
        xml_file_name = "one"

        @app_function
        def intEnumReturnFunction(self) -> Annotated[Literal[0, 1], Int32]:
            return 0

    difference = first_difference(render_entry_points([One], component_id="unused"), golden)
    assert difference == "/appfunctions/appfunction[0]/response[2]/valueType[1]/enumValues[3]: text '1' != expected '2'"


# --------------------------------------------------------------------------- sealed types (row 2)
# androidx/androidx OUTPUT + oneofserializable/oneOfFunctions_app_function_dynamic_schema.xml and its
# inputs (test-data/input/oneofserializable/OneOfFunctions.KT, OneOfSealedClass.KT,
# OneOfSealedInterface.KT) at a9b06aaf32dbcf83aa12e3f8185a109d14fbe8e9. A Kotlin sealed class
# or interface is ONE_OF (14) its subclasses; a subclass is described on its own (not as
# ALL_OF its sealed parent), with the parent's abstract properties as its own. That golden,
# at that commit, lists the shared types in discovery order, while every xml/ golden (e.g.
# at ad855b05) sorts them by name, as droidsim does; the expectation lists them sorted.
ONE_OF = "com.testdata.oneofserializable."
TEXT_RESOURCE = "androidx.appfunctions.AppFunctionTextResource"


@app_function_serializable(qualified_name=TEXT_RESOURCE)
@dataclass
class AppFunctionTextResource:
    mime_type: str
    content: str


@app_function_schema_capability(qualified_name="androidx.appfunctions.AppFunctionResourceContainer")
class AppFunctionResourceContainer:
    resources: list[AppFunctionTextResource]


@app_function_serializable(described_by_docstring=True, sealed=True)
class OneOfSealedClass:
    """I am a KDoc for OneOfSealedClass"""

    interface_property: str


@app_function_serializable(described_by_docstring=True, qualified_name=ONE_OF + "OneOfSealedClass$ASubclass")
@dataclass
class SealedClassA(OneOfSealedClass, AppFunctionResourceContainer):
    """I am a KDoc for OneOfSealedClass.ASubclass"""

    interface_property: str
    str_: str
    resources: list[AppFunctionTextResource] = field(default_factory=list)


@app_function_serializable(described_by_docstring=True, qualified_name=ONE_OF + "OneOfSealedClass$BSubclass")
@dataclass
class SealedClassB(OneOfSealedClass):
    """I am a KDoc for OneOfSealedClass.BSubclass"""

    interface_property: str
    integer: Int32


@app_function_serializable(sealed=True)
class OneOfSealedInterface:
    interface_property: str


@app_function_serializable
@dataclass
class ASubclass(OneOfSealedInterface):
    interface_property: str
    str_: str


@app_function_serializable
@dataclass
class BSubclass(OneOfSealedInterface):
    interface_property: str
    integer: Int32


@app_function_serializable
@dataclass
class OneOfSealedNestedSerializable:
    sealed_interface: OneOfSealedInterface


class OneOfFunctions(AppFunctionServiceEntryPoint):
    service_name = ONE_OF + "OneOfFunctions"
    xml_file_name = "one_of"

    @app_function
    def oneOfSealedListReturn(self) -> list[OneOfSealedClass]:
        return []

    @app_function
    def oneOfSealedNestedSerializable(
        self, one_of_sealed_nested_serializable: OneOfSealedNestedSerializable
    ) -> OneOfSealedNestedSerializable:
        return OneOfSealedNestedSerializable(BSubclass("", 0))

    @app_function
    def oneOfSealedParam(
        self, one_of_sealed_interface: OneOfSealedInterface, one_of_sealed_interface_list: list[OneOfSealedInterface]
    ) -> None: ...

    @app_function
    def oneOfSealedReturn(self) -> OneOfSealedClass:
        return SealedClassA("", "")


def test_one_of_functions():
    fn = ONE_OF + "OneOfFunctions#"
    sealed_class, sealed_interface, nested = (ONE_OF + n for n in ("OneOfSealedClass", "OneOfSealedInterface", "OneOfSealedNestedSerializable"))
    a_doc, b_doc = "I am a KDoc for OneOfSealedClass.ASubclass", "I am a KDoc for OneOfSealedClass.BSubclass"
    a_props = {"interfaceProperty": x.string(), "str": x.string()}
    b_props = {"interfaceProperty": x.string(), "integer": x.int32()}
    golden = x.document(
        [
            x.function(fn + "oneOfSealedListReturn", returns=x.array(x.ref(sealed_class))),
            x.function(fn + "oneOfSealedNestedSerializable", [("oneOfSealedNestedSerializable", x.ref(nested))], x.ref(nested)),
            x.function(
                fn + "oneOfSealedParam",
                [("oneOfSealedInterface", x.ref(sealed_interface)), ("oneOfSealedInterfaceList", x.array(x.ref(sealed_interface)))],
            ),
            x.function(fn + "oneOfSealedReturn", returns=x.ref(sealed_class)),
        ],
        {
            TEXT_RESOURCE: x.obj(TEXT_RESOURCE, {"mimeType": x.string(), "content": x.string()}, ["mimeType", "content"]),
            ONE_OF + "ASubclass": x.obj(ONE_OF + "ASubclass", a_props, ["interfaceProperty", "str"]),
            ONE_OF + "BSubclass": x.obj(ONE_OF + "BSubclass", b_props, ["interfaceProperty", "integer"]),
            sealed_class: x.one_of(
                sealed_class, [sealed_class + "$ASubclass", sealed_class + "$BSubclass"], "I am a KDoc for OneOfSealedClass"
            ),
            sealed_class + "$ASubclass": x.all_of(
                sealed_class + "$ASubclass",
                [
                    x.obj("androidx.appfunctions.AppFunctionResourceContainer", {"resources": x.array(x.ref(TEXT_RESOURCE))}, [], a_doc),
                    x.obj(sealed_class + "$ASubclass", a_props, ["interfaceProperty", "str"], a_doc),
                ],
                a_doc,
            ),
            sealed_class + "$BSubclass": x.obj(sealed_class + "$BSubclass", b_props, ["interfaceProperty", "integer"], b_doc),
            sealed_interface: x.one_of(sealed_interface, [ONE_OF + "ASubclass", ONE_OF + "BSubclass"]),
            nested: x.obj(nested, {"sealedInterface": x.ref(sealed_interface)}, ["sealedInterface"]),
        },
        component_id="unused",
    )
    assert_matches([OneOfFunctions], golden, "oneofserializable/oneOfFunctions_app_function_dynamic_schema.xml")


# --------------------------------------------------------------------------- output/ goldens at 31adf48a and a9b06aaf
# androidx/androidx OUTPUT + recursiveSerializableInputFunctions_app_function_dynamic_schema.xml at
# a9b06aaf32dbcf83aa12e3f8185a109d14fbe8e9: a class that holds itself is one shared type.
@app_function_serializable
@dataclass
class RecursiveSerializable:
    nested: RecursiveSerializable | None


class RecursiveSerializableInputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.RecursiveSerializableInputFunctions"
    xml_file_name = "recursive"

    @app_function
    def simpleFunction(self, serializable: RecursiveSerializable) -> None: ...

    @app_function
    def simpleFunctionNullableSerializable(self, serializable: RecursiveSerializable | None) -> None: ...

    @app_function
    def simpleFunctionNullableSerializableList(self, serializable: list[RecursiveSerializable] | None) -> None: ...

    @app_function
    def simpleFunctionSerializableList(self, serializable: list[RecursiveSerializable]) -> None: ...


def test_recursive_serializable_input_functions():
    fn, recursive = "com.testdata.RecursiveSerializableInputFunctions#", "com.testdata.RecursiveSerializable"
    golden = x.document(
        [
            x.function(fn + "simpleFunction", [("serializable", x.ref(recursive))]),
            x.function(fn + "simpleFunctionNullableSerializable", [("serializable", x.ref(recursive, nullable=True))]),
            x.function(fn + "simpleFunctionNullableSerializableList", [("serializable", x.array(x.ref(recursive), nullable=True))]),
            x.function(fn + "simpleFunctionSerializableList", [("serializable", x.array(x.ref(recursive)))]),
        ],
        {recursive: x.obj(recursive, {"nested": x.ref(recursive, nullable=True)}, ["nested"])},
        component_id="unused",
    )
    assert_matches([RecursiveSerializableInputFunctions], golden, "recursiveSerializableInputFunctions_app_function_dynamic_schema.xml")


# androidx/androidx OUTPUT + functionWithEmptySerializable_app_function_dynamic_schema.xml at
# 31adf48a5ba261a6d7abf653f74a38d1623fd319: a serializable without properties.
@app_function_serializable
@dataclass
class Empty:
    pass


class FunctionWithEmptySerializable(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FunctionWithEmptySerializable"
    xml_file_name = "empty"

    @app_function
    def simpleFunctionWithEmptySerializable(self, empty: Empty) -> None: ...


def test_function_with_empty_serializable():
    golden = x.document(
        [
            x.function(
                "com.testdata.FunctionWithEmptySerializable#simpleFunctionWithEmptySerializable",
                [("empty", x.ref("com.testdata.Empty"))],
            )
        ],
        {"com.testdata.Empty": x.obj("com.testdata.Empty", {}, [])},
        component_id="unused",
    )
    assert_matches([FunctionWithEmptySerializable], golden, "functionWithEmptySerializable_app_function_dynamic_schema.xml")


# androidx/androidx OUTPUT + appFunctionWithOutputFromDifferentPackage_app_function_dynamic_schema.xml at
# 31adf48a5ba261a6d7abf653f74a38d1623fd319: results whose classes live in other packages.
@app_function_schema_definition(name="diffPackageOutputSchemas", version=1, category="diff_package_schemas_category")
class DiffPackageOutputSchemas:
    def functionWithAnotherDiffPackageOutput(self) -> None: ...

    def functionWithDiffPackageOutput(self) -> None: ...


class AppFunctionWithOutputFromDifferentPackage(AppFunctionServiceEntryPoint, DiffPackageOutputSchemas):
    service_name = "com.testdata.AppFunctionWithOutputFromDifferentPackage"
    xml_file_name = "diff_output"

    @app_function
    def functionWithAnotherDiffPackageOutput(self) -> list[AnotherDiffPackageSerializable]:
        return []

    @app_function
    def functionWithDiffPackageOutput(self) -> DiffPackageSerializable:
        return DiffPackageSerializable(0)


def test_app_function_with_output_from_different_package():
    fn = "com.testdata.AppFunctionWithOutputFromDifferentPackage#"
    another = "com.testdata.anotherDifferentPackage.AnotherDiffPackageSerializable"
    diff = "com.testdata.differentPackage.DiffPackageSerializable"
    schema = {"schema_category": "diff_package_schemas_category", "schema_name": "diffPackageOutputSchemas", "schema_version": 1}
    golden = x.document(
        [
            x.function(fn + "functionWithAnotherDiffPackageOutput", returns=x.array(x.ref(another)), **schema),
            x.function(fn + "functionWithDiffPackageOutput", returns=x.ref(diff), **schema),
        ],
        {
            another: x.obj(another, {"stringParam": x.string()}, ["stringParam"]),
            diff: x.obj(diff, {"longParam": x.scalar(DataType.LONG)}, ["longParam"]),
        },
        component_id="unused",
    )
    assert_matches([AppFunctionWithOutputFromDifferentPackage], golden, "appFunctionWithOutputFromDifferentPackage_app_function_dynamic_schema.xml")
