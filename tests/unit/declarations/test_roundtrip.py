"""Every supported type survives encode → on_execute_function → decode → encode, and
the wire form of each is the documented one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from typing import Generic, TypeVar
from zoneinfo import ZoneInfo

import pytest

from droid.app import ComponentName, Intent, PendingIntent
from droid.appfunctions import (
    AppFunctionData,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    Float32,
    Instant,
    Int32,
    SetField,
    app_function,
    app_function_serializable,
)
from droid.appfunctions.codec import EncodingError, decode_value, encode_arguments, encode_value
from droid.net import Uri
from droid.os import Bundle, Parcelable

from .calls import fails, returns

T = TypeVar("T")
S = "com.example.echo.EchoService"


@app_function_serializable
@dataclass
class Wrapper(Generic[T]):
    value: T
    values: list[T] = field(default_factory=list)


@app_function_serializable
@dataclass
class Node:
    name: str
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None


@app_function_serializable
@dataclass
class Base:
    id: str


@app_function_serializable
@dataclass
class Derived(Base):
    extra: Int32


class Photo(Parcelable):
    """An app's own Parcelable: any concrete one may cross (androidx AppFunctionTypeReference)."""

    QUALIFIED_NAME = "com.example.echo.Photo"

    def __init__(self, path: str, width: int) -> None:
        self.path, self.width = path, width

    def write_to_parcel(self):
        return {"path": self.path, "width": self.width}

    @classmethod
    def create_from_parcel(cls, values):
        return cls(values["path"], values["width"])

    def __eq__(self, other):
        return isinstance(other, Photo) and (self.path, self.width) == (other.path, other.width)


BUNDLE = Bundle({"id": 1, "name": "x", "tags": ["a", "b"], "blob": b"\x00\x01", "score": 0.5, "on": True})

PENDING = PendingIntent.get_activity(
    None,
    3,
    Intent(
        action="com.example.VIEW",
        component=ComponentName("com.example.echo", "com.example.echo.Main"),
        data=Uri.parse("echo://item/1"),
        extras={"id": 1, "name": "x", "flag": True, "score": 0.5},
    ),
    PendingIntent.FLAG_IMMUTABLE,
)

CASES = [
    ("boolean", bool, True),
    ("long", int, -(2**62)),
    ("int", Int32, 2**31 - 1),
    ("double", float, 1.25),
    ("float", Float32, 0.5),
    ("string", str, "héllo\n"),
    ("bytes", bytes, bytes(range(256))),
    ("nullable", str | None, None),
    ("strings", list[str], ["a", "", "c"]),
    ("longs", list[int], [1, -2, 3]),
    ("doubles", list[float], [0.1, 2.0]),
    ("booleans", list[bool], [True, False]),
    ("empty_list", list[str], []),
    ("date", date, date(2024, 2, 29)),
    ("time", time, time(23, 59, 58, 999999)),
    ("datetime", datetime, datetime(1999, 12, 31, 23, 59, 59, 123456)),
    ("instant", Instant, datetime(2025, 6, 14, 16, 0, 0, 250000, tzinfo=timezone.utc)),
    ("instant_before_1970", Instant, datetime(1960, 1, 1, 0, 0, 0, 1, tzinfo=timezone.utc)),
    ("zone", ZoneInfo, ZoneInfo("Asia/Bangkok")),
    ("uri", Uri, Uri.parse("content://com.example/items/1?x=y#z")),
    ("pending_intent", PendingIntent, PENDING),
    ("pending_intents", list[PendingIntent], [PENDING]),
    ("bundle", Bundle, BUNDLE),
    ("bundles", list[Bundle] | None, [BUNDLE, Bundle()]),
    ("photo", Photo, Photo("/p/1.png", 640)),
    ("nested", Node, Node("root", [Node("a"), Node("b", [Node("b1")])], Node("up"))),
    ("generic", Wrapper[Int32], Wrapper(1, [2, 3])),
    ("generic_nested", SetField[list[Node]], SetField([Node("x"), Node("y")])),
    ("generic_nullable", Wrapper[str | None], Wrapper(None, ["v"])),
    ("set_field", SetField[str | None], SetField(None)),
    ("derived", Derived, Derived("d-1", 7)),
    ("dates", list[date], [date(2025, 1, 1), date(2025, 12, 31)]),
]


