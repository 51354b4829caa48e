"""JSON <-> AppFunctionData, driven by a function's metadata.

JSON is what people, the CLI, MCP and models speak; AppFunctionData is typed.
Metadata decides each value's type (3 for a DOUBLE becomes 3.0, base64 text for
BYTES becomes bytes) and every mismatch names the parameter that caused it.
Functions without a signature (v1 XML) get types inferred from the JSON itself.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import re
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Mapping

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionInvalidArgumentException
from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    SET_FIELD,
    DataType,
    short_type_name,
)

_INTEGER_TYPES = {DataType.INT, DataType.LONG}
_REAL_TYPES = {DataType.FLOAT, DataType.DOUBLE}


class _Components:
    def __init__(self, components: AppFunctionComponentsMetadata | None) -> None:
        self._types = {t.name: t.data_type for t in components.data_types} if components else {}

    def resolve(self, data_type: AppFunctionDataTypeMetadata, path: str) -> AppFunctionDataTypeMetadata:
        seen = set()
        while data_type.type == DataType.REFERENCE:
            name = data_type.data_type_reference
            if name in seen or name not in self._types:
                raise AppFunctionInvalidArgumentException(f"{path}: unknown type {name!r}")
            seen.add(name)
            data_type = self._types[name]
        return data_type

    def object_properties(self, data_type: AppFunctionDataTypeMetadata, path: str) -> tuple[dict, set]:
        """Properties and required names of an OBJECT, ALL_OF parents included."""
        properties: dict[str, AppFunctionDataTypeMetadata] = {}
        required: set[str] = set()
        for parent in data_type.all_of:
            parent_props, parent_required = self.object_properties(self.resolve(parent, path), path)
            properties.update(parent_props)
            required |= parent_required
        properties.update({p.name: p.data_type for p in data_type.properties})
        required |= set(data_type.required)
        return properties, required


class UnknownKeyError(AppFunctionInvalidArgumentException):
    """A key the metadata does not declare. The app would ignore it (Jetpack's dispatcher reads
    the declared names only), so a caller that has the metadata refuses it instead: a typo in
    hand-written JSON must not silently drop an argument."""


def close_names(key: str, names: list[str]) -> list[str]:
    """The declared names ``key`` may be a misspelling of: close as a whole, else close to one
    word of the name (``titel`` for ``titleContains``); a Python name finds its wire name."""
    folded = {re.sub(r"[_\W]", "", name).lower(): name for name in names}
    whole = difflib.get_close_matches(re.sub(r"[_\W]", "", key).lower(), list(folded), n=3)
    if whole:
        return [folded[match] for match in whole]
    words = {name: re.findall(r"[a-z0-9]+", re.sub(r"([A-Z])", r"_\1", name).lower()) for name in names}
    return [name for name in names if difflib.get_close_matches(key.lower(), words[name], n=1, cutoff=0.75)][:3]


def did_you_mean(key: str, names: list[str]) -> str:
    close = close_names(key, names)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def parameters_from_json(
    function: AppFunctionMetadata | None,
    values: Mapping[str, Any],
    components: AppFunctionComponentsMetadata | None = None,
    where: str = "",
) -> AppFunctionData:
    """The parameters document for ``function`` built from a JSON object; with no
    metadata (unknown function, or v1 XML without a signature) types come from JSON.
    ``where``, when given, is where the object was found (``calls[2].parameters``): each
    error then names its parameter below it."""

    def at(name: str) -> str:
        return f"{where}.{name}" if where else name

    if not isinstance(values, Mapping):
        raise AppFunctionInvalidArgumentException(f"Parameter {where}: expected an object" if where else
                                                  "Parameters must be a JSON object")
    if function is None or (not function.parameters and not function.HasField("response")):
        return AppFunctionData({k: _infer(v, k) for k, v in values.items()})
    known = {p.name: p for p in function.parameters}
    unknown = sorted(set(values) - set(known))
    if unknown and where:
        raise AppFunctionInvalidArgumentException(
            f"Parameter {at(unknown[0])}: {function.id} has no such parameter{did_you_mean(unknown[0], list(known))} "
            f"(it takes: {', '.join(known) or 'nothing'})"
        )
    if unknown:
        raise UnknownKeyError(
            f"Unknown parameter {unknown[0]!r}{did_you_mean(unknown[0], list(known))}; "
            f"{function.id} takes: {', '.join(known) or 'nothing'}"
        )
    types = _Components(components)
    document = {}
    for name, parameter in known.items():
        if name not in values:
            # The platform's rule (AppFunctionDataParameterExtractor): only a missing required
            # non-null value is an error; the app receives an omitted nullable one as null.
            if parameter.is_required and not parameter.data_type.is_nullable:
                raise AppFunctionInvalidArgumentException(f"Parameter {at(name)} is required")
            continue
        document[name] = _convert(values[name], parameter.data_type, at(name), types)
    return AppFunctionData(document)


def value_from_json(
    value: Any,
    data_type: AppFunctionDataTypeMetadata,
    components: AppFunctionComponentsMetadata | None = None,
    path: str = "value",
) -> Any:
    return _convert(value, data_type, path, _Components(components))


def parts_of(data_type: AppFunctionDataTypeMetadata, components: AppFunctionComponentsMetadata | None = None,
             path: str = "value") -> tuple[dict[str, AppFunctionDataTypeMetadata] | None, AppFunctionDataTypeMetadata | None]:
    """An object type's declared fields, or a list type's item type (the other is None), its references
    resolved: for a caller that checks part of a value, as a suite's matcher names some of an object's fields."""
    types = _Components(components)
    resolved = types.resolve(data_type, path)
    if resolved.type in (DataType.OBJECT, DataType.ALL_OF):
        return types.object_properties(resolved, path)[0], None
    return None, resolved.item_type if resolved.type == DataType.ARRAY else None


def _convert(value: Any, data_type: AppFunctionDataTypeMetadata, path: str, types: _Components) -> Any:
    if value is None:
        if data_type.is_nullable or data_type.type == DataType.UNIT:
            return None
        raise AppFunctionInvalidArgumentException(f"Parameter {path} must not be null")
    data_type = types.resolve(data_type, path)
    kind = data_type.type
    if isinstance(value, str) and data_type.object_qualified_name in _FROM_TEXT:
        return _from_text(value, data_type.object_qualified_name, path)
    if kind == DataType.BOOLEAN and isinstance(value, bool):
        return value
    if kind in _INTEGER_TYPES and isinstance(value, int) and not isinstance(value, bool):
        return _check_int_enum(value, data_type, path)
    if kind in _REAL_TYPES and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if kind == DataType.STRING and isinstance(value, str):
        return _check_string_enum(value, data_type, path)
    if kind == DataType.BYTES and isinstance(value, str):
        return _decode_base64(value, path)
    if kind == DataType.ARRAY and isinstance(value, list):
        item = data_type.item_type
        return [_convert(v, item, f"{path}[{i}]", types) for i, v in enumerate(value)]
    if kind in (DataType.OBJECT, DataType.ALL_OF) and isinstance(value, Mapping):
        return _object(value, data_type, path, types)
    if kind == DataType.ONE_OF and isinstance(value, Mapping):
        return _one_of(value, data_type, path, types)
    if kind == DataType.PARCELABLE and isinstance(value, Mapping):
        return AppFunctionData({k: _infer(v, f"{path}.{k}") for k, v in value.items()})
    raise AppFunctionInvalidArgumentException(
        f"Parameter {path}: expected {_accepted_forms(data_type, path, types)}, got {_json_type(value)}"
    )


def _accepted_forms(data_type: AppFunctionDataTypeMetadata, path: str, types: _Components) -> str:
    """What a value of ``data_type`` may be written as: an object's field names, a date's text."""
    if data_type.object_qualified_name in _FROM_TEXT:
        fields = ", ".join(p.name for p in data_type.properties)
        return f"text ({_FROM_TEXT[data_type.object_qualified_name][1]}) or an object {{{fields}}}"
    if data_type.object_qualified_name.startswith(f"{SET_FIELD}<"):
        return (f'a {short_type_name(data_type.object_qualified_name)}, written {{"value": ...}} (a bare value is no '
                "SetField; leave the parameter out to keep the field as it is)")
    if data_type.type in (DataType.OBJECT, DataType.ALL_OF):
        fields = ", ".join(types.object_properties(data_type, path)[0])
        return f"an object {{{fields}}} ({data_type.object_qualified_name or 'a document'})"
    return _describe(data_type.type)



def _object(value: Mapping, data_type: AppFunctionDataTypeMetadata, path: str, types: _Components) -> AppFunctionData:
    properties, required = types.object_properties(data_type, path)
    unknown = sorted(set(value) - set(properties))
    if unknown:
        raise UnknownKeyError(
            f"Parameter {path}: unknown field {unknown[0]!r}{did_you_mean(unknown[0], list(properties))}; "
            f"its fields: {', '.join(properties) or 'none'}"
        )
    missing = sorted(required - set(value))
    if missing:
        raise AppFunctionInvalidArgumentException(f"Parameter {path}.{missing[0]} is required; {path} is "
                                                  f"{_accepted_forms(data_type, path, types)}")
    document = {
        name: _convert(value[name], prop_type, f"{path}.{name}", types)
        for name, prop_type in properties.items()
        if name in value
    }
    return AppFunctionData(document, qualified_name=data_type.object_qualified_name)


def _one_of(value: Mapping, data_type: AppFunctionDataTypeMetadata, path: str, types: _Components) -> AppFunctionData:
    """The first case the object fits, as JSON Schema's anyOf reads; the document
    carries that case's qualified name, which is how the app tells the cases apart."""
    misfits = []
    for case in data_type.one_of:
        try:
            return _convert(value, case, path, types)
        except AppFunctionInvalidArgumentException as e:
            misfits.append(f"{case.data_type_reference or 'case'}: {e.error_message}")
    raise AppFunctionInvalidArgumentException(f"Parameter {path} fits none of its cases ({'; '.join(misfits)})")


