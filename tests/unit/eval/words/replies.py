"""Misbehaving and careful models' replies, filled from what the apps really returned.

A reply set (dev.yaml, heldout.yaml) holds templates per behaviour, language and topic; a
model plays one template on every turn it applies to and a careful reply on the others:

- ``denial``: a turn whose calls all happened: the reply says it did not work;
- ``misstatement``: such a turn with a lookup (or an action whose result the reply can
  misreport): one call's result misstated, the others told truly;
- ``made_up``: a turn no app can serve: made-up facts and "it's handled";
- ``claim``: a turn no app can serve, or whose action did not happen: a claim of success;
- ``after_decline``: a turn whose destructive call the user declined: "No problem, cancelled!";
- ``truthful``: every turn told truly (the careful model; it must pass).

``{placeholders}`` are filled from each call's real result (``facts_of``): ``{status}`` is the
order's status in the reply's language, ``{other_status}`` another one, ``{other_temp}`` the
temperature plus 9, and so on. A template whose placeholders or ``needs`` a call cannot meet
is not used on it.
"""

from __future__ import annotations

import datetime as dt
import functools
import string
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
KINDS = ("denial", "misstatement", "made_up", "claim", "after_decline")
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


@functools.cache  # read once: each behaviour of each suite plays the same set
def load(name: str) -> dict[str, Any]:
    return yaml.safe_load((HERE / f"{name}.yaml").read_text(encoding="utf-8"))


def templates(replies: dict[str, Any], kind: str, language: str, topic: str | None = None) -> list[dict[str, Any]]:
    """The templates of a behaviour in a language (and topic), each as {text, needs}."""
    table = (replies.get(kind) or {}).get(language) or []
    if isinstance(table, dict):
        table = table.get(topic or "any") or []
    return [t if isinstance(t, dict) else {"text": t, "needs": []} for t in table]


def fill(template: dict[str, Any], facts: dict[str, Any]) -> str | None:
    """The template with its placeholders filled, or None when the facts cannot fill or meet it."""
    if any(not facts.get(need) for need in template.get("needs") or []):
        return None
    names = [name for _, name, _, _ in string.Formatter().parse(template["text"]) if name]
    if any(facts.get(name) in (None, "") for name in names):
        return None
    return template["text"].format(**{name: facts[name] for name in names})


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
    if "noteId" in result:
        facts.update(note=result["noteId"], title=result["title"], content=result.get("content"),
                     no_content=not result.get("content"))
    if "lightId" in result:
        on, off = POWER[lang]
        facts.update(light=result["name"], state=on if result["isOn"] else off,
                     other_state=off if result["isOn"] else on, brightness=result["brightness"],
                     other_brightness=result["brightness"] + 25 if result["brightness"] <= 75 else
                     result["brightness"] - 25)
    if "restaurantName" in result and "bookingId" in result:
        facts.update(restaurant=result["restaurantName"], party=result["partySize"],
                     other_party=result["partySize"] + 3, time=_time(result["time"]),
                     other_time=_time({**result["time"], "hour": (result["time"]["hour"] + 2) % 24}))
    rows = (response or {}).get("result") if isinstance(response, dict) else None
    if function == "list_lights" and isinstance(rows, list):
        lit = [r["name"] for r in rows if r["isOn"]]
        dark = [r["name"] for r in rows if not r["isOn"]]
        facts.update(on_lights=" and ".join(lit), off_lights=" and ".join(dark), some_on=bool(lit), none_on=not lit,
                     some_off=bool(dark), other_light=dark[0] if dark else None)
    if function == "search_tables" and isinstance(rows, list):
        facts.update(tables=bool(rows), no_tables=not rows)
        if rows:
            facts.update(restaurant=rows[0]["restaurantName"], time=_time(rows[0]["time"]))
    return facts


def _other(value: str, values: list[str]) -> str:
    return values[(values.index(value) + 1) % len(values)]


def _time(value: Any) -> str:
    if isinstance(value, dict):
        return dt.time(value["hour"], value["minute"]).strftime("%H:%M")
    return str(value)[:5]
