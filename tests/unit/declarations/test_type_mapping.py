"""Python types → v2 data types, the unsupported-type errors, and the optional rules."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any, Generic, Literal, Mapping, Sequence, TypeVar
from zoneinfo import ZoneInfo

import pytest

from droid.app import PendingIntent
from droid.os import Bundle, Parcelable
from droid.appfunctions import (
    AppFunctionCompileError,
    AppFunctionServiceEntryPoint,
    Float32,
    Instant,
    Instruction,
    Int32,
    IntValueConstraint,
    SerialName,
    SetField,
    StringValueConstraint,
    UriValueConstraint,
    app_function,
    app_function_serializable,
)
from droid.appfunctions.compiler import build_metadata
from droid.appfunctions.function_xml import build_document
from droid.appfunctions.metadata import DataType
from droid.appfunctions.typeref import wire_name
from droid.net import Uri

T = TypeVar("T")


@app_function_serializable
@dataclass
class Point:
    x: int
    y: int


@app_function_serializable
@dataclass
class Box(Generic[T]):
    content: T


def compile_param(annotation: Any, *, default: Any = ..., name: str = "value"):
    """Metadata of one parameter ``name: annotation [= default]`` of a fresh service."""
    namespace: dict[str, Any] = {}
    default_src = "" if default is ... else " = DEFAULT"
    source = (
        f"def f(self, {name}: ANNOTATION{default_src}) -> None:\n"
        f"    pass\n"
    )
    exec(source, {"ANNOTATION": annotation, "DEFAULT": default}, namespace)
    fn = namespace["f"]
    fn.__annotations__ = {name: annotation, "return": None}

    class Service(AppFunctionServiceEntryPoint):
        service_name = "com.example.types.TypeService"
        xml_file_name = "types"
        f = app_function(fn)

    document = build_document([Service.app_function_spec()])
    return document.functions[0].parameters[0], {c.name: c.data_type for c in document.components}


def compile_return(annotation: Any):
    def f(self) -> None:
        pass

    f.__annotations__ = {"return": annotation}

    class Service(AppFunctionServiceEntryPoint):
        service_name = "com.example.types.TypeService"
        xml_file_name = "types"
        g = app_function(f)

    return build_document([Service.app_function_spec()]).functions[0].value_type


# (annotation, type code, nullable, item type code or None, reference or None)
TABLE = [
    (bool, DataType.BOOLEAN, False, None, None),
    (int, DataType.LONG, False, None, None),
    (Int32, DataType.INT, False, None, None),
    (float, DataType.DOUBLE, False, None, None),
    (Float32, DataType.FLOAT, False, None, None),
    (str, DataType.STRING, False, None, None),
    (bytes, DataType.BYTES, False, None, None),
    (str | None, DataType.STRING, True, None, None),
    (Int32 | None, DataType.INT, True, None, None),
    (list[str], DataType.ARRAY, False, DataType.STRING, None),
    (list[int], DataType.ARRAY, False, DataType.LONG, None),
    (list[Int32], DataType.ARRAY, False, DataType.INT, None),
    (list[float], DataType.ARRAY, False, DataType.DOUBLE, None),
    (list[Float32], DataType.ARRAY, False, DataType.FLOAT, None),
    (list[bool], DataType.ARRAY, False, DataType.BOOLEAN, None),
    (list[bool] | None, DataType.ARRAY, True, DataType.BOOLEAN, None),
    (Point, DataType.REFERENCE, False, None, "com.example.types.Point"),
    (Point | None, DataType.REFERENCE, True, None, "com.example.types.Point"),
    (list[Point], DataType.ARRAY, False, DataType.REFERENCE, None),
    (Box[str], DataType.REFERENCE, False, None, "com.example.types.Box<kotlin.String>"),
    (Box[int | None], DataType.REFERENCE, False, None, "com.example.types.Box<kotlin.Long?>"),
    (Box[list[Point]], DataType.REFERENCE, False, None, "com.example.types.Box<kotlin.collections.List<com.example.types.Point>>"),
    (Box[list[Int32]], DataType.REFERENCE, False, None, "com.example.types.Box<kotlin.IntArray>"),
    (SetField[str], DataType.REFERENCE, False, None, "androidx.appfunctions.schema.types.SetField<kotlin.String>"),
    (date, DataType.REFERENCE, False, None, "java.time.LocalDate"),
    (time, DataType.REFERENCE, False, None, "java.time.LocalTime"),
    (datetime, DataType.REFERENCE, False, None, "java.time.LocalDateTime"),
    (Instant, DataType.REFERENCE, False, None, "java.time.Instant"),
    (ZoneInfo, DataType.REFERENCE, False, None, "java.time.ZoneId"),
    (Uri, DataType.STRING, False, None, None),
    (PendingIntent, DataType.PARCELABLE, False, None, None),
    (list[PendingIntent], DataType.ARRAY, False, DataType.PARCELABLE, None),
]


@pytest.mark.parametrize(("annotation", "code", "nullable", "item", "reference"), TABLE, ids=[repr(t[0]) for t in TABLE])
def test_type_table(annotation, code, nullable, item, reference):
    param, _ = compile_param(annotation)
    meta = param.data_type
    assert meta.type == code
    assert meta.is_nullable == nullable
    assert (meta.item_type.type if meta.item_type else None) == item
    assert meta.data_type_reference == reference


def test_any_concrete_parcelable_is_an_inline_parcelable_named_by_its_class():
    # androidx AppFunctionTypeReference.isParcelableType: an implementation of Parcelable.
    param, components = compile_param(Bundle)
    assert (param.data_type.type, param.data_type.object_qualified_name) == (DataType.PARCELABLE, "android.os.Bundle")
    assert components == {}
    param, _ = compile_param(list[Bundle] | None)
    item = param.data_type.item_type
    assert (param.data_type.is_nullable, item.type, item.object_qualified_name) == (True, DataType.PARCELABLE, "android.os.Bundle")


def test_the_base_parcelable_or_one_without_a_java_name_is_refused():
    with pytest.raises(AppFunctionCompileError, match=r"use an implementation of Parcelable \(e.g. Bundle\); Parcelable is abstract"):
        compile_param(Parcelable)

    class Nameless(Bundle):
        QUALIFIED_NAME = ""

    with pytest.raises(AppFunctionCompileError, match="Nameless is a Parcelable without QUALIFIED_NAME"):
        compile_param(Nameless)


def test_pending_intent_is_an_inline_parcelable():
    param, components = compile_param(PendingIntent)
    assert param.data_type.object_qualified_name == "android.app.PendingIntent"
    assert "android.app.PendingIntent" not in components


@pytest.mark.parametrize(
    ("annotation", "name", "fields"),
    [
        (date, "java.time.LocalDate", {"year": 7, "month": 7, "dayOfMonth": 7}),
        (time, "java.time.LocalTime", {"hour": 7, "minute": 7, "second": 7, "nanoOfSecond": 7}),
        (Instant, "java.time.Instant", {"epochSecond": 6, "nanoAdjustment": 7}),
        (ZoneInfo, "java.time.ZoneId", {"zoneID": 8}),
    ],
)
def test_proxies_are_shared_component_objects(annotation, name, fields):
    _, components = compile_param(annotation)
    definition = components[name]
    assert definition.type == DataType.OBJECT and definition.is_nullable
    assert {p.name: p.data_type.type for p in definition.properties} == fields
    assert definition.required == list(fields)


def test_serializables_are_components_with_required_properties():
    @app_function_serializable
    @dataclass
    class Contact:
        display_name: str
        nickname: str | None = None
        tags: list[str] = field(default_factory=list)
        home: Point | None = None

    _, components = compile_param(Contact)
    contact = components["com.example.types.Contact"]
    assert contact.type == DataType.OBJECT and contact.is_nullable
    assert [p.name for p in contact.properties] == ["displayName", "nickname", "tags", "home"]
    assert contact.required == ["displayName"]
    assert "com.example.types.Point" in components  # reached through a property


def test_string_and_int_enum_values():
    param, _ = compile_param(Literal["ON", "OFF"])
    assert (param.data_type.type, param.data_type.enum_values) == (DataType.STRING, ["ON", "OFF"])
    param, _ = compile_param(Annotated[str, StringValueConstraint(enum_values=["A"], format="letter")])
    assert (param.data_type.enum_values, param.data_type.format) == (["A"], "letter")
    param, _ = compile_param(Annotated[Literal[1, 2], Int32])
    assert (param.data_type.type, param.data_type.enum_values) == (DataType.INT, ["1", "2"])
    param, _ = compile_param(Annotated[Int32, IntValueConstraint([10, 20])])
    assert (param.data_type.type, param.data_type.enum_values) == (DataType.INT, ["10", "20"])


@pytest.mark.parametrize("annotation", [Literal[0, 1], Annotated[int, IntValueConstraint([0, 1])], list[Literal[0, 1]]])
def test_int_enum_values_on_a_long_are_refused_naming_int32(annotation):
    # androidx writes enum values on INT only: the LONG type has none (golden
    # intEnumValueFunctions_app_functions_v2.xml; AppFunctionLongTypeMetadata).
    with pytest.raises(AppFunctionCompileError, match=r"int enum values need Int32 .* LONG has none; write Annotated\[Literal\[\.\.\.\], Int32\]"):
        compile_param(annotation)


def test_names_snake_case_to_camel_case_unless_overridden():
    assert wire_name("order_id") == "orderId"
    assert wire_name("url_to_open") == "urlToOpen"
    assert wire_name("from_") == "from"
    assert wire_name("orderId") == "orderId"
    assert wire_name("arg1") == "arg1"
    param, _ = compile_param(str, name="order_id")
    assert param.name == "orderId"
    param, _ = compile_param(Annotated[str, SerialName("order_ref")], name="order_id")
    assert param.name == "order_ref"


def test_instruction_describes_a_parameter():
    param, _ = compile_param(Annotated[str, Instruction("The order ID, e.g. ORD-8492.")])
    assert param.description == "The order ID, e.g. ORD-8492."
    assert param.data_type.description == ""


def test_return_types():
    assert compile_return(None).type == DataType.UNIT
    assert compile_return(str | None).is_nullable
    assert compile_return(list[Point]).item_type.data_type_reference == "com.example.types.Point"


# --------------------------------------------------------------------------- unsupported types
class Colour(enum.Enum):
    RED = "red"


UNSUPPORTED = [
    (dict[str, int], "use an @app_function_serializable dataclass"),
    (Mapping[str, str], "use an @app_function_serializable dataclass"),
    (set[str], "use list[...]"),
    (frozenset[int], "use list[...]"),
    (tuple[int, int], "use list[...] or an @app_function_serializable dataclass"),
    (Sequence[str], "use list[...]"),
    (Any, "use a concrete type"),
    (object, "use a concrete type"),
    (Colour, "use Literal[...] or Annotated[str, StringValueConstraint(enum_values=[...])]"),
    (bytearray, "use bytes"),
    (Decimal, "use float or str"),
    (timedelta, "use an int number of seconds"),
    (int | str, "use one type"),
    (list, "give the list's item type"),
    (list[bytes], "wrap each bytes value"),
    (list[list[str]], "wrap the inner list"),
    (list[int | None], "cannot be None"),
    (Box, "give its type arguments"),
    (complex, "use float or str"),
]


@pytest.mark.parametrize(("annotation", "advice"), UNSUPPORTED, ids=[repr(u[0]) for u in UNSUPPORTED])
def test_unsupported_types_name_the_function_parameter_and_the_alternative(annotation, advice):
    with pytest.raises(AppFunctionCompileError) as caught:
        compile_param(annotation, name="shipping_info")
    message = str(caught.value)
    assert "com.example.types.TypeService#f: parameter 'shipping_info'" in message
    assert advice in message


def test_a_plain_dataclass_must_be_marked_serializable():
    @dataclass
    class Plain:
        a: int

    with pytest.raises(AppFunctionCompileError, match="decorate it with @app_function_serializable"):
        compile_param(Plain)


def test_an_unsupported_property_names_the_class_and_property():
    @app_function_serializable
    @dataclass
    class Order:
        extras: dict[str, str]

    with pytest.raises(AppFunctionCompileError, match=r"Order \(used by .*\): property 'extras': dict\[str, str\] is not supported"):
        compile_param(Order)


def test_misapplied_constraints_are_errors():
    with pytest.raises(AppFunctionCompileError, match="StringValueConstraint applies to str, not"):
        compile_param(Annotated[int, StringValueConstraint(enum_values=["a"])])
    with pytest.raises(AppFunctionCompileError, match="UriValueConstraint applies to Uri"):
        compile_param(Annotated[str, UriValueConstraint(["content"])])
    with pytest.raises(AppFunctionCompileError, match="invalid pattern"):
        compile_param(Annotated[str, StringValueConstraint(pattern="[a-")])


def test_missing_annotations_are_errors():
    class NoReturn(AppFunctionServiceEntryPoint):
        service_name = "com.example.types.NoReturn"
        xml_file_name = "x"

        @app_function
        def f(self, a: str):  # no return annotation
            return a

    with pytest.raises(AppFunctionCompileError, match="needs a return annotation"):
        NoReturn.app_function_spec()


# --------------------------------------------------------------------------- optional parameters
@pytest.mark.parametrize(
    ("annotation", "default"),
    [
        (str | None, None),
        (Point | None, None),
        (int, 5),
        (Int32, 0),
        (float, 1.5),
        (bool, True),
        (bytes, b""),
        (list[str], []),
        (list[Point], []),
        (date | None, None),
    ],
)
def test_nullable_primitive_list_and_bytes_types_may_be_optional(annotation, default):
    param, _ = compile_param(annotation, default=default)
    assert param.is_required is False


@pytest.mark.parametrize(
    ("annotation", "default", "label"),
    [
        (str, "", "str"),
        (Point, None, "Point"),
        (date, date(2025, 1, 1), "date"),
        (Uri, Uri.EMPTY, "Uri"),
        (SetField[str], None, "SetField"),
    ],
)
def test_non_nullable_str_and_objects_cannot_be_optional(annotation, default, label):
    with pytest.raises(AppFunctionCompileError) as caught:
        compile_param(annotation, default=default, name="title")
    message = str(caught.value)
    assert "parameter 'title' has a default" in message and label in message
    assert "| None = None" in message


def test_a_required_nullable_parameter_stays_required():
    param, _ = compile_param(str | None)
    assert param.is_required is True and param.data_type.is_nullable is True


def test_a_serializable_property_with_a_default_must_be_optional_capable():
    @app_function_serializable
    @dataclass
    class Draft:
        title: str = "untitled"

    with pytest.raises(AppFunctionCompileError, match="Draft .*property 'title' has a default"):
        compile_param(Draft)


def test_build_metadata_gives_the_platform_messages():
    class Svc(AppFunctionServiceEntryPoint):
        service_name = "com.example.types.Svc"
        xml_file_name = "svc"

        @app_function(destructive=True)
        def wipe(self, point: Point, note: str | None = None) -> None: ...

    functions, components = build_metadata(Svc, "com.example.types")
    (wipe,) = functions
    assert wipe.id == "com.example.types.Svc#wipe"
    assert wipe.package_name == "com.example.types"
    assert wipe.is_destructive is True
    assert [(p.name, p.is_required) for p in wipe.parameters] == [("point", True), ("note", False)]
    assert [c.name for c in components.data_types] == ["com.example.types.Point"]


def test_allowed_uri_schemes_are_a_java_quoted_pattern_beside_format_uri():
    # AppFunctionUriValueConstraint.kt: no schemes allows any; each scheme must be one.
    param, _ = compile_param(Annotated[Uri, UriValueConstraint(["content", "my-app+v1.x"])])
    assert (param.data_type.format, param.data_type.pattern) == ("uri", r"^(\Qcontent\E|\Qmy-app+v1.x\E):.*")
    param, _ = compile_param(Annotated[Uri, UriValueConstraint()])
    assert (param.data_type.format, param.data_type.pattern) == ("uri", None)
    with pytest.raises(ValueError, match=r"'con tent' is not a URI scheme"):
        UriValueConstraint(["con tent"])
