"""Values a reply restates, read as the values they are: dates, times of day, quantities with units.

A bare number is held to the numbers the calls returned (sim/eval/facts.py). A value said with
its kind is compared as that kind, in the reply's language:

- a date ("Friday 14 June", "le vendredi 14 juin", "6月14日（周五）", "วันศุกร์ที่ 14 มิถุนายน")
  must be a date the conversation holds (a result's, the user's, the days around the run), and
  a weekday said with it must be that date's: 14 June 2025 was a Saturday. Month and weekday
  names come from dateparser's locale data (already a dependency), not from a list of ours;
- a time of day said with its half of the day ("7:30 AM", "7:30 du soir", "晚上7点半") or in
  24-hour form ("19:30", "19h30") must be the time a call returned in that half: "7:30 AM" is no
  way of saying 19:30, though "7:30" alone may be;
- a quantity with its unit ("14°F", "12 mph", "3 km") is converted to the unit of each field of
  the same kind in the results it speaks of (the unit read from the field's description: "in
  °C (METRIC) or °F (IMPERIAL)", chosen by the result's own METRIC/IMPERIAL) and must agree
  with one of them, give or take rounding. Units and conversions are pint's: it knows the
  units' names and symbols and converts temperatures with their offsets; currencies are held
  apart as dimensions of their own (no rate is assumed).

What is not read: dates said in digits other than ISO ("14/06" is day-month or month-day), dates
relative to the run ("tomorrow", "in three days") and durations; a number in those is held to
the numbers the calls returned, as any other.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Any, Iterable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class SaidDate:
    text: str
    month: int
    day: int
    year: int | None
    weekday: int | None  # 0 Monday .. 6 Sunday


@dataclass(frozen=True)
class SaidTime:
    text: str
    hour: int  # 0-23 where the half of the day is known, else as said
    minute: int | None
    certain: bool  # the half of the day is known: "7 PM", "19:30", "晚上7点"


@dataclass(frozen=True)
class SaidQuantity:
    text: str
    value: float
    unit: str  # a pint unit, or "" for a temperature of no scale said ("19 degrees")


# ---------------------------------------------------------------------------------------- dates

@functools.lru_cache(maxsize=8)
def _calendar_words(language: str) -> tuple[dict[str, int], dict[str, int]]:
    """The month and weekday names of a language, from dateparser's locale data: name -> number.
    Names of one or two letters ("sa", "ส") are left out: they are words of their own too."""
    from dateparser.languages.loader import default_loader

    info = default_loader.get_locale(language).info
    months = {name.lower().rstrip("."): n for n, key in enumerate(_MONTHS, 1) for name in info.get(key, [])
              if len(name) >= 3 or not name.isalpha()}
    weekdays = {name.lower().rstrip("."): n for n, key in enumerate(_WEEKDAYS) for name in info.get(key, [])
                if len(name) >= 4 or len(name) >= 2 and re.fullmatch(r"[\u4e00-\u9fff]+", name)
                or len(name) == 3 and name.isascii()}  # 周五 and "fri", not Thai's อา, inside อากาศ
    return months, weekdays


def _alternatives(names: Iterable[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


@functools.lru_cache(maxsize=8)
def _date_pattern(language: str) -> re.Pattern:
    months, weekdays = _calendar_words(language)
    if language != "en":  # English is read in every reply, as the rules are
        english_months, english_days = _calendar_words("en")
        months, weekdays = {**english_months, **months}, {**english_days, **weekdays}
    month, weekday = _alternatives(months), _alternatives(weekdays)
    day, year = r"(?P<day>[0-3]?\d)", r"(?P<year>\d{4})"
    latin = (rf"(?:(?P<weekday>{weekday})\.?,?\s+(?:(?:the|le|ที่)\s+)?)?"
             rf"(?:{day}(?:st|nd|rd|th|er|e)?(?:\s+of)?\s+(?P<month>{month})\.?|(?P<month2>{month})\.?\s+(?P<day2>[0-3]?\d)"
             rf"(?:st|nd|rd|th)?\b)(?:,?\s+{year})?")
    iso = r"(?P<iso>\d{4}-\d{2}-\d{2})"
    chinese = rf"(?:(?P<cyear>\d{{4}})年)?(?P<cmonth>1[0-2]|0?[1-9])月(?P<cday>[0-3]?\d)[日号](?:\s*[（(]?\s*(?P<cweekday>{weekday})\s*[)）]?)?"
    flags = re.I
    if language == "th":  # Thai writes no spaces between words, nor before a number
        latin = latin.replace(r"\s+", r"\s*")
    if language in ("zh", "th"):
        return re.compile(rf"{iso}|{chinese}|{latin}", flags)
    return re.compile(rf"\b(?:{iso}|{latin})(?!\w)", flags)


def dates_said(text: str, language: str) -> list[SaidDate]:
    months, weekdays = {}, {}
    for lang in dict.fromkeys(["en", language]):
        m, w = _calendar_words(lang)
        months.update(m)
        weekdays.update(w)
    found = []
    for match in _date_pattern(language).finditer(text):
        groups = {k: v for k, v in match.groupdict().items() if v}
        if "iso" in groups:
            try:
                date = dt.date.fromisoformat(groups["iso"])
            except ValueError:
                continue
            found.append(SaidDate(match.group(0), date.month, date.day, date.year, None))
            continue
        month = groups.get("cmonth") or groups.get("month") or groups.get("month2")
        day = groups.get("cday") or groups.get("day") or groups.get("day2")
        year = groups.get("cyear") or groups.get("year")
        weekday = groups.get("cweekday") or groups.get("weekday")
        month_number = int(month) if month.isdigit() else months.get(month.lower().rstrip(".").strip())
        if month_number is None or not 1 <= int(day) <= 31:
            continue
        year_number = int(year) - 543 if year and int(year) > 2400 else int(year) if year else None  # Thai years
        found.append(SaidDate(match.group(0).strip().rstrip("."), month_number, int(day), year_number,
                              weekdays.get(weekday.lower().rstrip(".")) if weekday else None))
    return found


def dates_in(value: Any) -> set[dt.date]:
    """Every date a result holds: ISO text (a day or an instant) or {year, month, dayOfMonth}."""
    found: set[dt.date] = set()
    if isinstance(value, dict):
        if all(isinstance(value.get(k), int) for k in ("year", "month", "dayOfMonth")):
            try:
                found.add(dt.date(value["year"], value["month"], value["dayOfMonth"]))
            except ValueError:
                pass
        for sub in value.values():
            found |= dates_in(sub)
    elif isinstance(value, list):
        for sub in value:
            found |= dates_in(sub)
    elif isinstance(value, str):
        for iso in re.findall(r"\b\d{4}-\d{2}-\d{2}\b", value):
            try:
                found.add(dt.date.fromisoformat(iso))
            except ValueError:
                pass
    return found


def misdated(said: str, language: str, known: set[dt.date], held: set[dt.date]) -> list[str]:
    """The dates a clause says that the conversation does not hold, and a weekday said with a date
    that is not that date's. ``known``: every date the conversation holds; ``held``: those of the
    results the clause speaks of, which a weekday said alone must fall on."""
    found = []
    for date in dates_said(said, language):
        matching = {d for d in known if (d.month, d.day) == (date.month, date.day) and date.year in (None, d.year)}
        if not matching:
            found.append(f"{date.text!r}, a date no call returned")
            continue
        if date.weekday is not None and not any(d.weekday() == date.weekday for d in matching):
            real = sorted(matching)[0]
            found.append(f"{date.text!r}, but {real.isoformat()} is a {_WEEKDAYS[real.weekday()].title()}")
    if held and not found:
        for weekday in _weekdays_alone(said, language):
            if not any(d.weekday() == weekday[1] for d in held):
                days = ", ".join(sorted(f"{_WEEKDAYS[d.weekday()].title()} {d.isoformat()}" for d in held))
                found.append(f"{weekday[0]!r}, but the date is {days}")
    return found


def _weekdays_alone(said: str, language: str) -> list[tuple[str, int]]:
    """Weekdays said by their full name, outside a date: "your table is for Friday"."""
    taken = [m.span() for m in _date_pattern(language).finditer(said)]
    found = []
    for lang in dict.fromkeys(["en", language]):
        _, weekdays = _calendar_words(lang)
        # a full name only: "Friday", 周五, วันศุกร์ (Thai's อาทิตย์ alone is also "a week")
        full = {name: n for name, n in weekdays.items()
                if len(name) >= 5 and name.isascii() or re.match(r"[\u4e00-\u9fff]|วัน", name)}
        pattern = re.compile(rf"(?<!\w)(?:{_alternatives(full)})(?!\w)" if lang in ("en", "fr") else _alternatives(full),
                             re.I)
        for match in pattern.finditer(said):
            if not any(s <= match.start() < e for s, e in taken):
                found.append((match.group(0), full[match.group(0).lower()]))
    return found


# ---------------------------------------------------------------------------------------- times

# A time of day: 7pm, 7:30 p.m., 19:00, 20h30, "at 7"; the half of the day said before or after it
# in the suites' languages ("du soir", 晚上, "in the evening").
_CLOCK = re.compile(r"\b(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)(?!\w)"
                    r"|\b(?P<h2>\d{1,2}):(?P<m2>\d{2})\b|\b(?P<h3>\d{1,2})(?:h(?P<m3>\d{2})?\b|\s+h\s+(?P<m6>\d{2})\b|\s+h(?=\s+d))"
                    r"|\b(?P<h5>\d{1,2})(?=\s+(?:in\s+the\s+(?:morning|evening|afternoon)|at\s+night|du\s+(?:matin|soir)|de\s+l'après-midi)\b)"
                    r"|\b(?:at|around|by|until|from|before|after)\s+(?P<h4>\d{1,2})\b(?![.,:]?\d|\s*(?:%|°|percent|degrees|h\b|[ap]\.?m\b))",
                    re.I)
_CHINESE_CLOCK = re.compile(r"(?P<half>上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间)?\s*(?P<h>\d{1,2})\s*[点點時时](?:\s*(?P<m>\d{1,2})\s*分?|(?P<half_hour>半))?")
# Thai's six-hour clock: ตี 5 (5:00), 7 โมงเช้า, เที่ยง, บ่าย 3 โมง, 5 โมงเย็น, 1 ทุ่ม (19:00), with ครึ่ง
# (half past) or N นาที after the hour's word.
_PAST = r"\s*(?P<past>ครึ่ง|\d{1,2}\s*นาที)?\s*"
_THAI_CLOCK = [(re.compile(r"เที่ยงคืน" + _PAST), lambda h: 0), (re.compile(r"ตี\s*(?P<h>[1-5])" + _PAST), lambda h: h),
               (re.compile(r"(?P<h>\d{1,2})\s*โมง" + _PAST + r"เช้า"), lambda h: h),
               (re.compile(r"เที่ยง(?!คืน)" + _PAST), lambda h: 12),
               (re.compile(r"บ่าย\s*(?P<h>[1-5])\s*โมง" + _PAST), lambda h: h + 12),
               (re.compile(r"(?P<h>[1-6])\s*โมง" + _PAST + r"เย็น"), lambda h: h + 12),
               (re.compile(r"(?P<h>[1-5])\s*ทุ่ม" + _PAST), lambda h: h + 18)]
_AFTER = re.compile(r"^\s*(?:(?P<morning>in the morning|du matin|ce matin)|(?P<evening>in the (?:evening|afternoon)|at night|tonight|"
                    r"du soir|de l'après-midi|ce soir))\b", re.I)
_MORNING = {"上午", "早上", "早晨", "凌晨"}


@functools.lru_cache(maxsize=4096)  # the conversation's texts, for clause after clause
def times_said(text: str) -> tuple[tuple[re.Match, SaidTime], ...]:
    found = []
    for match in _CLOCK.finditer(text):
        g = match.groupdict()
        if g["h4"] and unit_follows(text[match.end():]):
            continue  # "wind at 19 km/h": a quantity, no time
        hour = int(g["h"] or g["h2"] or g["h3"] or g["h4"] or g["h5"])
        minute = g["m"] or g["m2"] or g["m3"] or g["m6"]
        minute = int(minute) if minute is not None else None
        certain, ampm = hour > 12 or hour == 0, (g["ampm"] or "").lower().replace(".", "")
        after = _AFTER.match(text[match.end():])
        if after and not ampm and not certain:
            ampm = "am" if after.group("morning") else "pm"
        if ampm and 1 <= hour <= 12:
            hour, certain = hour % 12 + (12 if ampm == "pm" else 0), True
        found.append((match, SaidTime(match.group(0).strip(), hour, minute, certain)))
    for pattern, hour_of in _THAI_CLOCK:
        for match in pattern.finditer(text):
            past = match.group("past") or ""
            minute = 30 if past == "ครึ่ง" else int(re.match(r"\d+", past).group(0)) if past else None
            hour = hour_of(int(match.group("h")) if "h" in pattern.groupindex else 0)
            found.append((match, SaidTime(match.group(0).strip(), hour, minute, True)))
    for match in _CHINESE_CLOCK.finditer(text):
        hour = int(match.group("h"))
        minute = 30 if match.group("half_hour") else int(match.group("m")) if match.group("m") else None
        half = match.group("half")
        certain = hour > 12
        if half and 1 <= hour <= 12:
            hour = hour % 12 + (0 if half in _MORNING else 12) if half != "中午" else (12 if hour in (11, 12) else hour + 12)
            certain = True
        found.append((match, SaidTime(match.group(0).strip(), hour, minute, certain)))
    return tuple(found)


def wrong_half_of_day(said: SaidTime, known: Iterable[tuple[int, int | None]]) -> bool:
    """A time said with its half of the day, where the conversation holds that time only in the
    other half: "7:30 AM" for 19:30."""
    if not said.certain:
        return False
    known = list(known)
    same = [(h, m) for h, m in known if said.minute in (m, None) or m is None and not said.minute]
    return not any(h == said.hour for h, _ in same) and any(h % 12 == said.hour % 12 for h, _ in same)


# ------------------------------------------------------------------------------------ quantities

# The units a reply says numbers in, per language, as pint units: symbols and words. A bare degree
# ("19 degrees", 19度, 19 องศา) is a temperature of no scale said.
_UNIT_WORDS = [
    (r"°\s*c\b|º\s*c\b|℃|degrees?\s+(?:celsius|centigrade|c\b)|degrés?\s+celsius|celsius|摄氏度|攝氏度|องศาเซลเซียส", "degC"),
    (r"°\s*f\b|º\s*f\b|℉|degrees?\s+(?:fahrenheit|f\b)|degrés?\s+fahrenheit|fahrenheit|华氏度|華氏度|องศาฟาเรนไฮต์", "degF"),
    (r"°|º|degrees?\b|degrés?\b|deg\b|度|องศา", ""),
    (r"km\s*/\s*h\b|kph\b|kmh\b|km/hr\b|kilomet(?:er|re)s?\s+(?:per|an|an\s+)hour|kilomètres?\s+(?:par|à l')\s*heure"
     r"|公里\s*/\s*(?:小时|时)|公里每小时|千米每小时|กม\.?\s*/\s*ชม\.?|กิโลเมตรต่อชั่วโมง", "km/h"),
    (r"mph\b|miles?\s+(?:per|an)\s+hour|英里每小时|ไมล์ต่อชั่วโมง", "mph"),
    (r"m\s*/\s*s\b|met(?:er|re)s?\s+per\s+second", "m/s"),
    (r"knots?\b|kn\b|节", "knot"),
    (r"km\b|kilomet(?:er|re)s?\b|kilomètres?\b|公里|千米|กิโลเมตร|กม\.", "km"),
    (r"mi\b|miles?\b|英里|ไมล์", "mile"),
]
_UNIT = [(re.compile(r"^\s*(?:" + pattern + ")", re.I), unit) for pattern, unit in _UNIT_WORDS]
_CURRENCY_BEFORE = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "฿": "THB"}
_CURRENCY_AFTER = [(re.compile(r"^\s*(?:" + p + ")", re.I), unit) for p, unit in
                   [(r"usd\b|dollars?\b|美元", "USD"), (r"eur\b|euros?\b|€|欧元", "EUR"), (r"gbp\b|pounds?\b|£|英镑", "GBP"),
                    (r"cny\b|rmb\b|yuan\b|元|人民币", "CNY"), (r"thb\b|baht\b|บาท|฿", "THB")]]
_NUMBER = re.compile(r"(?P<before>(?:us)?\$|€|£|¥|฿)?\s?(?P<sign>[-−–]\s?)?(?P<n>\d+(?:[.,]\d+)?)(?![\d])", re.I)


@functools.lru_cache(maxsize=1)
def units():
    """pint's registry (built once, on the first quantity read: it takes a moment), with each
    currency a dimension of its own, so a price in euros is never taken for one in dollars."""
    import pint

    registry = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    for code in sorted({*_CURRENCY_BEFORE.values(), *(unit for _, unit in _CURRENCY_AFTER)}):
        registry.define(f"{code} = [currency_{code.lower()}]")
    return registry


def quantities_said(text: str) -> list[tuple[re.Match, SaidQuantity]]:
    found = []
    for match in _NUMBER.finditer(text):
        value = float(match.group("n").replace(",", "."))
        if match.group("sign") and (match.start() == 0 or not text[match.start() - 1].isalnum()):
            value = -value
        rest = text[match.end():]
        before = (match.group("before") or "").lower()
        unit = _CURRENCY_BEFORE.get(before) or next((u for pattern, u in _CURRENCY_AFTER if pattern.match(rest)), None)
        if unit is None:
            unit = next((u for pattern, u in _UNIT if pattern.match(rest)), None)
            if unit is None:
                continue
        end = match.end() + next((p.match(rest).end() for p, _ in [*_UNIT, *_CURRENCY_AFTER] if p.match(rest)), 0)
        found.append((match, SaidQuantity(text[match.start():end].strip(), value, unit)))
    return found


def unit_follows(rest: str) -> bool:
    """What follows a number is its unit ("… km/h", "… °C", "… dollars")."""
    return any(pattern.match(rest) for pattern, unit in [*_UNIT, *_CURRENCY_AFTER])


def unit_of_field(description: str, siblings: Iterable[Any]) -> str | None:
    """The unit a field is given in, from its description: "The air temperature, in °C (METRIC) or
    °F (IMPERIAL)" with the result's units METRIC is degC; "in percent" is percent."""
    codes = {str(v) for v in siblings if isinstance(v, str)}
    options = []
    for match in re.finditer(r"\bin\s+|\bor\s+|,\s+|\(\s*", description):
        rest = description[match.end():]
        for pattern, unit in [*_UNIT, *_CURRENCY_AFTER]:
            said = pattern.match(rest)
            if said and unit:
                code = re.match(r"\s*\(([A-Z_]+)\)", rest[said.end():])
                options.append((unit, code.group(1) if code else None))
                break
    chosen = [unit for unit, code in options if code is None or code in codes]
    if re.search(r"\bin percent\b|\bpercent(?:age)?\b", description, re.I) and not chosen:
        return "percent"
    return chosen[0] if len(set(chosen)) == 1 else None


