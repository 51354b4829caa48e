"""Run-time conversion between AppFunctionData and Python values, by declared type.

Arguments are decoded and checked against the function's spec (the same spec
the XML is written from): a missing required value, a wrong type or a broken
constraint raises ``AppFunctionInvalidArgumentException`` naming the parameter,
with a path into nested documents (``note.attachments[1].uri``). A missing
parameter is worded as androidx's dispatcher words it, droidsim's own text on a
second line (``missing_parameter``). Return values
are encoded by their declared type; a value that does not fit is the app's bug
and raises ``EncodingError``.
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from typing import Any, Callable

from droid.appfunctions import proxies
from droid.appfunctions.analysis import FunctionSpec
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.declarations import (
    PATTERN_ADVANCED_GLOB,
    PATTERN_LITERAL,
    PATTERN_PREFIX,
    PATTERN_SIMPLE_GLOB,
    PATTERN_SUFFIX,
    PatternMatcher,
)
from droid.appfunctions.exceptions import AppFunctionInvalidArgumentException
from droid.appfunctions.function_xml import data_type_meta, data_type_proto
from droid.appfunctions.kotlin_strings import missing_parameter_message
from droid.appfunctions.metadata import DataType
from droid.appfunctions.typeref import INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, Kind, ObjectSpec, TypeSpec
from droid.net.uri import Uri, has_scheme

_WIRE_KIND = {
    Kind.BOOLEAN: "a boolean",
    Kind.LONG: "an integer (long)",
    Kind.INT: "an integer (int)",
    Kind.DOUBLE: "a number (double)",
    Kind.FLOAT: "a number (float)",
    Kind.STRING: "a string",
    Kind.BYTES: "bytes",
    Kind.LIST: "a list",
    Kind.OBJECT: "a document",
    Kind.ONE_OF: "a document",
    Kind.PROXY: "a document",
    Kind.URI: "a uri string",
    Kind.PARCELABLE: "a Parcelable document",
}


class EncodingError(ValueError):
    """A function returned a value that does not match its declared return type."""


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (bytes, bytearray)):
        return "bytes"
    if isinstance(value, AppFunctionData):
        return "a document"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def _invalid(path: str, message: str) -> AppFunctionInvalidArgumentException:
    return AppFunctionInvalidArgumentException(f"Parameter {path} {message}")


# --------------------------------------------------------------------------- primitives
_NOT_PRIMITIVE = object()
# What a primitive kind accepts, on either side of the binder (a bool is never a number).
_PRIMITIVE_TYPES: dict[Kind, tuple[type, ...]] = {
    Kind.LONG: (int,), Kind.INT: (int,), Kind.DOUBLE: (int, float), Kind.FLOAT: (int, float),
    Kind.BOOLEAN: (bool,), Kind.STRING: (str,),
}


def _primitive(
    spec: TypeSpec, value: Any, wrong: Callable[[], Exception], out_of_range: Callable[[int], Exception]
) -> Any:
    """``value`` checked for a primitive kind, or _NOT_PRIMITIVE for other kinds. Decoding and
    encoding share the checks and differ only in the error they raise."""
    kind = spec.kind
    accepted = _PRIMITIVE_TYPES.get(kind)
    if accepted is None:
        return _NOT_PRIMITIVE
    if not isinstance(value, accepted) or (isinstance(value, bool) and kind is not Kind.BOOLEAN):
        raise wrong()
    if kind in (Kind.DOUBLE, Kind.FLOAT):
        return float(value)
    if kind in (Kind.LONG, Kind.INT):
        low, high = (INT32_MIN, INT32_MAX) if kind is Kind.INT else (INT64_MIN, INT64_MAX)
        if not low <= value <= high:
            raise out_of_range(32 if kind is Kind.INT else 64)
    return value


# --------------------------------------------------------------------------- decoding
def decode_arguments(fn: FunctionSpec, data: AppFunctionData) -> dict[str, Any]:
    """Keyword arguments for ``fn`` from the request's parameters document. A property that is
    no parameter is ignored, as Jetpack's dispatcher reads only the declared ones."""
    kwargs: dict[str, Any] = {}
    for p in fn.parameters:
        if p.wire_name not in data:
            if p.required and not p.type.nullable:
                raise missing_parameter(p.wire_name, p.type)
            kwargs[p.py_name] = p.type.omitted_value()
            continue
        kwargs[p.py_name] = decode_value(p.type, data[p.wire_name], p.wire_name)
    return kwargs