def _echo(annotation):
    def f(self, value):
        return value

    f.__annotations__ = {"value": annotation, "return": annotation}
    return app_function(f)


EchoService = type(
    "EchoService",
    (AppFunctionServiceEntryPoint,),
    {"service_name": S, "xml_file_name": "echo", **{f"echo_{name}": _echo(a) for name, a, _ in CASES}},
)


@pytest.mark.parametrize(("name", "annotation", "value"), CASES, ids=[c[0] for c in CASES])
def test_round_trip(name, annotation, value):
    spec = EchoService.app_function_spec().function(f"{S}#echo_{name}")
    params = encode_arguments(spec, value=value)
    returned = asyncio.run(returns(EchoService(), spec.id, params))
    assert decode_value(spec.returns, returned, "value") == value
    assert returned == encode_value(spec.returns, value)


def test_wire_shapes():
    spec = EchoService.app_function_spec()

    def wire(name, value):
        return encode_value(spec.function(f"{S}#echo_{name}").returns, value)

    assert wire("date", date(2025, 6, 14)).to_python() == {"year": 2025, "month": 6, "dayOfMonth": 14}
    assert wire("time", time(9, 5, 7, 1)).to_python() == {"hour": 9, "minute": 5, "second": 7, "nanoOfSecond": 1000}
    assert wire("instant", datetime(1970, 1, 1, 0, 0, 1, 500, tzinfo=timezone.utc)).to_python() == {
        "epochSecond": 1,
        "nanoAdjustment": 500000,
    }
    # An aware datetime in another zone is the same instant.
    plus2 = timezone(timedelta(hours=2))
    assert wire("instant", datetime(1970, 1, 1, 2, 0, 0, tzinfo=plus2)).to_python()["epochSecond"] == 0
    assert wire("zone", ZoneInfo("Europe/Paris")).to_python() == {"zoneID": "Europe/Paris"}
    assert wire("uri", Uri.parse("https://a/b")) == "https://a/b"  # a STRING of format uri
    assert wire("set_field", SetField("x")).qualified_name == "androidx.appfunctions.schema.types.SetField<kotlin.String?>"
    assert wire("nullable", None) is None
    intent = wire("pending_intent", PENDING)
    assert intent.qualified_name == "android.app.PendingIntent"
    assert intent["intent"]["extras"].to_python() == {"id": 1, "name": "x", "flag": True, "score": 0.5}


def test_a_parcelable_crosses_as_a_document_named_by_its_java_class():
    spec = EchoService.app_function_spec()
    bundle = encode_value(spec.function(f"{S}#echo_bundle").returns, BUNDLE)
    assert bundle.qualified_name == "android.os.Bundle" and bundle.to_python()["tags"] == ["a", "b"]
    assert encode_value(spec.function(f"{S}#echo_photo").returns, Photo("p", 1)).qualified_name == "com.example.echo.Photo"


def test_a_parcelable_of_another_class_or_shape_is_invalid_argument():
    photo = f"{S}#echo_photo"
    wrong_class = AppFunctionData({"id": 1}, qualified_name="android.os.Bundle")
    error = asyncio.run(fails(EchoService(), photo, {"value": wrong_class}))
    assert error.error_message == "Parameter value is not a valid Photo: a android.os.Bundle document is not a com.example.echo.Photo"
    missing = asyncio.run(fails(EchoService(), photo, {"value": AppFunctionData(path="p")}))
    assert missing.error_message == "Parameter value is not a valid Photo: 'width'"


def test_a_bundle_holding_what_a_document_cannot_does_not_encode():
    spec = EchoService.app_function_spec().function(f"{S}#echo_bundle")
    with pytest.raises(EncodingError, match="value: dict cannot go in AppFunctionData"):
        encode_value(spec.returns, Bundle({"nested": {"a": 1}}))


