"""From Python type hints to AppFunction data types (the compiler's type analysis).

``TypeResolver.resolve`` turns one annotation into a ``TypeSpec``: the wire kind,
nullability, item type, the serializable class or proxy behind a reference, and
value constraints. Everything the compiler writes and everything the entry point
checks at run time comes from these specs, so the XML and the behaviour agree.
Anything unsupported is an ``AppFunctionCompileError`` that names where it was
found and what to use instead.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import types
import typing
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from droid.appfunctions import proxies
from droid.appfunctions.declarations import (
    CAPABILITY_ATTR,
    FLOAT32,
    INSTANT,
    INSTRUCTION_ATTR,
    INT32,
    SERIALIZABLE_ATTR,
    Instruction,
    IntValueConstraint,
    SerialName,
    StringValueConstraint,
    UriValueConstraint,
    _TypeMarker,
)
from droid.appfunctions.docstrings import class_docs
from droid.appfunctions.metadata import DataType
from droid.appfunctions.proxies import ProxySpec
from droid.net.uri import Uri
from droid.os.parcelable import Parcelable

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class AppFunctionCompileError(Exception):
    """A declaration the compiler cannot turn into function XML. The message names
    the function, parameter or property and says what to use instead."""


class Kind(enum.Enum):
    UNIT = "unit"
    BOOLEAN = "bool"
    BYTES = "bytes"
    DOUBLE = "float"
    FLOAT = "Float32"
    LONG = "int"
    INT = "Int32"
    STRING = "str"
    LIST = "list"
    OBJECT = "object"
    ONE_OF = "one of"
    PROXY = "proxy"
    URI = "Uri"
    PARCELABLE = "parcelable"


TYPE_CODES = {
    Kind.UNIT: DataType.UNIT,
    Kind.BOOLEAN: DataType.BOOLEAN,
    Kind.BYTES: DataType.BYTES,
    Kind.DOUBLE: DataType.DOUBLE,
    Kind.FLOAT: DataType.FLOAT,
    Kind.LONG: DataType.LONG,
    Kind.INT: DataType.INT,
    Kind.STRING: DataType.STRING,
    Kind.LIST: DataType.ARRAY,
    Kind.OBJECT: DataType.REFERENCE,
    Kind.ONE_OF: DataType.REFERENCE,  # ONE_OF itself when the union has no name (A | B)
    Kind.PROXY: DataType.REFERENCE,
    Kind.URI: DataType.STRING,  # format "uri" (AppFunctionUriValueConstraint.kt)
    Kind.PARCELABLE: DataType.PARCELABLE,
}

PRIMITIVES = frozenset({Kind.BOOLEAN, Kind.DOUBLE, Kind.FLOAT, Kind.LONG, Kind.INT, Kind.STRING})
_KOTLIN = {
    Kind.UNIT: "kotlin.Unit",
    Kind.BOOLEAN: "kotlin.Boolean",
    Kind.BYTES: "kotlin.ByteArray",
    Kind.DOUBLE: "kotlin.Double",
    Kind.FLOAT: "kotlin.Float",
    Kind.LONG: "kotlin.Long",
    Kind.INT: "kotlin.Int",
    Kind.STRING: "kotlin.String",
    Kind.URI: "android.net.Uri",
}
_KOTLIN_ARRAY = {
    Kind.BOOLEAN: "kotlin.BooleanArray",
    Kind.DOUBLE: "kotlin.DoubleArray",
    Kind.FLOAT: "kotlin.FloatArray",
    Kind.LONG: "kotlin.LongArray",
    Kind.INT: "kotlin.IntArray",
}

SUPPORTED = (
    "bool, int, Int32, float, Float32, str, bytes, list[...], an @app_function_serializable "
    "dataclass, date, time, datetime, Instant, ZoneInfo, Uri or a Parcelable (PendingIntent, Bundle)"
)


@dataclass(eq=False)
class TypeSpec:
    """One use of a type: in a parameter, a return value, a property or a list item."""

    kind: Kind
    nullable: bool = False
    item: "TypeSpec | None" = None
    obj: "ObjectSpec | None" = None
    one_of: "OneOfSpec | None" = None
    proxy: ProxySpec | None = None
    string_constraint: StringValueConstraint | None = None
    int_enum: tuple[int, ...] = ()
    uri_schemes: tuple[str, ...] = ()
    parcelable: type | None = None
    label: str = ""

    @property
    def type_code(self) -> DataType:
        if self.one_of is not None and not self.one_of.qualified_name:
            return DataType.ONE_OF
        return TYPE_CODES[self.kind]

    @property
    def reference_name(self) -> str:
        if self.obj is not None:
            return self.obj.qualified_name
        if self.one_of is not None:
            return self.one_of.qualified_name or " | ".join(c.qualified_name for c in self.one_of.cases)
        if self.proxy is not None:
            return self.proxy.qualified_name
        return ""

    def kotlin_name(self) -> str:
        """The type as the androidx compiler spells it in generic type arguments."""
        if self.kind is Kind.LIST:
            assert self.item is not None
            if self.item.kind in _KOTLIN_ARRAY and not self.item.nullable:
                name = _KOTLIN_ARRAY[self.item.kind]
            else:
                name = f"kotlin.collections.List<{self.item.kotlin_name()}>"
        elif self.kind in (Kind.OBJECT, Kind.ONE_OF, Kind.PROXY):
            name = self.reference_name
        elif self.kind is Kind.PARCELABLE:
            assert self.parcelable is not None
            name = self.parcelable.QUALIFIED_NAME
        else:
            name = _KOTLIN[self.kind]
        return name + ("?" if self.nullable else "")

    def omitted_value(self) -> Any:
        """What an omitted optional value becomes: the type's default, never the
        declared one (None, 0, 0.0, False, b"" or [])."""
        if self.nullable:
            return None
        return {
            Kind.BOOLEAN: False,
            Kind.LONG: 0,
            Kind.INT: 0,
            Kind.DOUBLE: 0.0,
            Kind.FLOAT: 0.0,
            Kind.BYTES: b"",
        }.get(self.kind, [] if self.kind is Kind.LIST else None)

    @property
    def may_be_optional(self) -> bool:
        return self.nullable or self.kind in (
            Kind.BOOLEAN,
            Kind.LONG,
            Kind.INT,
            Kind.DOUBLE,
            Kind.FLOAT,
            Kind.BYTES,
            Kind.LIST,
        )


@dataclass(eq=False)
class PropertySpec:
    py_name: str
    wire_name: str
    type: TypeSpec
    required: bool
    description: str = ""


@dataclass(eq=False)
class CapabilitySpec:
    cls: type
    qualified_name: str
    properties: list[PropertySpec] = field(default_factory=list)


@dataclass(eq=False)
class ObjectSpec:
    """A serializable dataclass, with its type arguments bound."""

    cls: type
    qualified_name: str
    description: str = ""
    properties: list[PropertySpec] = field(default_factory=list)
    parents: list["ObjectSpec"] = field(default_factory=list)
    capabilities: list[CapabilitySpec] = field(default_factory=list)
    own_properties: list[PropertySpec] = field(default_factory=list)

    @property
    def is_all_of(self) -> bool:
        return bool(self.parents or self.capabilities)


@dataclass(eq=False)
class OneOfSpec:
    """A sealed serializable (named) or a union ``A | B`` of serializables (no name):
    a value is exactly one of ``cases``, told apart by its qualified name."""

    qualified_name: str
    cases: list[ObjectSpec]
    description: str = ""

    def case_named(self, name: str) -> ObjectSpec | None:
        return next((c for c in self.cases if c.qualified_name == name), None)

    def case_of(self, value: Any) -> ObjectSpec | None:
        """The case ``value`` is: its own class first, else the first it is an instance of."""
        exact = next((c for c in self.cases if type(value) is c.cls), None)
        return exact or next((c for c in self.cases if isinstance(value, c.cls)), None)


@dataclass(frozen=True)
class FieldMarkers:
    """What an annotation says about the parameter or property it is on."""

    instruction: str | None = None
    serial_name: str | None = None


@dataclass(frozen=True)
class _Bound:
    """A type argument together with the type variables in scope where it was written."""

    annotation: Any
    typevars: "dict[Any, _Bound]"


def wire_name(py_name: str) -> str:
    """snake_case → lowerCamelCase: ``order_id`` → ``orderId``; a trailing ``_``
    (``from_``) is dropped; names without underscores stay as they are."""
    stripped = py_name.rstrip("_") or py_name
    head, *rest = stripped.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest if part)


def type_label(annotation: Any) -> str:
    """A readable spelling of an annotation for error messages."""
    if annotation is type(None) or annotation is None:
        return "None"
    if isinstance(annotation, type) and not get_args(annotation):
        return annotation.__name__
    text = repr(annotation)
    for prefix in ("typing.", "typing_extensions.", "datetime.", "collections.abc."):
        text = text.replace(prefix, "")
    return re.sub(r"<class '([\w.]+\.)?(\w+)'>", r"\2", text)


def clean_qualname(cls: type) -> str:
    """``__qualname__`` without the ``<locals>`` of a class defined in a function."""
    return cls.__qualname__.rsplit("<locals>.", 1)[-1]


def is_serializable(tp: Any) -> bool:
    return isinstance(tp, type) and SERIALIZABLE_ATTR in vars(tp)


def is_sealed(tp: Any) -> bool:
    return is_serializable(tp) and vars(tp)[SERIALIZABLE_ATTR].sealed


def is_capability(tp: Any) -> bool:
    return isinstance(tp, type) and CAPABILITY_ATTR in vars(tp)


def _is_type_alias(meta: Any) -> bool:
    """``Int32`` or ``Float32`` used as metadata: an Annotated alias of type markers."""
    return get_origin(meta) is Annotated and all(isinstance(m, _TypeMarker) for m in meta.__metadata__)


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


class TypeResolver:
    """Resolves annotations for one entry point; shares object specs by qualified name."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.objects: dict[str, ObjectSpec] = {}
        self.one_ofs: dict[str, OneOfSpec] = {}

    # ------------------------------------------------------------------ annotations
    def resolve(
        self,
        annotation: Any,
        where: str,
        typevars: dict[Any, _Bound] | None = None,
        *,
        allow_unit: bool = False,
    ) -> tuple[TypeSpec, FieldMarkers]:
        typevars = typevars or {}
        instruction: str | None = None
        serial: str | None = None
        type_markers: list[Any] = []
        nullable = False
        label = type_label(annotation)
        tp = annotation
        union: list[Any] = []
        while True:
            if isinstance(tp, TypeVar):
                bound = typevars.get(tp)
                if bound is None:
                    raise AppFunctionCompileError(
                        f"{where}: type variable {tp.__name__} is not bound; parametrize the "
                        f"generic class, e.g. SetField[str]"
                    )
                tp, typevars = bound.annotation, bound.typevars
                continue
            if get_origin(tp) is Annotated:
                for meta in tp.__metadata__:
                    if isinstance(meta, Instruction):
                        instruction = meta.text
                    elif isinstance(meta, SerialName):
                        serial = meta.name
                    elif isinstance(
                        meta, (StringValueConstraint, IntValueConstraint, UriValueConstraint, _TypeMarker)
                    ):
                        type_markers.append(meta)
                    elif _is_type_alias(meta):  # Annotated[Literal[0, 1], Int32]
                        type_markers.extend(meta.__metadata__)
                    # Other metadata (e.g. pydantic's) is not ours to judge.
                tp = tp.__origin__
                continue
            if _is_union(tp):
                args = get_args(tp)
                others = [a for a in args if a is not type(None)]
                if len(others) < len(args):
                    nullable = True
                if len(others) > 1:
                    union = others
                    break
                tp = others[0]
                continue
            if isinstance(tp, (str, typing.ForwardRef)):
                raise AppFunctionCompileError(
                    f"{where}: cannot resolve the forward reference {label}; define the class at "
                    f"module level before the service is loaded"
                )
            break

        if union:
            spec = self._union(union, where, label, typevars)
        else:
            spec = self._base(tp, where, label, typevars, allow_unit)
        spec.nullable = nullable or spec.nullable
        spec.label = label
        self._apply_markers(spec, type_markers, where, label)
        if spec.int_enum and spec.kind is Kind.LONG:
            # androidx writes enum values on INT only (AppFunctionIntTypeMetadata); on a
            # Long the constraint would vanish from the XML while the app still checked it.
            raise AppFunctionCompileError(
                f"{where}: int enum values need Int32 (a Kotlin Int): AppFunctions describe enum values "
                f"only on INT, LONG has none; write Annotated[Literal[...], Int32] or "
                f"Annotated[Int32, IntValueConstraint([...])]"
            )
        return spec, FieldMarkers(instruction, serial)

    def _base(
        self, tp: Any, where: str, label: str, typevars: dict[Any, _Bound], allow_unit: bool
    ) -> TypeSpec:
        if tp is None or tp is type(None):
            if allow_unit:
                return TypeSpec(Kind.UNIT)
            raise AppFunctionCompileError(f"{where}: None is only a return type (no result)")
        if tp is bool:
            return TypeSpec(Kind.BOOLEAN)
        if tp is int:
            return TypeSpec(Kind.LONG)
        if tp is float:
            return TypeSpec(Kind.DOUBLE)
        if tp is str:
            return TypeSpec(Kind.STRING)
        if tp is bytes:
            return TypeSpec(Kind.BYTES)
        origin = get_origin(tp)
        if origin is Literal:
            return self._literal(tp, where, label)
        if tp is list or origin is list:
            return self._list(tp, where, label, typevars)
        if is_sealed(tp):
            return TypeSpec(Kind.ONE_OF, one_of=self.sealed_spec(tp, where))
        if is_serializable(tp):
            return TypeSpec(Kind.OBJECT, obj=self.object_spec(tp, (), where, typevars))
        if origin is not None and is_serializable(origin):
            return TypeSpec(Kind.OBJECT, obj=self.object_spec(origin, get_args(tp), where, typevars))
        if tp is Uri:
            return TypeSpec(Kind.URI)
        if tp in proxies.PROXY_BY_TYPE:
            return TypeSpec(Kind.PROXY, proxy=proxies.PROXY_BY_TYPE[tp])
        if isinstance(tp, type) and issubclass(tp, Parcelable):
            return TypeSpec(Kind.PARCELABLE, parcelable=_concrete_parcelable(tp, where, label))
        raise AppFunctionCompileError(f"{where}: {_unsupported(tp, label)}")

    def _union(self, members: list[Any], where: str, label: str, typevars: dict[Any, _Bound]) -> TypeSpec:
        """``A | B`` of serializable dataclasses: an unnamed ONE_OF of them."""
        cases = []
        for member in members:
            origin = get_origin(member) or member
            if not is_serializable(origin) or is_sealed(origin):
                raise AppFunctionCompileError(
                    f"{where}: {label} is a union of several types, which AppFunctions describe only "
                    f"for @app_function_serializable dataclasses (ONE_OF) and {type_label(member)} is "
                    f"not one; use one type, or a union of serializables"
                )
            cases.append(self.object_spec(origin, get_args(member), where, typevars))
        return TypeSpec(Kind.ONE_OF, one_of=OneOfSpec("", cases))

    def sealed_spec(self, cls: type, where: str) -> OneOfSpec:
        """A sealed serializable: ONE_OF its decorated direct subclasses, in definition order."""
        options = vars(cls)[SERIALIZABLE_ATTR]
        name = options.qualified_name or f"{self.namespace}.{clean_qualname(cls)}"
        known = self.one_ofs.get(name)
        if known is not None:
            return known
        if getattr(cls, "__parameters__", ()):
            raise AppFunctionCompileError(f"{where}: the sealed {cls.__name__} cannot be generic")
        subclasses = cls.__subclasses__()
        plain = [sub.__name__ for sub in subclasses if not is_serializable(sub)]
        if plain:
            # androidx: "All subclasses of X should be annotated with @AppFunctionSerializable."
            raise AppFunctionCompileError(
                f"{where}: every subclass of the sealed {cls.__name__} is one of its cases and must be "
                f"@app_function_serializable; decorate {', '.join(plain)}"
            )
        if not subclasses:
            raise AppFunctionCompileError(
                f"{where}: the sealed {cls.__name__} has no @app_function_serializable subclass; "
                f"declare its cases as decorated dataclasses that subclass it"
            )
        docs = class_docs(cls) if options.described_by_docstring else None
        spec = OneOfSpec(name, [], vars(cls).get(INSTRUCTION_ATTR) or (docs.description if docs else ""))
        self.one_ofs[name] = spec  # before the cases: a case may hold its sealed parent
        context = f"{clean_qualname(cls)} (used by {where})"
        spec.cases = [self.object_spec(sub, (), context, {}) for sub in subclasses]
        return spec

    def _literal(self, tp: Any, where: str, label: str) -> TypeSpec:
        values = get_args(tp)
        if values and all(isinstance(v, str) for v in values):
            return TypeSpec(Kind.STRING, string_constraint=StringValueConstraint(enum_values=values))
        if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return TypeSpec(Kind.LONG, int_enum=tuple(values))
        raise AppFunctionCompileError(
            f"{where}: {label} must list only strs or only ints (string or int enum values)"
        )

    def _list(self, tp: Any, where: str, label: str, typevars: dict[Any, _Bound]) -> TypeSpec:
        args = get_args(tp)
        if not args:
            raise AppFunctionCompileError(f"{where}: give the list's item type, e.g. list[str]")
        item, markers = self.resolve(args[0], f"{where} (list item)", typevars)
        if markers.instruction or markers.serial_name:
            raise AppFunctionCompileError(
                f"{where}: Instruction and SerialName go on the list, not on its items"
            )
        if item.kind is Kind.BYTES:
            raise AppFunctionCompileError(
                f"{where}: {label} is not supported (a list of bytes); wrap each bytes value in an "
                f"@app_function_serializable dataclass and use a list of that"
            )
        if item.kind is Kind.LIST:
            raise AppFunctionCompileError(
                f"{where}: {label} is a list of lists, which is not supported; wrap the inner list "
                f"in an @app_function_serializable dataclass"
            )
        if item.nullable and item.kind in PRIMITIVES and item.kind is not Kind.STRING:
            raise AppFunctionCompileError(
                f"{where}: the items of {label} cannot be None (primitive arrays hold values only); "
                f"use list[{item.kind.value}]"
            )
        return TypeSpec(Kind.LIST, item=item)

    def _apply_markers(self, spec: TypeSpec, markers: list[Any], where: str, label: str) -> None:
        for marker in markers:
            if marker is INT32:
                self._need(spec, (Kind.LONG, Kind.INT), "Int32", "int", where, label)
                spec.kind = Kind.INT
                bad = [v for v in spec.int_enum if not INT32_MIN <= v <= INT32_MAX]
                if bad:
                    raise AppFunctionCompileError(f"{where}: enum values {bad} do not fit in Int32")
            elif marker is FLOAT32:
                self._need(spec, (Kind.DOUBLE, Kind.FLOAT), "Float32", "float", where, label)
                spec.kind = Kind.FLOAT
            elif marker is INSTANT:
                if spec.proxy is not proxies.LOCAL_DATE_TIME and spec.proxy is not proxies.INSTANT:
                    raise AppFunctionCompileError(f"{where}: Instant applies to datetime, not {label}")
                spec.proxy = proxies.INSTANT
            elif isinstance(marker, StringValueConstraint):
                self._need(spec, (Kind.STRING,), "StringValueConstraint", "str", where, label)
                spec.string_constraint = _merge_string(spec.string_constraint, marker, where)
            elif isinstance(marker, IntValueConstraint):
                self._need(spec, (Kind.LONG, Kind.INT), "IntValueConstraint", "int", where, label)
                if spec.int_enum and marker.enum_values:
                    raise AppFunctionCompileError(f"{where}: give the int enum values once")
                spec.int_enum = marker.enum_values or spec.int_enum
                limit = (INT32_MIN, INT32_MAX) if spec.kind is Kind.INT else (INT64_MIN, INT64_MAX)
                bad = [v for v in spec.int_enum if not limit[0] <= v <= limit[1]]
                if bad:
                    raise AppFunctionCompileError(f"{where}: enum values {bad} are out of range")
            elif isinstance(marker, UriValueConstraint):
                if spec.kind is not Kind.URI:
                    raise AppFunctionCompileError(
                        f"{where}: UriValueConstraint applies to Uri, not {label}"
                    )
                spec.uri_schemes = marker.allowed_schemes

    @staticmethod
    def _need(spec: TypeSpec, kinds: tuple[Kind, ...], marker: str, py: str, where: str, label: str) -> None:
        if spec.kind not in kinds:
            raise AppFunctionCompileError(f"{where}: {marker} applies to {py}, not {label}")

    # ------------------------------------------------------------------ serializables
    def object_spec(
        self, cls: type, args: tuple, where: str, outer: dict[Any, _Bound]
    ) -> ObjectSpec:
        options = vars(cls)[SERIALIZABLE_ATTR]
        params = tuple(getattr(cls, "__parameters__", ()))
        if len(args) != len(params):
            if params and not args:
                raise AppFunctionCompileError(
                    f"{where}: {cls.__name__} is generic; give its type arguments, e.g. "
                    f"{cls.__name__}[{', '.join('str' for _ in params)}]"
                )
            raise AppFunctionCompileError(
                f"{where}: {cls.__name__} takes {len(params)} type argument(s), not {len(args)}"
            )
        typevars = {p: _Bound(a, outer) for p, a in zip(params, args)}
        arg_names = [self.resolve(a, f"{where} (type argument of {cls.__name__})", outer)[0].kotlin_name() for a in args]
        base = options.qualified_name or f"{self.namespace}.{clean_qualname(cls)}"
        name = base + (f"<{', '.join(arg_names)}>" if arg_names else "")
        known = self.objects.get(name)
        if known is not None:
            if known.cls is not cls:
                raise AppFunctionCompileError(
                    f"{where}: two serializable classes are both named {name}; give one a "
                    f"qualified_name"
                )
            return known

        spec = ObjectSpec(cls, name)
        self.objects[name] = spec  # before the fields: a class may refer to itself
        context = f"{clean_qualname(cls)} (used by {where})"
        docs = class_docs(cls) if options.described_by_docstring else None
        instruction = vars(cls).get(INSTRUCTION_ATTR)
        spec.description = instruction or (docs.description if docs else "")

        inherited: set[str] = set()
        for base_tp in vars(cls).get("__orig_bases__", cls.__bases__):
            self._base_class(spec, base_tp, typevars, context, inherited)

        try:
            hints = typing.get_type_hints(cls, include_extras=True)
        except Exception as e:  # NameError for an undefined name, etc.
            raise AppFunctionCompileError(f"{context}: cannot resolve its type hints: {e}") from e
        names: dict[str, str] = {}
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            prop_where = f"{context}: property '{f.name}'"
            type_spec, markers = self.resolve(hints[f.name], prop_where, typevars)
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            if has_default:
                check_optional(type_spec, prop_where)
            wire = markers.serial_name or wire_name(f.name)
            if wire in names:
                raise AppFunctionCompileError(
                    f"{prop_where}: wire name {wire!r} is also used by '{names[wire]}'; rename one "
                    f"or give it a SerialName"
                )
            names[wire] = f.name
            description = markers.instruction or (docs.lookup(f.name, wire) if docs else "")
            spec.properties.append(PropertySpec(f.name, wire, type_spec, not has_default, description))

        by_name = {p.py_name: p for p in spec.properties}
        for capability in spec.capabilities:
            for i, cap_prop in enumerate(capability.properties):
                actual = by_name.get(cap_prop.py_name)
                if actual is None:
                    raise AppFunctionCompileError(
                        f"{context}: implements {capability.cls.__name__} but has no field "
                        f"'{cap_prop.py_name}'; declare it as a dataclass field"
                    )
                capability.properties[i] = dataclasses.replace(cap_prop, required=actual.required)
        spec.own_properties = [p for p in spec.properties if p.py_name not in inherited]
        return spec

    def _base_class(
        self,
        spec: ObjectSpec,
        base_tp: Any,
        typevars: dict[Any, _Bound],
        context: str,
        inherited: set[str],
    ) -> None:
        origin = get_origin(base_tp) or base_tp
        if origin in (object, typing.Generic) or not isinstance(origin, type):
            return
        if is_sealed(origin):
            return  # a case of a sealed class is described on its own, not as ALL_OF it
        if is_serializable(origin):
            parent = self.object_spec(origin, get_args(base_tp), context, typevars)
            if origin is not base_tp:
                # A parametrized base binds type variables used by inherited fields.
                params = getattr(origin, "__parameters__", ())
                typevars.update({p: _Bound(a, typevars) for p, a in zip(params, get_args(base_tp))})
            spec.parents.append(parent)
            inherited.update(p.py_name for p in parent.properties)
            return
        if is_capability(origin):
            if any(c.cls is origin for c in spec.capabilities):
                return
            capability = self._capability(origin, context)
            spec.capabilities.append(capability)
            inherited.update(p.py_name for p in capability.properties)
            return
        if dataclasses.is_dataclass(origin) and dataclasses.fields(origin):
            raise AppFunctionCompileError(
                f"{context}: its base class {origin.__name__} has fields but is not "
                f"@app_function_serializable; decorate it too"
            )
        for grand in vars(origin).get("__orig_bases__", origin.__bases__):
            self._base_class(spec, grand, typevars, context, inherited)

    def _capability(self, cls: type, context: str) -> CapabilitySpec:
        try:
            hints = typing.get_type_hints(cls, include_extras=True)
        except Exception as e:
            raise AppFunctionCompileError(f"{context}: cannot resolve the hints of {cls.__name__}: {e}") from e
        name = vars(cls)[CAPABILITY_ATTR] or f"{self.namespace}.{clean_qualname(cls)}"
        capability = CapabilitySpec(cls, name)
        for name, annotation in hints.items():
            if typing.get_origin(annotation) is typing.ClassVar:
                continue
            type_spec, markers = self.resolve(annotation, f"{context}: capability property '{name}'")
            capability.properties.append(
                PropertySpec(name, markers.serial_name or wire_name(name), type_spec, True, markers.instruction or "")
            )
        return capability


