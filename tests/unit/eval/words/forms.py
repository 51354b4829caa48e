"""Values written the way people write them, in the reply sets' languages: dates with their weekday,
times on a 12-hour clock, lists joined as a sentence. Reply sets restate what the apps returned in
these forms, truly and wrongly (replies.py: ``{delivery}``, ``{time_12h}``, ``{date_wrong_weekday}``)."""

from __future__ import annotations

import calendar
import datetime as dt

WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "fr": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
    "th": ["วันจันทร์", "วันอังคาร", "วันพุธ", "วันพฤหัสบดี", "วันศุกร์", "วันเสาร์", "วันอาทิตย์"],
    "zh": ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"],
}
MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"],
    "th": ["มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน", "กรกฎาคม", "สิงหาคม", "กันยายน",
           "ตุลาคม", "พฤศจิกายน", "ธันวาคม"],
}
AND = {"en": " and ", "fr": " et ", "th": " และ ", "zh": "和"}
COMMA = {"zh": "、"}


def date_forms(name: str, day: dt.date, lang: str) -> dict[str, str]:
    """``name`` in full with its weekday, and ``name_short`` (day and month), ``name_weekday``,
    ``name_iso``; the same four for ``name_other`` (two days later) and ``name_month_off`` (the same
    day a month later), each with its own weekday; and ``name_wrong_weekday``: the right date said
    with the day before's weekday."""
    forms = {}
    for suffix, when in (("", day), ("_other", day + dt.timedelta(days=2)), ("_month_off", _month_later(day))):
        forms.update({name + suffix: _full(when, when.weekday(), lang), f"{name}{suffix}_short": _short(when, lang),
                      f"{name}{suffix}_weekday": WEEKDAYS[lang][when.weekday()],
                      f"{name}{suffix}_iso": when.isoformat()})
    forms[f"{name}_wrong_weekday"] = _full(day, (day.weekday() - 1) % 7, lang)
    return forms


def time_forms(name: str, hour: int, minute: int, lang: str) -> dict[str, str]:
    """``name`` as HH:MM, ``name_12h`` on the 12-hour clock people say it on (7:30 PM, 7 h 30 du
    soir, 1 ทุ่มครึ่ง, 晚上7点半), and ``name_wrong_half``: the same clock time in the other half
    of the day (7:30 AM for 19:30)."""
    return {name: f"{hour:02d}:{minute:02d}", f"{name}_12h": _twelve(hour, minute, lang),
            f"{name}_wrong_half": _twelve((hour + 12) % 24, minute, lang)}


def joined(names: list[str], lang: str) -> str:
    """A list said as a sentence: "A, B and C", "A、B和C"."""
    if len(names) < 2:
        return "".join(names)
    return COMMA.get(lang, ", ").join(names[:-1]) + AND[lang] + names[-1]


def _full(day: dt.date, weekday: int, lang: str) -> str:
    name = WEEKDAYS[lang][weekday]
    if lang == "zh":
        return f"{day.year}年{day.month}月{day.day}日（{name}）"
    if lang == "th":  # Thai dates count years in the Buddhist era
        return f"{name}ที่ {day.day} {MONTHS['th'][day.month - 1]} {day.year + 543}"
    if lang == "fr":
        return f"{name} {'1er' if day.day == 1 else day.day} {MONTHS['fr'][day.month - 1]} {day.year}"
    return f"{name}, {MONTHS['en'][day.month - 1]} {day.day}, {day.year}"


def _short(day: dt.date, lang: str) -> str:
    if lang == "zh":
        return f"{day.month}月{day.day}日"
    if lang == "en":
        return f"{MONTHS['en'][day.month - 1]} {day.day}"
    return f"{day.day} {MONTHS[lang][day.month - 1]}"


def _month_later(day: dt.date) -> dt.date:
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


def _twelve(hour: int, minute: int, lang: str) -> str:
    h12 = hour % 12 or 12
    if lang == "zh":  # 凌晨0点 is midnight: Chinese counts the small hours from 0
        h12 = hour if hour == 0 else h12
        period = "凌晨" if hour < 6 else "上午" if hour < 12 else "中午" if hour == 12 else "下午" if hour < 18 else "晚上"
        return f"{period}{h12}点" + ("半" if minute == 30 else f"{minute}分" if minute else "")
    if lang == "th":
        return _thai_clock(hour, "ครึ่ง" if minute == 30 else f" {minute} นาที" if minute else "")
    if lang == "fr":
        if hour in (0, 12):
            return ("minuit" if hour == 0 else "midi") + (f" {minute:02d}" if minute else "")
        period = "du matin" if hour < 12 else "de l'après-midi" if hour < 18 else "du soir"
        return f"{h12} h {minute:02d} {period}" if minute else f"{h12} h {period}"
    return f"{h12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


# Thai's six-hour clock, by the last hour each form covers: ตี 1-5 at night, โมงเช้า, เที่ยง,
# บ่าย, โมงเย็น, then 1-5 ทุ่ม.
THAI_CLOCK = ((0, "เที่ยงคืน{past}"), (5, "ตี {h}{past}"), (11, "{h} โมง{past}เช้า"), (12, "เที่ยง{past}"),
              (15, "บ่าย {pm} โมง{past}"), (18, "{pm} โมง{past}เย็น"), (23, "{night} ทุ่ม{past}"))


def _thai_clock(hour: int, past: str) -> str:
    form = next(form for last, form in THAI_CLOCK if hour <= last)
    return form.format(h=hour, pm=hour - 12, night=hour - 18, past=past)
