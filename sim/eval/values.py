"""Dates and times in either JSON shape the device may use.

A suite writes dates and times the way people do, as ISO text (``2025-06-14``,
``19:00``). On the wire a LocalDate may be ISO text or an object
(``{year, month, dayOfMonth}``), a LocalTime text or ``{hour, minute, second,
nanoOfSecond}``, depending on the function's metadata. ``as_iso`` reads either
shape as text, for matching; ``fit_to_schema`` writes suite values in the shape
a parameter's JSON Schema asks for, for the suite's own calls and the oracle.
"""

from __future__ import annotations

import re
from typing import Any

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$")
_DATE_FIELDS = ("year", "month", "dayOfMonth")
_TIME_FIELDS = ("hour", "minute")


def as_iso(value: Any) -> Any:
    """A date or time object (or ISO time with zero seconds) as short ISO text; anything else as is."""
    if isinstance(value, dict):
        if all(isinstance(value.get(k), int) for k in _DATE_FIELDS):
            return f"{value['year']:04d}-{value['month']:02d}-{value['dayOfMonth']:02d}"
        if all(isinstance(value.get(k), int) for k in _TIME_FIELDS):
            return _time_text(value["hour"], value["minute"], value.get("second") or 0)
    if isinstance(value, str):
        match = _TIME.match(value)
        if match:
            return _time_text(int(match.group(1)), int(match.group(2)), int(match.group(3) or 0))
    return value


def fit_to_schema(value: Any, schema: dict[str, Any] | None) -> Any:
    """``value`` shaped for ``schema``: ISO text becomes the date or time object where one is wanted."""
    if not schema or not isinstance(value, (str, dict, list)):
        return value
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    properties = schema.get("properties") or {}
    if isinstance(value, str) and "object" in kinds:
        date, time = _DATE.match(value), _TIME.match(value)
        if date and set(_DATE_FIELDS) <= set(properties):
            return dict(zip(_DATE_FIELDS, map(int, date.groups())))
        if time and set(_TIME_FIELDS) <= set(properties):
            fields = {"hour": int(time.group(1)), "minute": int(time.group(2)), "second": int(time.group(3) or 0),
                      "nanoOfSecond": 0}
            return {k: v for k, v in fields.items() if k in properties}
    if isinstance(value, dict) and properties:
        return {k: fit_to_schema(v, properties.get(k)) for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [fit_to_schema(v, schema["items"]) for v in value]
    return value


def fit_arguments(args: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    properties = parameters.get("properties") or {}
    return {k: fit_to_schema(v, properties.get(k)) for k, v in args.items()}


def _time_text(hour: int, minute: int, second: int) -> str:
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second else "")