def missing_parameter(name: str, spec: TypeSpec) -> AppFunctionInvalidArgumentException:
    """A required parameter the request lacks, as androidx's dispatcher refuses it."""
    return AppFunctionInvalidArgumentException(missing_parameter_message(name, data_type_proto(data_type_meta(spec))))


def decode_value(spec: TypeSpec, value: Any, path: str) -> Any:
    """One value from the wire as the Python type ``spec`` describes."""
    if value is None:
        if spec.nullable:
            return None
        raise _invalid(path, "must not be null")
    kind = spec.kind
    primitive = _primitive(
        spec, value,
        lambda: _wrong(spec, value, path),
        lambda bits: _invalid(path, f"is out of range for a {bits}-bit int: {value}"),
    )
    if primitive is not _NOT_PRIMITIVE:
        if kind in (Kind.LONG, Kind.INT) and spec.int_enum and value not in spec.int_enum:
            raise _invalid(path, f"must be one of {', '.join(map(str, spec.int_enum))}; got {value}")
        if kind is Kind.STRING:
            _check_string(spec, value, path)
        return primitive
    if kind is Kind.BYTES:
        if not isinstance(value, (bytes, bytearray)):
            raise _wrong(spec, value, path)
        return bytes(value)
    if kind is Kind.LIST:
        if not isinstance(value, (list, tuple)):
            raise _wrong(spec, value, path)
        assert spec.item is not None
        return [decode_value(spec.item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if kind is Kind.OBJECT:
        if not isinstance(value, AppFunctionData):
            raise _wrong(spec, value, path)
        assert spec.obj is not None
        return decode_object(spec.obj, value, path)
    if kind is Kind.ONE_OF:
        if not isinstance(value, AppFunctionData):
            raise _wrong(spec, value, path)
        return decode_object(_case_named(spec, value, path), value, path)
    if kind is Kind.PROXY:
        return _decode_proxy(spec, value, path)
    if kind is Kind.URI:
        return _decode_uri(spec, value, path)
    if kind is Kind.PARCELABLE:
        if not isinstance(value, AppFunctionData):
            raise _wrong(spec, value, path)
        assert spec.parcelable is not None
        try:
            return proxies.parcelable_from_data(spec.parcelable, value)
        except (ValueError, TypeError, KeyError) as e:
            raise _invalid(path, f"is not a valid {spec.parcelable.__name__}: {e}") from None
    raise _invalid(path, f"has a type this device cannot read ({kind.value})")


def decode_object(obj: ObjectSpec, doc: AppFunctionData, path: str) -> Any:
    known = {p.wire_name for p in obj.properties}
    unknown = sorted(k for k in doc if k not in known)
    if unknown:
        raise _invalid(
            f"{path}.{unknown[0]}",
            f"is not a property of {obj.qualified_name}; its properties are: "
            f"{', '.join(p.wire_name for p in obj.properties) or 'none'}",
        )
    kwargs: dict[str, Any] = {}
    for prop in obj.properties:
        sub = f"{path}.{prop.wire_name}"
        if prop.wire_name not in doc:
            if prop.required and not prop.type.nullable:
                raise _invalid(sub, "is required")
            kwargs[prop.py_name] = prop.type.omitted_value()
        else:
            kwargs[prop.py_name] = decode_value(prop.type, doc[prop.wire_name], sub)
    try:
        return obj.cls(**kwargs)
    except Exception as e:  # the dataclass's own validation (__post_init__)
        raise _invalid(path, f"is not a valid {obj.cls.__name__}: {e}") from None


def _case_named(spec: TypeSpec, doc: AppFunctionData, path: str) -> ObjectSpec:
    """The case a ONE_OF document is, by its qualified name (the androidx factory's
    ``when (appFunctionData.qualifiedName)``)."""
    assert spec.one_of is not None
    case = spec.one_of.case_named(doc.qualified_name)
    if case is None:
        cases = ", ".join(c.qualified_name for c in spec.one_of.cases)
        raise _invalid(
            path, f"must be a document whose qualified name is one of {cases}; got {doc.qualified_name or 'none'!r}"
        )
    return case


def _decode_uri(spec: TypeSpec, value: Any, path: str) -> Uri:
    if isinstance(value, AppFunctionData) and isinstance(value.get("uri"), str):
        value = value["uri"]  # the {uri} document of androidx before format "uri"
    if not isinstance(value, str):
        raise _wrong(spec, value, path)
    uri = Uri.parse(value)
    if spec.uri_schemes and not has_scheme(uri, spec.uri_schemes):
        raise _invalid(
            path,
            f"must use the scheme {' or '.join(spec.uri_schemes)}; got {uri.scheme or 'no scheme'} ({uri})",
        )
    return uri


def _decode_proxy(spec: TypeSpec, value: Any, path: str) -> Any:
    proxy = spec.proxy
    assert proxy is not None
    if not isinstance(value, AppFunctionData):
        raise _wrong(spec, value, path)
    fields: dict[str, Any] = {}
    for name, code in proxy.fields:
        sub = f"{path}.{name}"
        if name not in value or value[name] is None:
            raise _invalid(sub, "is required")
        item = value[name]
        if code is DataType.STRING:
            if not isinstance(item, str):
                raise _invalid(sub, f"must be a string, not {_describe(item)}")
        elif not isinstance(item, int) or isinstance(item, bool):
            raise _invalid(sub, f"must be an integer, not {_describe(item)}")
        fields[name] = item
    try:
        return proxy.from_fields(fields)
    except (ValueError, OverflowError) as e:
        raise _invalid(path, f"is not a valid {proxy.label}: {e}") from None


def _wrong(spec: TypeSpec, value: Any, path: str) -> AppFunctionInvalidArgumentException:
    return _invalid(path, f"must be {_WIRE_KIND.get(spec.kind, spec.kind.value)}, not {_describe(value)}")


def _check_string(spec: TypeSpec, value: str, path: str) -> None:
    constraint = spec.string_constraint
    if constraint is None:
        return
    if constraint.enum_values and value not in constraint.enum_values:
        raise _invalid(path, f"must be one of {', '.join(constraint.enum_values)}; got {value!r}")
    if constraint.pattern is not None and not re.fullmatch(constraint.pattern, value):
        raise _invalid(path, f"must match the pattern {constraint.pattern}; got {value!r}")
    matchers = constraint.pattern_matchers
    if matchers and not any(pattern_matches(m, value) for m in matchers):
        shown = ", ".join(m.pattern for m in matchers)
        raise _invalid(path, f"must match one of the patterns {shown}; got {value!r}")


def pattern_matches(matcher: PatternMatcher, value: str) -> bool:
    """``android.os.PatternMatcher`` semantics for the five pattern types; an
    unknown type matches nothing."""
    pattern, kind = matcher.pattern, matcher.type
    if kind == PATTERN_LITERAL:
        return value == pattern
    if kind == PATTERN_PREFIX:
        return value.startswith(pattern)
    if kind == PATTERN_SUFFIX:
        return value.endswith(pattern)
    if kind in (PATTERN_SIMPLE_GLOB, PATTERN_ADVANCED_GLOB):
        regex = _simple_glob(pattern) if kind == PATTERN_SIMPLE_GLOB else pattern
        try:
            return re.fullmatch(regex, value) is not None
        except re.error:
            return False
    return False


@lru_cache(maxsize=256)
def _simple_glob(pattern: str) -> str:
    """SIMPLE_GLOB: ``.`` is any character, ``*`` repeats the previous one, ``\\`` escapes."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append("." if ch == "." else "*" if ch == "*" and out else re.escape(ch))
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------- encoding
def encode_value(spec: TypeSpec, value: Any, path: str = "value") -> Any:
    """``value`` as AppFunctionData carries it, checked against ``spec``."""
    if value is None:
        if spec.nullable or spec.kind is Kind.UNIT:
            return None
        raise EncodingError(f"{path} is None, but {spec.label or spec.kind.value} is not nullable")
    kind = spec.kind
    if kind is Kind.UNIT:
        return None
    primitive = _primitive(
        spec, value,
        lambda: _bad_return(spec, value, path),
        lambda bits: EncodingError(f"{path} is out of range for {spec.label or kind.value}: {value}"),
    )
    if primitive is not _NOT_PRIMITIVE:
        return primitive
    if kind is Kind.BYTES:
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise _bad_return(spec, value, path)
        return bytes(value)
    if kind is Kind.LIST:
        if not isinstance(value, (list, tuple)):
            raise _bad_return(spec, value, path)
        assert spec.item is not None
        items = [encode_value(spec.item, v, f"{path}[{i}]") for i, v in enumerate(value)]
        if any(v is None for v in items):
            raise EncodingError(f"{path} holds None, which a list cannot carry across the binder")
        return items
    if kind is Kind.OBJECT:
        obj = spec.obj
        assert obj is not None
        if not isinstance(value, obj.cls):
            raise _bad_return(spec, value, path)
        declared = {p.py_name for p in obj.properties}
        lost = [f.name for f in dataclasses.fields(value) if f.init and f.name not in declared]
        if lost:
            raise EncodingError(
                f"{path} is a {type(value).__name__}, a subclass of the declared {obj.cls.__name__}, whose "
                f"fields {', '.join(lost)} would be lost; declare {type(value).__name__}, or make "
                f"{obj.cls.__name__} a sealed serializable with it as a case"
            )
        return _encode_object(obj, value, path)
    if kind is Kind.ONE_OF:
        assert spec.one_of is not None
        case = spec.one_of.case_of(value)
        if case is None:
            raise _bad_return(spec, value, path)
        return _encode_object(case, value, path)
    if kind is Kind.PROXY:
        proxy = spec.proxy
        assert proxy is not None
        if not proxy.accepts(value):
            raise _bad_return(spec, value, path)
        try:
            return AppFunctionData(proxy.to_fields(value), qualified_name=proxy.qualified_name)
        except ValueError as e:
            raise EncodingError(f"{path}: {e}") from None
    if kind is Kind.URI:
        if not isinstance(value, Uri):
            raise _bad_return(spec, value, path)
        return str(value)
    if kind is Kind.PARCELABLE:
        if not isinstance(value, spec.parcelable):  # type: ignore[arg-type]
            raise _bad_return(spec, value, path)
        try:
            return proxies.parcelable_to_data(value)
        except TypeError as e:
            raise EncodingError(f"{path}: {e}") from None
    raise EncodingError(f"{path}: cannot encode {kind.value}")


def _encode_object(obj: ObjectSpec, value: Any, path: str) -> AppFunctionData:
    return AppFunctionData(
        {p.wire_name: encode_value(p.type, getattr(value, p.py_name), f"{path}.{p.wire_name}") for p in obj.properties},
        qualified_name=obj.qualified_name,
    )


def encode_arguments(fn: FunctionSpec, **arguments: Any) -> AppFunctionData:
    """A parameters document for ``fn`` from Python values keyed by Python name
    (what a caller in Python, e.g. a test, would send)."""
    by_name = {p.py_name: p for p in fn.parameters}
    values: dict[str, Any] = {}
    for name, value in arguments.items():
        param = by_name.get(name)
        if param is None:
            raise TypeError(f"{fn.id} has no parameter {name!r}")
        values[param.wire_name] = encode_value(param.type, value, name)
    return AppFunctionData(values)


def _bad_return(spec: TypeSpec, value: Any, path: str) -> EncodingError:
    expected = spec.label or spec.kind.value
    return EncodingError(f"{path} is {_describe(value)} ({type(value).__name__}), but the declared type is {expected}")