def _from_text(value: str, qualified_name: str, path: str) -> AppFunctionData:
    """A date, time, instant or zone written as text (ISO 8601 for the java.time types), as a
    person types it, into the document the app's type reads."""
    from droid.appfunctions import proxies  # only for such values: the module imports zoneinfo and more

    proxy = {p.qualified_name: p for p in (proxies.LOCAL_DATE, proxies.LOCAL_TIME, proxies.LOCAL_DATE_TIME,
                                            proxies.INSTANT, proxies.ZONE_ID)}[qualified_name]
    parse, example = _FROM_TEXT[qualified_name]
    try:
        return AppFunctionData(proxy.to_fields(parse(value)), qualified_name=qualified_name)
    except (ValueError, KeyError) as error:
        raise AppFunctionInvalidArgumentException(
            f"Parameter {path}: {value!r} is not a {qualified_name.rsplit('.', 1)[-1]} ({example}): {error}"
        ) from None


def _zone_id(text: str) -> Any:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError("unknown time zone") from None


# Text forms accepted for library types, with an example for the error message.
_FROM_TEXT = {
    "java.time.LocalDate": (date.fromisoformat, "e.g. 2025-06-14"),
    "java.time.LocalTime": (time.fromisoformat, "e.g. 19:30 or 19:30:15"),
    "java.time.LocalDateTime": (datetime.fromisoformat, "e.g. 2025-06-14T19:30"),
    "java.time.Instant": (datetime.fromisoformat, "e.g. 2025-06-14T17:30:00Z"),
    "java.time.ZoneId": (_zone_id, "e.g. Europe/Paris"),
}