def _concrete_parcelable(tp: type, where: str, label: str) -> type:
    """Like androidx, only an implementation of Parcelable: the base type says
    nothing about what crosses."""
    if tp is Parcelable or inspect.isabstract(tp):
        raise AppFunctionCompileError(
            f"{where}: use an implementation of Parcelable (e.g. Bundle); {label} is abstract"
        )
    if not getattr(tp, "QUALIFIED_NAME", ""):
        raise AppFunctionCompileError(
            f"{where}: {label} is a Parcelable without QUALIFIED_NAME; name its Java class, "
            f"e.g. QUALIFIED_NAME = \"com.example.Photo\""
        )
    return tp


def check_optional(spec: TypeSpec, where: str) -> None:
    """Only nullable, primitive, bytes and list types may have a default (be optional)."""
    if spec.may_be_optional:
        return
    label = spec.label or spec.kind.value
    raise AppFunctionCompileError(
        f"{where} has a default, but a non-nullable {label} cannot be optional: only nullable "
        f"types, bool, int, float, bytes and lists may be. Declare it `{label} | None = None` and "
        f"resolve the default in the function body, or remove the default"
    )


def _merge_string(
    old: StringValueConstraint | None, new: StringValueConstraint, where: str
) -> StringValueConstraint:
    for matcher in new.pattern_matchers:
        if matcher.type not in range(5):
            raise AppFunctionCompileError(
                f"{where}: PatternMatcher type {matcher.type} is not LITERAL 0, PREFIX 1, "
                f"SIMPLE_GLOB 2, ADVANCED_GLOB 3 or SUFFIX 4"
            )
        if matcher.type == 3:
            _compile(matcher.pattern, where)
    if new.pattern is not None:
        _compile(new.pattern, where)
    if old is None:
        return new
    if old.enum_values and new.enum_values:
        raise AppFunctionCompileError(f"{where}: give the string enum values once (Literal or constraint)")
    return StringValueConstraint(
        enum_values=old.enum_values or new.enum_values,
        pattern=new.pattern or old.pattern,
        pattern_matchers=old.pattern_matchers + new.pattern_matchers,
        format=new.format or old.format,
    )