def test_null_and_absent_are_different_for_nullable_generics():
    spec = EchoService.app_function_spec().function(f"{S}#echo_generic_nullable")
    explicit_null = asyncio.run(returns(EchoService(), spec.id, {"value": AppFunctionData(value=None)}))
    assert explicit_null.is_null("value")
    # The property is required (no default) but nullable: absent reads as null too.
    absent = asyncio.run(returns(EchoService(), spec.id, {"value": AppFunctionData()}))
    assert absent.to_python() == {"value": None, "values": []}


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("date", AppFunctionData(year=2025, month=13, dayOfMonth=1), "Parameter value is not a valid datetime.date"),
        ("date", AppFunctionData(year=2025, month=1), "Parameter value.dayOfMonth is required"),
        ("time", AppFunctionData(hour=1, minute=2, second=3, nanoOfSecond=10**9), "nanoseconds must be in 0..999999999"),
        ("zone", AppFunctionData(zoneID="Mars/Olympus"), "unknown time zone 'Mars/Olympus'"),
        ("uri", AppFunctionData(uri=5), "Parameter value must be a uri string, not a document"),
        ("uri", 5, "Parameter value must be a uri string, not an integer"),
        ("pending_intent", AppFunctionData(intent=AppFunctionData(action="x", packageName="com.x")), "not a valid PendingIntent"),
        ("derived", AppFunctionData(extra=1), "Parameter value.id is required"),
    ],
)
def test_malformed_proxy_documents_are_invalid_argument(name, value, message):
    error = asyncio.run(fails(EchoService(), f"{S}#echo_{name}", {"value": value}))
    assert type(error) is AppFunctionInvalidArgumentException
    assert message in error.error_message


def test_a_uri_is_a_string_and_may_still_arrive_as_the_older_uri_document():
    # androidx before format "uri" sent {uri: "..."} (the $UriFactory proxy); both decode.
    assert asyncio.run(returns(EchoService(), f"{S}#echo_uri", {"value": "tel:123"})) == "tel:123"
    assert asyncio.run(returns(EchoService(), f"{S}#echo_uri", {"value": AppFunctionData(uri="tel:1")})) == "tel:1"


def test_a_pending_intent_keeps_androids_rules_on_the_wire():
    spec = EchoService.app_function_spec().function(f"{S}#echo_pending_intent").returns
    mutable = encode_value(spec, PENDING).with_values(flags=PendingIntent.FLAG_MUTABLE)
    assert asyncio.run(returns(EchoService(), f"{S}#echo_pending_intent", {"value": mutable}))["flags"] == PendingIntent.FLAG_MUTABLE
    both = mutable.with_values(flags=PendingIntent.FLAG_MUTABLE | PendingIntent.FLAG_IMMUTABLE)
    error = asyncio.run(fails(EchoService(), f"{S}#echo_pending_intent", {"value": both}))
    assert "Cannot set both FLAG_IMMUTABLE and FLAG_MUTABLE" in error.error_message
    implicit = encode_value(spec, PendingIntent.get_activity(None, 0, Intent(action="VIEW"), PendingIntent.FLAG_IMMUTABLE))
    echoed = asyncio.run(returns(EchoService(), f"{S}#echo_pending_intent", {"value": implicit}))
    assert "packageName" not in echoed["intent"] and echoed["intent"]["action"] == "VIEW"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("datetime", datetime(2025, 1, 1, tzinfo=timezone.utc), "declare Instant for an aware one"),
        ("instant", datetime(2025, 1, 1), "needs a timezone-aware datetime"),
        ("int", 2**31, "out of range"),
        ("strings", ["a", None], r"value\[1\] is None, but str is not nullable"),
        ("nested", {"name": "dict"}, "declared type is Node"),
    ],
)
def test_values_that_do_not_fit_their_declaration_do_not_encode(name, value, message):
    spec = EchoService.app_function_spec().function(f"{S}#echo_{name}")
    with pytest.raises(EncodingError, match=message):
        encode_value(spec.returns, value)