def _check_string_enum(value: str, data_type: AppFunctionDataTypeMetadata, path: str) -> str:
    if data_type.enum_values and value not in data_type.enum_values:
        allowed = ", ".join(data_type.enum_values)
        raise AppFunctionInvalidArgumentException(f"Parameter {path} must be one of: {allowed}")
    return value


def _check_int_enum(value: int, data_type: AppFunctionDataTypeMetadata, path: str) -> int:
    if data_type.enum_values and str(value) not in data_type.enum_values:
        allowed = ", ".join(data_type.enum_values)
        raise AppFunctionInvalidArgumentException(f"Parameter {path} must be one of: {allowed}")
    return value


def _decode_base64(value: str, path: str) -> bytes:
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise AppFunctionInvalidArgumentException(f"Parameter {path}: bytes must be base64 text") from None


def _infer(value: Any, path: str) -> Any:
    """Types for functions without a signature: JSON's own."""
    if isinstance(value, Mapping):
        return AppFunctionData({k: _infer(v, f"{path}.{k}") for k, v in value.items()})
    if isinstance(value, list):
        return [_infer(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def to_json(value: Any) -> Any:
    """JSON-ready form of a value: documents become objects, bytes base64 text."""
    if isinstance(value, AppFunctionData):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


def readable(value: Any, spoken: bool = False) -> Any:
    """A result's JSON as a person reads it: each date, time, instant, zone or URI object (a proxy's
    fields, ``{year, month, dayOfMonth}``...) as ISO 8601 text (``2026-03-14``, ``10:30``,
    ``2026-03-14T10:30``, ``2026-03-14T09:00:00Z``) or the zone's or URI's own text; the rest as it is.
    ``spoken``: as a sentence says it, a space between date and time (``2026-03-14 10:30``,
    ``2026-03-14 09:00 UTC``)."""
    if isinstance(value, list):
        return [readable(v, spoken) for v in value]
    if not isinstance(value, Mapping):
        return value
    text = _proxy_text(value, spoken)
    return text if text is not None else {k: readable(v, spoken) for k, v in value.items()}


# A proxy's fields, by their names, and the value they make.
_MOMENTS = {
    frozenset({"year", "month", "dayOfMonth"}): lambda f: date(f["year"], f["month"], f["dayOfMonth"]),
    frozenset({"hour", "minute", "second", "nanoOfSecond"}):
        lambda f: time(f["hour"], f["minute"], f["second"], f["nanoOfSecond"] // 1000),
    frozenset({"year", "month", "dayOfMonth", "hour", "minute", "second", "nanoOfSecond"}):
        lambda f: datetime(f["year"], f["month"], f["dayOfMonth"], f["hour"], f["minute"], f["second"],
                           f["nanoOfSecond"] // 1000),
    frozenset({"epochSecond", "nanoAdjustment"}): lambda f: (
        datetime.fromtimestamp(f["epochSecond"], timezone.utc) + timedelta(microseconds=f["nanoAdjustment"] // 1000)),
}


def _proxy_text(fields: Mapping, spoken: bool) -> str | None:
    keys = frozenset(fields)
    if keys in (frozenset({"zoneID"}), frozenset({"uri"})) and isinstance(next(iter(fields.values())), str):
        return next(iter(fields.values()))
    make = _MOMENTS.get(keys)
    if make is None or not all(isinstance(v, int) and not isinstance(v, bool) for v in fields.values()):
        return None
    try:
        moment = make(fields)
    except (ValueError, OverflowError, OSError):
        return None  # not a date after all: said as it is
    if isinstance(moment, date) and not isinstance(moment, datetime):
        return moment.isoformat()
    clock = moment.time() if isinstance(moment, datetime) else moment
    shown = clock.isoformat(timespec="minutes" if not (clock.second or clock.microsecond) else "auto")
    if not isinstance(moment, datetime):
        return shown
    utc = moment.tzinfo is not None
    if spoken:
        return f"{moment.date().isoformat()} {shown}" + (" UTC" if utc else "")
    return f"{moment.date().isoformat()}T{shown}" + ("Z" if utc else "")


def _describe(kind: int) -> str:
    names = {
        DataType.BOOLEAN: "a boolean",
        DataType.INT: "an integer",
        DataType.LONG: "an integer",
        DataType.FLOAT: "a number",
        DataType.DOUBLE: "a number",
        DataType.STRING: "a string",
        DataType.BYTES: "base64 text",
        DataType.ARRAY: "a list",
        DataType.OBJECT: "an object",
        DataType.ALL_OF: "an object",
        DataType.ONE_OF: "an object",
        DataType.PARCELABLE: "an object",
        DataType.UNIT: "nothing",
    }
    return names.get(kind, f"type {kind}")


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__