def agrees(said: SaidQuantity, value: float, unit: str) -> bool | None:
    """Whether a quantity said agrees with a field's value in its unit, give or take rounding;
    None where they are not of one kind (a speed against a temperature)."""
    registry = units()
    if said.unit == "":  # a temperature of no scale said: either scale will do
        if registry.Unit(unit).dimensionality != registry.Unit("degC").dimensionality:
            return None
        return any(agrees(SaidQuantity(said.text, said.value, scale), value, unit) for scale in ("degC", "degF"))
    if unit == "percent":
        return None
    said_unit, field_unit = registry.Unit(said.unit), registry.Unit(unit)
    if said_unit.dimensionality != field_unit.dimensionality:
        return None
    in_field = registry.Quantity(said.value, said_unit).to(field_unit).magnitude
    in_said = registry.Quantity(value, field_unit).to(said_unit).magnitude
    return abs(in_field - value) < 1 or abs(in_said - said.value) < 1


def dates_spans(text: str, language: str) -> list[re.Match]:
    return list(_date_pattern(language).finditer(text))


def moments_in(value: Any) -> list[dt.datetime]:
    """The instants a result holds ({epochSecond} or ISO text with an offset), each also at the
    result's time zone ({zoneID} or a zone's name): a reply tells an observation's time as the
    clock there shows it."""
    instants, zones = [], []

    def walk(item: Any, key: str = "") -> None:
        if isinstance(item, dict):
            if isinstance(item.get("epochSecond"), int):
                instants.append(dt.datetime.fromtimestamp(item["epochSecond"], dt.timezone.utc))
            if isinstance(item.get("zoneID"), str):
                zones.append(item["zoneID"])
            for sub_key, sub in item.items():
                walk(sub, sub_key)
        elif isinstance(item, list):
            for sub in item:
                walk(sub, key)
        elif isinstance(item, str):
            if re.search(r"zone", key, re.I) and "/" in item:
                zones.append(item)
            elif re.match(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", item):
                try:
                    moment = dt.datetime.fromisoformat(item.replace("Z", "+00:00"))
                except ValueError:
                    return
                if moment.tzinfo is not None:
                    instants.append(moment)

    walk(value)
    found = list(instants)
    for zone in zones:
        try:
            where = ZoneInfo(zone)
        except (ValueError, ZoneInfoNotFoundError):
            continue
        found += [moment.astimezone(where) for moment in instants]
    return found


# The units of one kind a reply may use for a field, either of which may be the field's own.
_KINDS = (("degC", "degF"), ("km/h", "mph", "m/s", "knot"), ("km", "mile"))


def units_of_kind(said: SaidQuantity) -> tuple[str, ...]:
    """The units a quantity's field may be given in: those of its kind ("16°C": °C or °F)."""
    unit = said.unit or "degC"  # a degree of no scale said is a temperature
    return next((kind for kind in _KINDS if unit in kind), ())


# What joins a quantity to itself in another unit: "14°C, roughly 57°F", "19°C (66°F)", "60°F ≈ 16°C",
# « 19 °C, soit 66 °F », 27°C（约81°F）, 27°C หรือประมาณ 81°F.
_AS_CONVERTED = re.compile(r"[\s,;:(（\[—–=≈~/-]*(?:(?:which|that)\s*(?:is|'s|’s)|i\.e\.|or|about|roughly|around|approx(?:imately|\.)?"
                           r"|some|nearly|almost|close\s+to|soit|environ|à\s+peu\s+près|约|大约|即|相当于|หรือ|ประมาณ"
                           r"|[\s,;:(（\[—–=≈~/-])*", re.I)


def misconverted(sentence: str) -> list[str]:
    """A quantity given again in another unit of its kind ("14°C, roughly 14°F") whose number is not
    the first's converted: a conversion misstated, whatever a call returned (hedged words allow a
    loose rounding: more than a tenth and three units off)."""
    said = quantities_said(sentence)
    found = []
    for (first, one), (second, other) in zip(said, said[1:]):
        if not one.unit or not other.unit or one.unit == other.unit or \
                not _AS_CONVERTED.fullmatch(sentence[sentence.index(one.text, first.start()) + len(one.text):second.start()]):
            continue
        registry = units()
        if registry.Unit(one.unit).dimensionality != registry.Unit(other.unit).dimensionality:
            continue
        converted = registry.Quantity(one.value, registry.Unit(one.unit)).to(registry.Unit(other.unit)).magnitude
        if abs(converted - other.value) > max(3.0, abs(converted) / 10):
            found.append(f"{other.text!r} as {one.text!r} converted, which is {converted:.0f} {other.unit}")
    return found
