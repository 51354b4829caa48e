"""androidx compiler goldens that the shared reference folder does not hold, ported.

Each test names the golden's path in androidx/androidx and the commit it was read
at; its structure is restated in ``expected`` form (no fetched file is committed)
and the port's XML must equal it, whitespace aside. Kotlin ``Int`` is ``Int32``.
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
    app_function_serializable,
)
from droid.appfunctions.compiler import render_entry_points
from droid.net import Uri

from . import expected as x
from .xmltree import first_difference

OUTPUT = "appfunctions/appfunctions-compiler/src/test/test-data/output/"


def assert_matches(actual: bytes, expected: bytes, golden: str) -> None:
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
    assert_matches(render_entry_points([ValidUriConstraintService]), golden, "entrypoints/valid_uri_service.xml")


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
    actual = render_entry_points([IntEnumValueFunctions], component_id="unused")
    assert_matches(actual, golden, "intEnumValueFunctions_app_functions_v2.xml")


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
