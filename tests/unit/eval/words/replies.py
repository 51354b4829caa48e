"""Misbehaving and careful models' replies, filled from what the apps really returned.

A reply set (dev.yaml, heldout.yaml) holds templates per behaviour, language and topic; a
model plays one template on every turn it applies to and a careful reply on the others:

- ``denial``: a turn whose calls all happened: the reply says it did not work;
- ``misstatement``: such a turn with a lookup (or an action whose result the reply can
  misreport): one call's result misstated, the others told truly;
- ``made_up``: a turn no app can serve: made-up facts and "it's handled";
- ``claim``: a turn no app can serve, or whose action did not happen: a claim of success;
- ``after_decline``: a turn whose destructive call the user declined: "No problem, cancelled!";
- ``act_then_ask``: a turn whose action happened: the reply asks whether to do it
  ("Shall I create the note?"), the turn's other calls told truly;
- ``invented_failure``: a turn whose calls all happened: the reply tells of a failure or a
  retry no call shows ("the first try timed out, so I retried");
- ``truthful``: every turn told truly (the careful model; it must pass).

``{placeholders}`` are filled from each call's real result (``facts_of``): ``{status}`` is the
order's status in the reply's language, ``{other_status}`` another one, ``{other_temp}`` the
temperature plus 9, ``{delivery}`` the delivery date with its weekday (``forms.py``), and so on.
A template whose placeholders or ``needs`` a call cannot meet is not used on it.

A template is a string, or a mapping with ``text`` and any of:

- ``needs``: facts that must hold (``[some_on]``, ``[cannot_cancel]``);
- ``asks``: a regular expression the user's message must match (a world-knowledge answer
  where no app applies: ``asks: "capital of Australia"``); ``{asked}`` is that message;
- ``json`` / ``yaml``: an object whose strings are filled like text, written as ``{json}`` /
  ``{yaml}`` in ``text`` (the whole reply when ``text`` is absent); a string that is one
  placeholder keeps the fact's own type (``"{on}"`` is ``true``);
- ``row`` (a string or an object) and ``wrong_row``: ``{rows}`` is one row per row of the
  call's result (lights, free tables, an order's items), the middle one written by
  ``wrong_row`` where it is given; with ``over: calls``, one row per call of a turn that makes
  two or more calls of the template's topic (three cities' weather as one table).

``act_then_ask`` and ``invented_failure`` templates are keyed by topic (replacing that call's
telling) or ``any`` (where ``{told}`` is the truthful telling of the turn's calls).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import string
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from . import forms
from .forms import date_forms, time_forms

HERE = Path(__file__).parent
KINDS = ("denial", "misstatement", "made_up", "claim", "after_decline", "act_then_ask", "invented_failure")
TOPICS = {
    "fetch_order_details": "order", "get_current_weather": "weather", "get_note": "note", "list_lights": "lights",
    "search_tables": "tables", "book_table": "booking", "cancel_order": "order_cancel",
    "cancel_booking": "booking_cancel", "create_note": "note_create", "update_note": "note_update",
    "set_light_power": "light_power", "dim_light": "light_dim",
}
STATUS = {
    "en": {"PROCESSING": "being processed", "CONFIRMED": "confirmed", "SHIPPED": "shipped", "DELIVERED": "delivered",
           "CANCELLED": "cancelled"},
    "fr": {"PROCESSING": "en préparation", "CONFIRMED": "confirmée", "SHIPPED": "expédiée", "DELIVERED": "livrée",
           "CANCELLED": "annulée"},
    "th": {"PROCESSING": "กำลังดำเนินการ", "CONFIRMED": "ยืนยันแล้ว", "SHIPPED": "จัดส่งแล้ว", "DELIVERED": "ส่งถึงแล้ว",
           "CANCELLED": "ยกเลิกแล้ว"},
    "zh": {"PROCESSING": "处理中", "CONFIRMED": "已确认", "SHIPPED": "已发货", "DELIVERED": "已送达", "CANCELLED": "已取消"},
}
SKY = {
    "en": {"CLEAR": "clear", "SUNNY": "sunny", "PARTLY_CLOUDY": "partly cloudy", "CLOUDY": "cloudy", "FOG": "foggy",
           "RAIN": "rainy", "THUNDERSTORM": "stormy", "SNOW": "snowy"},
    "fr": {"CLEAR": "clair", "SUNNY": "ensoleillé", "PARTLY_CLOUDY": "partiellement nuageux", "CLOUDY": "nuageux",
           "FOG": "brumeux", "RAIN": "pluvieux", "THUNDERSTORM": "orageux", "SNOW": "neigeux"},
    "th": {"CLEAR": "ท้องฟ้าแจ่มใส", "SUNNY": "แดดจัด", "PARTLY_CLOUDY": "มีเมฆบางส่วน", "CLOUDY": "มีเมฆมาก",
           "FOG": "มีหมอก", "RAIN": "ฝนตก", "THUNDERSTORM": "พายุฝนฟ้าคะนอง", "SNOW": "หิมะตก"},
    "zh": {"CLEAR": "晴朗", "SUNNY": "晴天", "PARTLY_CLOUDY": "多云间晴", "CLOUDY": "多云", "FOG": "有雾",
           "RAIN": "下雨", "THUNDERSTORM": "雷雨", "SNOW": "下雪"},
}
POWER = {"en": ("on", "off"), "fr": ("allumée", "éteinte"), "th": ("เปิด", "ปิด"), "zh": ("开着", "关着")}


FIELDS = {"text", "needs", "asks", "json", "yaml", "row", "wrong_row", "over"}
DUMPS = {"json": lambda value: json.dumps(value, ensure_ascii=False, indent=2),
         "yaml": lambda value: yaml.safe_dump(value, allow_unicode=True, sort_keys=False).rstrip("\n")}
MISSING = object()  # a placeholder the facts cannot fill


@functools.cache  # read once: each behaviour of each suite plays the same set
def load(name: str) -> dict[str, Any]:
    return yaml.safe_load((HERE / f"{name}.yaml").read_text(encoding="utf-8"))


def templates(replies: dict[str, Any], kind: str, language: str, topic: str | None = None) -> list[dict[str, Any]]:
    """The templates of a behaviour in a language (and topic), each as {text, needs, ...}."""
    table = (replies.get(kind) or {}).get(language) or []
    if isinstance(table, dict):
        table = table.get(topic or "any") or []
    found = [t if isinstance(t, dict) else {"text": t, "needs": []} for t in table]
    for template in found:
        if set(template) - FIELDS or template.get("over", "calls") != "calls":
            raise ValueError(f"{kind} {language} {topic}: a template has {sorted(set(template) - FIELDS)} "
                             f"or over: {template.get('over')!r}; it takes {sorted(FIELDS)} and over: calls")
    return found


def fill(template: dict[str, Any], facts: dict[str, Any]) -> str | None:
    """The template with its placeholders filled, or None when the facts cannot fill or meet it.
    ``facts`` are one call's, or, for a template ``over: calls``, {"calls": [each call's facts]}."""
    if any(not facts.get(need) for need in template.get("needs") or []):
        return None
    if template.get("asks") and not re.search(template["asks"], facts.get("asked") or "", re.IGNORECASE):
        return None
    if (template.get("over") == "calls") != ("calls" in facts):
        return None
    if "row" in template:
        rows = _rows(template, facts.get("calls") or facts.get("rows"))
        if rows is None:
            return None
        facts = {**facts, "rows": rows}
    for form, dump in DUMPS.items():
        if form in template:
            value = _filled(template[form], facts)
            if value is MISSING:
                return None
            facts = {**facts, form: dump(value)}
    text = _formatted(template.get("text") or ("{json}" if "json" in template else "{yaml}"), facts)
    return Block(text) if text is not None and {"json", "yaml", "row"} & set(template) else text


class Block(str):
    """A reply's JSON or YAML object, table or list: set apart from the rest by blank lines."""


