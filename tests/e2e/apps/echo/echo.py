"""One echo function per supported type (the binder round-trip tests' app).

droidsim-lint: disable=F8 every function is an echo on purpose
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Generic, TypeVar
from zoneinfo import ZoneInfo

from droid.app import PendingIntent
from droid.appfunctions import (
    AppFunctionServiceEntryPoint,
    Instant,
    Int32,
    SetField,
    app_function,
    app_function_serializable,
)
from droid.net import Uri
from droid.os import Bundle

T = TypeVar("T")


@app_function_serializable
@dataclass
class Node:
    """A tree node."""

    name: str
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None


@app_function_serializable
@dataclass
class Wrapper(Generic[T]):
    """A generic holder."""

    value: T
    values: list[T] = field(default_factory=list)


@app_function_serializable
@dataclass
class Base:
    """A base type."""

    id: str


@app_function_serializable
@dataclass
class Derived(Base):
    """A derived type."""

    extra: Int32


@app_function_serializable(sealed=True)
class Shape:
    """A shape: one of its cases (a Kotlin sealed class)."""


@app_function_serializable
@dataclass
class Circle(Shape):
    """A circle."""

    radius: float


@app_function_serializable
@dataclass
class Square(Shape):
    """A square."""

    side: float
    label: str | None = None


CASES = {
    "boolean": bool, "long": int, "int": Int32, "double": float, "string": str, "bytes": bytes,
    "nullable": str | None, "strings": list[str], "longs": list[int], "date": date, "time": time,
    "datetime": datetime, "instant": Instant, "zone": ZoneInfo, "uri": Uri,
    "pending_intent": PendingIntent, "nested": Node, "generic": Wrapper[Int32],
    "set_field": SetField[str | None], "optional_set_field": SetField[str | None] | None,
    "derived": Derived, "bundle": Bundle, "shape": Shape, "either": Circle | Square | None,
}


def _echo(name: str, annotation: object):
    def echo(self, value):
        return value

    echo.__name__ = echo.__qualname__ = f"echo_{name}"
    echo.__doc__ = f"Returns the {name.replace('_', ' ')} value it is given."
    echo.__annotations__ = {"value": annotation, "return": annotation}
    return app_function(echo)


class EchoService(AppFunctionServiceEntryPoint):
    service_name = "com.example.echo.EchoService"
    xml_file_name = "echo"


for _name, _annotation in CASES.items():
    setattr(EchoService, f"echo_{_name}", _echo(_name, _annotation))
