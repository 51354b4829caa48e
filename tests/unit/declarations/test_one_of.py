"""Sealed serializables and unions of serializables: ONE_OF (14), issue 16 row 2.

A value is exactly one case and crosses with all of its fields; the document's
qualified name says which case it is (androidx's one-of factory dispatches on it).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass

import pytest

from droid.appfunctions import (
    AppFunctionData,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    app_function,
    app_function_serializable,
)
from droid.appfunctions.codec import EncodingError, decode_value, encode_value
from droid.appfunctions.compiler import render_entry_points
from droid.appfunctions.function_xml import build_document, to_proto
from droid.appfunctions.json_codec import parameters_from_json
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.metadata import DataType
from droid.appfunctions.typeref import AppFunctionCompileError

from tests.helpers import REPO

from .calls import fails, returns
from .test_roundtrip import Base, Derived

S = "com.example.shapes.ShapeService"


# The echo app's sealed Shape (Circle, Square) and the round-trip tests' Base and Derived.
ECHO = load_app_service_class(REPO / "tests" / "e2e" / "apps" / "echo", "com.example.echo.EchoService")
Shape, Circle, Square = (getattr(sys.modules[ECHO.__module__], n) for n in ("Shape", "Circle", "Square"))


class ShapeService(AppFunctionServiceEntryPoint):
    service_name = S
    xml_file_name = "shapes"

    @app_function
    def largest(self, shapes: list[Shape]) -> Shape:
        return max(shapes, key=lambda s: s.radius if isinstance(s, Circle) else s.side)

    @app_function
    def either(self, value: Circle | Square | None) -> str:
        return type(value).__name__

    @app_function
    def base(self, derived: bool) -> Base:
        return Derived("d", 1) if derived else Base("b")


def spec(name: str):
    return ShapeService.app_function_spec().function(f"{S}#{name}")


def test_a_sealed_class_is_a_one_of_component_and_a_union_is_one_of_at_its_use():
    functions, components = to_proto(build_document([ShapeService.app_function_spec()]))
    by_name = {c.name: c.data_type for c in components.data_types}
    shape = by_name["com.example.shapes.Shape"]
    assert shape.type == DataType.ONE_OF
    assert [(c.type, c.data_type_reference) for c in shape.one_of] == [
        (DataType.REFERENCE, "com.example.shapes.Circle"),
        (DataType.REFERENCE, "com.example.shapes.Square"),
    ]
    # A case is described on its own, not as ALL_OF the sealed class.
    assert by_name["com.example.shapes.Square"].type == DataType.OBJECT
    either = {f.id: f for f in functions}[f"{S}#either"].parameters[0].data_type
    assert (either.type, either.is_nullable, len(either.one_of)) == (DataType.ONE_OF, True, 2)


def test_a_returned_case_keeps_its_own_fields_and_name():
    returned = asyncio.run(
        returns(ShapeService(), f"{S}#largest", {"shapes": [AppFunctionData({"radius": 1.0}, qualified_name="com.example.shapes.Circle"),
                                                            AppFunctionData({"side": 3.0, "label": "big"}, qualified_name="com.example.shapes.Square")]})
    )
    assert returned.qualified_name == "com.example.shapes.Square"
    assert returned.to_python() == {"side": 3.0, "label": "big"}
    assert decode_value(spec("largest").returns, returned, "value") == Square(3.0, "big")


def test_a_case_is_chosen_by_the_documents_qualified_name():
    circle = AppFunctionData({"radius": 2.0}, qualified_name="com.example.shapes.Circle")
    assert asyncio.run(returns(ShapeService(), f"{S}#either", {"value": circle})) == "Circle"
    nameless = asyncio.run(fails(ShapeService(), f"{S}#either", {"value": AppFunctionData({"radius": 2.0})}))
    assert type(nameless) is AppFunctionInvalidArgumentException
    assert nameless.error_message == (
        "Parameter value must be a document whose qualified name is one of com.example.shapes.Circle, "
        "com.example.shapes.Square; got 'none'"
    )


def test_json_picks_the_first_case_the_object_fits():
    functions, components = to_proto(build_document([ShapeService.app_function_spec()]))
    either = {f.id: f for f in functions}[f"{S}#either"]
    square = parameters_from_json(either, {"value": {"side": 1, "label": "s"}}, components)["value"]
    assert (square.qualified_name, square["side"]) == ("com.example.shapes.Square", 1.0)
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter value fits none of its cases"):
        parameters_from_json(either, {"value": {"sides": 4}}, components)


def test_a_subclass_returned_for_a_plain_serializable_is_refused_not_cut_down():
    assert encode_value(spec("base").returns, Base("b")).to_python() == {"id": "b"}
    with pytest.raises(EncodingError, match="value is a Derived, a subclass of the declared Base, whose fields extra would be lost"):
        encode_value(spec("base").returns, Derived("d", 2))

    @dataclass
    class Renamed(Base):  # a subclass with no fields of its own loses nothing
        pass

    assert encode_value(spec("base").returns, Renamed("r")).to_python() == {"id": "r"}


@app_function_serializable(sealed=True)
class Empty:
    """A sealed class with no case."""


def test_a_sealed_class_needs_cases_and_is_no_dataclass():
    class Service(AppFunctionServiceEntryPoint):
        service_name = S
        xml_file_name = "empty"

        @app_function
        def f(self, value: Empty) -> None: ...

    with pytest.raises(AppFunctionCompileError, match="the sealed Empty has no @app_function_serializable subclass"):
        render_entry_points([Service])
    with pytest.raises(TypeError, match="a sealed @app_function_serializable is a plain base class, not a dataclass"):
        app_function_serializable(sealed=True)(dataclass(type("D", (), {})))


@app_function_serializable(sealed=True)
class Reply:
    """A sealed class with a case left undecorated."""


@app_function_serializable
@dataclass
class Text(Reply):
    text: str


@dataclass
class Sticker(Reply):
    sticker_id: str


def test_every_case_of_a_sealed_class_must_be_serializable():
    # androidx oneOfSerializable_nonSerializableSubclasses_fails (NonSerializableSubclasses.KT).
    class Service(AppFunctionServiceEntryPoint):
        service_name = S
        xml_file_name = "replies"

        @app_function
        def f(self, value: Reply) -> None: ...

    with pytest.raises(AppFunctionCompileError, match="every subclass of the sealed Reply .* decorate Sticker$"):
        render_entry_points([Service])


def test_a_union_with_a_non_serializable_member_is_refused():
    class Service(AppFunctionServiceEntryPoint):
        service_name = S
        xml_file_name = "bad"

        @app_function
        def f(self, value: Circle | str) -> None: ...

    with pytest.raises(AppFunctionCompileError, match="str is not one; use one type, or a union of serializables"):
        render_entry_points([Service])