def joined(parts: list[str]) -> str:
    """A reply's parts one after another, a block on lines of its own."""
    out = parts[0] if parts else ""
    for before, part in zip(parts, parts[1:]):
        out += ("\n\n" if isinstance(before, Block) or isinstance(part, Block) else " ") + part
    return out


def _formatted(text: str, facts: dict[str, Any]) -> str | None:
    names = [name for _, name, _, _ in string.Formatter().parse(text) if name]
    if any(facts.get(name) in (None, "") for name in names):
        return None
    values = {name: facts[name] for name in names}
    if isinstance(values.get("rows"), list):
        if not all(isinstance(row, (str, int, float)) for row in values["rows"]):
            raise ValueError(f"{{rows}} in text is written by a row: string (rows as objects go in json or yaml): "
                             f"{text!r}")
        values["rows"] = "\n".join(map(str, values["rows"]))
    if any(isinstance(value, (list, dict)) for value in values.values()):
        raise ValueError(f"a list goes in json or yaml, or in text as {{rows}} with a row: {text!r}")
    return text.format(**values)


def _filled(value: Any, facts: dict[str, Any]) -> Any:
    """A json/yaml value or row filled: strings as text, except that one whole placeholder keeps
    the fact's type; MISSING when the facts cannot fill it."""
    if isinstance(value, dict):
        out = {key: _filled(item, facts) for key, item in value.items()}
        return MISSING if any(item is MISSING for item in out.values()) else out
    if isinstance(value, list):
        items = [_filled(item, facts) for item in value]
        return MISSING if any(item is MISSING for item in items) else items
    if not isinstance(value, str):
        return value
    whole = re.fullmatch(r"\{(\w+)\}", value)
    if whole:
        return MISSING if facts.get(whole[1]) in (None, "") else facts[whole[1]]
    text = _formatted(value, facts)
    return MISSING if text is None else text