def _compile(pattern: str, where: str) -> None:
    try:
        re.compile(pattern)
    except re.error as e:
        raise AppFunctionCompileError(f"{where}: invalid pattern {pattern!r}: {e}") from e


def _unsupported(tp: Any, label: str) -> str:
    origin = get_origin(tp) or tp
    if origin in (dict, typing.Dict) or _subclass(origin, typing.Mapping):  # type: ignore[arg-type]
        return f"{label} is not supported (no maps); use an @app_function_serializable dataclass"
    if origin in (set, frozenset) or _subclass(origin, typing.AbstractSet):  # type: ignore[arg-type]
        return f"{label} is not supported (no sets); use list[...]"
    if origin is tuple:
        return f"{label} is not supported (no tuples); use list[...] or an @app_function_serializable dataclass"
    if tp is Any or tp is object:
        return f"{label} is not supported; use a concrete type: {SUPPORTED}"
    if _subclass(origin, Enum):
        return (
            f"{label} is an Enum, which is not supported; use Literal[...] or "
            f"Annotated[str, StringValueConstraint(enum_values=[...])]"
        )
    if origin in (bytearray, memoryview):
        return f"{label} is not supported; use bytes"
    if origin is Decimal or origin is complex:
        return f"{label} is not supported; use float or str"
    if origin is timedelta:
        return f"{label} is not supported; use an int number of seconds (or milliseconds)"
    if _subclass(origin, typing.Iterable) and origin not in (str, bytes):  # type: ignore[arg-type]
        return f"{label} is not supported; use list[...]"
    if dataclasses.is_dataclass(origin):
        return f"{label} is a dataclass but not serializable; decorate it with @app_function_serializable"
    if isinstance(origin, type) and CAPABILITY_ATTR in vars(origin):
        return f"{label} is a schema capability; use a serializable dataclass that implements it"
    return f"{label} is not a supported AppFunction type; use {SUPPORTED}"


def _subclass(tp: Any, base: Any) -> bool:
    try:
        return isinstance(tp, type) and issubclass(tp, base)
    except TypeError:
        return False


__all__ = [
    "AppFunctionCompileError",
    "CapabilitySpec",
    "FieldMarkers",
    "Kind",
    "ObjectSpec",
    "OneOfSpec",
    "PropertySpec",
    "TypeResolver",
    "TypeSpec",
    "check_optional",
    "type_label",
    "wire_name",
]
