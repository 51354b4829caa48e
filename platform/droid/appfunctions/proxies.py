"""Serializable proxies: library types sent as small documents (jetpack-androidx.md §3).

========================  ====================  ==============================================
Python type               qualified name        fields on the wire
========================  ====================  ==============================================
``datetime.date``         java.time.LocalDate   year, month, dayOfMonth (INT)
``datetime.time``         java.time.LocalTime   hour, minute, second, nanoOfSecond (INT)
``datetime.datetime``     java.time.LocalDateTime  year .. nanoOfSecond (INT), naive only
``Instant`` (aware dt)    java.time.Instant     epochSecond (LONG), nanoAdjustment (INT)
``zoneinfo.ZoneInfo``     java.time.ZoneId      zoneID (STRING)
========================  ====================  ==============================================

Python keeps microseconds: ``nanoOfSecond`` / ``nanoAdjustment`` are multiples of
1000 when sent, and truncated to microseconds when received.

``droid.net.Uri`` is not a proxy: it is a STRING of format ``uri`` (see typeref).
A Parcelable (13) crosses as a document named by its Java class: its own
``write_to_parcel`` properties, or for ``droid.app.PendingIntent`` the form
defined here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from droid.app.pending_intent import ComponentName, Intent, PendingIntent
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.metadata import DataType
from droid.net.uri import Uri
from droid.os.parcelable import Parcelable

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True, eq=False)
class ProxySpec:
    """A library type sent as a document of primitive fields."""

    qualified_name: str
    label: str
    fields: tuple[tuple[str, DataType], ...]
    accepts: Callable[[Any], bool]
    to_fields: Callable[[Any], dict[str, Any]]
    from_fields: Callable[[dict[str, Any]], Any]


def _local_date_fields(value: date) -> dict[str, Any]:
    return {"year": value.year, "month": value.month, "dayOfMonth": value.day}


def _local_time_fields(value: time) -> dict[str, Any]:
    if value.tzinfo is not None:
        raise ValueError("a LocalTime has no time zone; pass a naive datetime.time")
    return {
        "hour": value.hour,
        "minute": value.minute,
        "second": value.second,
        "nanoOfSecond": value.microsecond * 1000,
    }


def _local_time(f: dict[str, Any]) -> time:
    return time(f["hour"], f["minute"], f["second"], _micros(f["nanoOfSecond"]))


def _local_date_time_fields(value: datetime) -> dict[str, Any]:
    if value.tzinfo is not None:
        raise ValueError(
            "a LocalDateTime has no time zone; pass a naive datetime, or declare Instant for an aware one"
        )
    return {**_local_date_fields(value.date()), **_local_time_fields(value.time())}


def _local_date_time(f: dict[str, Any]) -> datetime:
    return datetime.combine(date(f["year"], f["month"], f["dayOfMonth"]), _local_time(f))


def _instant_fields(value: datetime) -> dict[str, Any]:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("an Instant needs a timezone-aware datetime (e.g. datetime.now(timezone.utc))")
    delta = value - _EPOCH
    seconds = delta.days * 86400 + delta.seconds
    return {"epochSecond": seconds, "nanoAdjustment": delta.microseconds * 1000}


def _instant(f: dict[str, Any]) -> datetime:
    nanos = f["nanoAdjustment"]
    seconds = f["epochSecond"] + nanos // 1_000_000_000
    try:
        return _EPOCH + timedelta(seconds=seconds, microseconds=_micros(nanos % 1_000_000_000))
    except OverflowError as e:
        raise ValueError("instant out of range") from e


def _micros(nanos: int) -> int:
    if not 0 <= nanos <= 999_999_999:
        raise ValueError("nanoseconds must be in 0..999999999")
    return nanos // 1000


def _zone(f: dict[str, Any]) -> ZoneInfo:
    try:
        return ZoneInfo(f["zoneID"])
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"unknown time zone {f['zoneID']!r}") from e


_INT = DataType.INT

LOCAL_DATE = ProxySpec(
    "java.time.LocalDate",
    "datetime.date",
    (("year", _INT), ("month", _INT), ("dayOfMonth", _INT)),
    lambda v: isinstance(v, date) and not isinstance(v, datetime),
    _local_date_fields,
    lambda f: date(f["year"], f["month"], f["dayOfMonth"]),
)
LOCAL_TIME = ProxySpec(
    "java.time.LocalTime",
    "datetime.time",
    (("hour", _INT), ("minute", _INT), ("second", _INT), ("nanoOfSecond", _INT)),
    lambda v: isinstance(v, time),
    _local_time_fields,
    _local_time,
)
LOCAL_DATE_TIME = ProxySpec(
    "java.time.LocalDateTime",
    "datetime.datetime",
    (
        ("year", _INT),
        ("month", _INT),
        ("dayOfMonth", _INT),
        ("hour", _INT),
        ("minute", _INT),
        ("second", _INT),
        ("nanoOfSecond", _INT),
    ),
    lambda v: isinstance(v, datetime),
    _local_date_time_fields,
    _local_date_time,
)
INSTANT = ProxySpec(
    "java.time.Instant",
    "Instant",
    (("epochSecond", DataType.LONG), ("nanoAdjustment", _INT)),
    lambda v: isinstance(v, datetime),
    _instant_fields,
    _instant,
)
ZONE_ID = ProxySpec(
    "java.time.ZoneId",
    "zoneinfo.ZoneInfo",
    (("zoneID", DataType.STRING),),
    lambda v: isinstance(v, ZoneInfo),
    lambda v: {"zoneID": v.key},
    _zone,
)

PROXY_BY_TYPE: dict[Any, ProxySpec] = {
    date: LOCAL_DATE,
    time: LOCAL_TIME,
    datetime: LOCAL_DATE_TIME,
    ZoneInfo: ZONE_ID,
}

# --------------------------------------------------------------------------- Parcelables
PENDING_INTENT_NAME = PendingIntent.QUALIFIED_NAME
Parcelable.register(PendingIntent)


def parcelable_to_data(value: Parcelable) -> AppFunctionData:
    """The document a Parcelable crosses the binder as; TypeError when its
    properties are not ones a document can hold."""
    if isinstance(value, PendingIntent):
        return pending_intent_to_data(value)
    return AppFunctionData(value.write_to_parcel(), qualified_name=type(value).QUALIFIED_NAME)


def parcelable_from_data(cls: type, doc: AppFunctionData) -> Any:
    """``cls`` back from its document; ValueError or TypeError names what is wrong."""
    if cls is PendingIntent:
        return pending_intent_from_data(doc)
    if doc.qualified_name and doc.qualified_name != cls.QUALIFIED_NAME:
        raise ValueError(f"a {doc.qualified_name} document is not a {cls.QUALIFIED_NAME}")
    return cls.create_from_parcel(doc)


def pending_intent_to_data(value: PendingIntent) -> AppFunctionData:
    """``android.app.PendingIntent`` on the wire: the creator, the target kind, the
    request code, the flags and the intent it starts (its component, else its package, if any)."""
    intent = value.intent
    intent_values: dict[str, Any] = {}
    if intent.component is not None:
        intent_values["packageName"] = intent.component.package_name
        intent_values["className"] = intent.component.class_name
    if intent.package is not None:
        intent_values["package"] = intent.package
    if intent.action is not None:
        intent_values["action"] = intent.action
    if intent.data is not None:
        intent_values["data"] = str(intent.data)
    if intent.extras:
        intent_values["extras"] = AppFunctionData(dict(intent.extras))
    return AppFunctionData(
        {
            "creatorPackage": value.creator_package,
            "type": value.target_type,
            "requestCode": value.request_code,
            "flags": value.flags,
            "intent": AppFunctionData(intent_values, qualified_name="android.content.Intent"),
        },
        qualified_name=PENDING_INTENT_NAME,
    )


def pending_intent_from_data(doc: AppFunctionData) -> PendingIntent:
    """The inverse of ``pending_intent_to_data``; ValueError names what is wrong."""
    intent_doc = doc.get("intent")
    if not isinstance(intent_doc, AppFunctionData):
        raise ValueError("a PendingIntent needs an 'intent' document")
    package, cls = intent_doc.get("packageName"), intent_doc.get("className")
    if (package is None) != (cls is None) or not isinstance(package, (str, type(None))) or not isinstance(cls, (str, type(None))):
        raise ValueError("a PendingIntent's intent names its component with both 'packageName' and 'className' strings, or neither")
    target_package = intent_doc.get("package")
    if not isinstance(target_package, (str, type(None))):
        raise ValueError("a PendingIntent's intent 'package' is a string")
    extras_doc = intent_doc.get("extras")
    extras = dict(extras_doc) if isinstance(extras_doc, AppFunctionData) else {}
    data = intent_doc.get("data")
    intent = Intent(
        action=intent_doc.get("action"),
        component=ComponentName(package, cls) if package is not None else None,
        data=Uri.parse(data) if isinstance(data, str) else None,
        extras=extras,
        package=target_package,
    )
    creator, kind = doc.get("creatorPackage", ""), doc.get("type", PendingIntent.TYPE_ACTIVITY)
    request_code, flags = doc.get("requestCode", 0), doc.get("flags", PendingIntent.FLAG_IMMUTABLE)
    if not isinstance(creator, str) or not isinstance(kind, str):
        raise ValueError("a PendingIntent's creatorPackage and type are strings")
    if not _is_int(request_code) or not _is_int(flags):
        raise ValueError("a PendingIntent's requestCode and flags are ints")
    try:
        return PendingIntent(creator, kind, request_code, intent, flags)
    except Exception as e:  # IllegalArgumentException: flags PendingIntent refuses
        raise ValueError(str(e)) from e


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