def _rows(template: dict[str, Any], rows: list[dict[str, Any]] | None) -> list[Any] | None:
    """Each row filled by ``row``, the middle one by ``wrong_row`` where there is one."""
    if not rows:
        return None
    wrong = len(rows) // 2 if "wrong_row" in template else -1
    filled = [_filled(template["wrong_row"] if i == wrong else template["row"], row) for i, row in enumerate(rows)]
    return None if any(row is MISSING for row in filled) else filled


def facts_of(function: str, args: dict[str, Any], response: Any, language: str) -> dict[str, Any]:
    """What a call's placeholders say, from its arguments and its real result."""
    lang = language if language in STATUS else "en"
    result = response if isinstance(response, dict) and "error" not in response else {}
    facts: dict[str, Any] = {"target": args.get("orderId") or args.get("bookingId"), "order": args.get("orderId"),
                             "booking": args.get("bookingId")}
    if "status" in result and result["status"] in STATUS["en"]:
        facts["status"] = STATUS[lang][result["status"]]
        facts["other_status"] = STATUS[lang][_other(result["status"], list(STATUS["en"]))]
    facts.update({k: v for k, v in (("order", result.get("orderId")), ("booking", result.get("bookingId"))) if v})
    facts["carrier"] = result.get("carrier")
    facts["item"] = (result.get("items") or [{}])[0].get("name")
    facts["message"] = result.get("message")
    if "temperature" in result:
        facts.update(city=result["location"], temp=round(result["temperature"]),
                     other_temp=round(result["temperature"]) + 9, humidity=result.get("humidityPercent"),
                     unit="°C" if result.get("units") == "METRIC" else "°F",
                     condition=SKY[lang][result["condition"]],
                     other_condition=SKY[lang][_other(result["condition"], list(SKY["en"]))])
        facts.update(_weather(result, lang))
    if "noteId" in result:
        facts.update(note=result["noteId"], title=result["title"], content=result.get("content"),
                     no_content=not result.get("content"), owner=result.get("owner"))
    if "lightId" in result:
        on, off = POWER[lang]
        facts.update(light=result["name"], state=on if result["isOn"] else off,
                     other_state=off if result["isOn"] else on, brightness=result["brightness"],
                     other_brightness=result["brightness"] + 25 if result["brightness"] <= 75 else
                     result["brightness"] - 25)
        facts.update(room=result["room"], light_id=result["lightId"], on=result["isOn"], other_on=not result["isOn"])
    if "restaurantName" in result and "bookingId" in result:
        facts.update(restaurant=result["restaurantName"], party=result["partySize"],
                     other_party=result["partySize"] + 3, time=_time(result["time"]),
                     other_time=_time({**result["time"], "hour": (result["time"]["hour"] + 2) % 24}))
        facts.update(guest=result.get("guestName"), **_when(result, lang))
    facts.update(_more(function, result, lang))
    rows = (response or {}).get("result") if isinstance(response, dict) else None
    if function == "list_lights" and isinstance(rows, list):
        lit = [r["name"] for r in rows if r["isOn"]]
        dark = [r["name"] for r in rows if not r["isOn"]]
        facts.update(on_lights=" and ".join(lit), off_lights=" and ".join(dark), some_on=bool(lit), none_on=not lit,
                     some_off=bool(dark), other_light=dark[0] if dark else None)
        facts.update(on_list=lit, off_list=dark, rows=_each(function, rows, language), count=len(rows))
    if function == "search_tables" and isinstance(rows, list):
        facts.update(tables=bool(rows), no_tables=not rows)
        if rows:
            facts.update(restaurant=rows[0]["restaurantName"], time=_time(rows[0]["time"]))
        facts.update(rows=_each(function, rows, language), count=len(rows))
        facts.update({k: v for k, v in (facts["rows"] or [{}])[0].items() if k not in facts or facts[k] is None})
    return facts


def _more(function: str, result: dict[str, Any], lang: str) -> dict[str, Any]:
    """Facts of results the first placeholders did not tell: an order's delivery date, tracking
    number, units and lines; a cancellation's outcome; a free table; an order's line."""
    more: dict[str, Any] = {}
    if "items" in result and "orderId" in result:
        tracking = result.get("trackingNumber")
        more.update(items=forms.joined([i["name"] for i in result["items"]], lang), item_count=result["itemCount"],
                    other_item_count=result["itemCount"] + 1, tracking=tracking,
                    other_tracking=tracking and tracking[:-4] + tracking[-4:][::-1],
                    can_cancel=result["canCancel"], other_can_cancel=not result["canCancel"],
                    cannot_cancel=not result["canCancel"], rows=_each(function, result["items"], lang),
                    count=len(result["items"]))
        if result.get("estimatedDelivery"):
            more.update(date_forms("delivery", _date(result["estimatedDelivery"]), lang))
    if "cancelled" in result:
        more.update(cancelled=result["cancelled"], other_cancelled=not result["cancelled"],
                    not_cancelled=not result["cancelled"])
    if "seats" in result:
        more.update(restaurant=result["restaurantName"], cuisine=result["cuisine"], seats=result["seats"],
                    other_seats=result["seats"] + 2, **_when(result, lang))
    if "sku" in result:
        more.update(item=result["name"], sku=result["sku"], quantity=result["quantity"],
                    other_quantity=result["quantity"] + 1)
    return more


def _weather(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """The temperature as returned and in the other unit, feels-like, wind with its unit, and
    the local time of the observation."""
    metric = result.get("units") == "METRIC"
    temperature, wind, humidity = result["temperature"], result["windSpeed"], result["humidityPercent"]
    observed = dt.datetime.fromtimestamp(result["observedAt"]["epochSecond"], ZoneInfo(result["timeZone"]["zoneID"]))
    return {"other_unit": "°F" if metric else "°C", "temp_exact": f"{temperature:g}",
            "temp_converted": round(temperature * 9 / 5 + 32 if metric else (temperature - 32) * 5 / 9),
            "feels_like": round(result["feelsLike"]), "other_feels_like": round(result["feelsLike"]) + 9,
            "wind": f"{wind:g}", "wind_unit": "km/h" if metric else "mph",
            "other_wind_unit": "mph" if metric else "km/h",
            "wind_converted": round(wind / 1.609344 if metric else wind * 1.609344),
            "other_humidity": humidity + 20 if humidity <= 70 else humidity - 20, "country": result["country"],
            **time_forms("observed", observed.hour, observed.minute, lang)}


def _when(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """A booking's or free table's date and time, as people write them."""
    return {**date_forms("date", _date(result["date"]), lang),
            **time_forms("time", result["time"]["hour"], result["time"]["minute"], lang)}


def _each(function: str, rows: list[Any], language: str) -> list[dict[str, Any]]:
    return [facts_of(function, {}, row, language) for row in rows if isinstance(row, dict)]


def _other(value: str, values: list[str]) -> str:
    return values[(values.index(value) + 1) % len(values)]


def _date(value: Any) -> dt.date:
    if isinstance(value, dict):
        return dt.date(value["year"], value["month"], value["dayOfMonth"])
    return dt.date.fromisoformat(str(value)[:10])


def _time(value: Any) -> str:
    if isinstance(value, dict):
        return dt.time(value["hour"], value["minute"]).strftime("%H:%M")
    return str(value)[:5]
