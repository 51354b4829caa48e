"""Dates and times in a prompt, in English, French, Thai and Chinese, through ``dateparser``.

``dateparser`` (pinned in pyproject.toml) parses absolute and relative phrases in
200 locales offline ("tomorrow at 7pm", "le 12 mars", "พรุ่งนี้", "明天"). It is
weak at *finding* them in a sentence (``search_dates`` reads "a table for 4
tomorrow" as the 4th), so this module finds candidate phrases itself, from
dateparser's own locale vocabulary (relative words, weekday and month names),
and asks dateparser to parse each phrase.

What dateparser 1.5 cannot read, and is done here (each a documented gap):
"next"/"prochain"/"หน้า"/"下" before or after a weekday (the coming one, as
dateparser reads English "next Friday"); Chinese clock times ("晚上7点", "7点半")
and month-day dates ("3月12日"); Thai "X ทุ่ม" evening hours and Buddhist-era
years; "tonight" in each language.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field

from droid.agent.models.offline.lexicon import THAI_NUMBERS, zh_number

_LANGS = ("en", "fr", "th", "zh")
_THAI = re.compile(r"[\u0E00-\u0E7F]")
_CJK = re.compile(r"[\u4E00-\u9FFF]")
_FRENCH = re.compile(
    r"[àâçéèêëîïôûùüÿœ«»]|\b(?:le|la|les|du|des|une|pour|demain|aujourd'hui|au|ce|soir|prochain|prochaine"
    r"|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|janvier|février|mars|avril|mai|juin|juillet|août"
    r"|septembre|octobre|novembre|décembre)\b",
    re.I,
)

_ISO_DATETIME = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ZH_TIME = re.compile(r"(上午|早上|中午|下午|傍晚|晚上|今晚)?\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*[点點](半|(\d{1,2})\s*分|([0-5]\d)(?!\d))?")
_ZH_DATE = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]")
_TH_EVENING = re.compile(r"(\d{1,2}|หนึ่ง|สอง|สาม|สี่|ห้า)?\s*ทุ่ม(?:นึง|ครึ่ง)?")
# A clock time in the Latin script: 7pm, 7:30 pm, 19:30, 19h30, 20h, 19.00 น.
_TIME = re.compile(
    r"(?<![\d:])(?:(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])"
    r"|(\d{1,2})[:.](\d{2})(?:\s*น\.?)?(?![\d:])"
    r"|(\d{1,2})\s*h\s*(\d{2})?(?![a-z]))",
    re.I,
)
_NOON = re.compile(r"\b(?:noon|midday|midi)\b|เที่ยง(?!คืน)|中午12点", re.I)
_TONIGHT = re.compile(r"\b(?:tonight|this evening|ce soir)\b|คืนนี้|今晚|今天晚上", re.I)
_NEXT = re.compile(r"\b(?:next|this|coming|prochain|prochaine)\b|หน้า|下个?|这个?|本", re.I)


@dataclass
class FoundDates:
    """Dates and times in the order they appear (each a ``datetime.date`` / ``datetime.time``)."""

    dates: list[dt.date] = field(default_factory=list)
    times: list[dt.time] = field(default_factory=list)
    datetimes: list[dt.datetime] = field(default_factory=list)
    rest: str = ""  # the text with the phrases taken out


def languages_of(text: str) -> tuple[str, ...]:
    if _THAI.search(text):
        return ("th", "en")
    if _CJK.search(text):
        return ("zh", "en")
    if _FRENCH.search(text):
        return ("fr", "en")
    return ("en",)


def find_dates(text: str, today: dt.date) -> FoundDates:
    found = FoundDates()
    languages = languages_of(text)
    spans: list[tuple[int, int, object]] = []  # (start, end, value) in text order

    def take(pattern: re.Pattern[str], convert) -> None:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e, _ in spans):
                continue
            value = convert(match)
            if value is not None:
                spans.append((match.start(), match.end(), value))

    take(_ISO_DATETIME, lambda m: dt.datetime(*map(int, m.groups(default="0"))))
    take(_ISO_DATE, lambda m: dt.date(*map(int, m.groups())))
    take(_ZH_DATE, lambda m: _month_day(today, int(m.group(2)), int(m.group(3)), m.group(1)))
    take(_ZH_TIME, _zh_time)
    take(_TH_EVENING, _th_evening)
    take(_NOON, lambda m: dt.time(12, 0))
    take(_TIME, _latin_time)
    take(_TONIGHT, lambda m: today)
    for start, end, value in _phrases(text, languages, today, spans):
        spans.append((start, end, value))
    spans.sort(key=lambda s: s[0])
    for _, _, value in spans:
        if isinstance(value, dt.datetime):
            found.datetimes.append(value)
        elif isinstance(value, dt.date):
            found.dates.append(value)
        elif isinstance(value, dt.time):
            found.times.append(value)
    rest = text
    for start, end, _ in sorted(spans, key=lambda s: -s[0]):
        rest = rest[:start] + " " + rest[end:]
    found.rest = rest
    return found


def _month_day(today: dt.date, month: int, day: int, year: str | None) -> dt.date | None:
    try:
        value = dt.date(int(year) if year else today.year, month, day)
    except ValueError:
        return None
    if not year and value < today:
        value = value.replace(year=today.year + 1)
    return value


def _zh_time(match: re.Match[str]) -> dt.time | None:
    period, hour, half = match.group(1), zh_number(match.group(2)), match.group(3)
    minutes = match.group(4) or match.group(5)
    if period in ("下午", "傍晚", "晚上", "今晚") and hour < 12:
        hour += 12
    minute = 30 if half == "半" else int(minutes or 0)
    return dt.time(hour, minute) if hour < 24 and minute < 60 else None


def _th_evening(match: re.Match[str]) -> dt.time | None:
    """Thai "X ทุ่ม" is X o'clock in the evening (18:00 + X)."""
    count = match.group(1)
    hour = 18 + (int(count) if count and count.isdigit() else THAI_NUMBERS.get(count or "", 1))
    minute = 30 if match.group(0).endswith("ครึ่ง") else 0
    return dt.time(hour, minute) if hour < 24 else None


def _latin_time(match: re.Match[str]) -> dt.time | None:
    """7pm, 7:30 p.m., 19:30, 19.00 น., 19h30, 20h: unambiguous, so read directly."""
    hour, minute, meridiem, hour24, minute24, hour_h, minute_h = match.groups()
    if meridiem:
        h, m = int(hour), int(minute or 0)
        if h > 12:
            return None
        h = h % 12 + (12 if meridiem.lower().startswith("p") else 0)
    elif hour24 is not None:
        h, m = int(hour24), int(minute24)
    else:
        h, m = int(hour_h), int(minute_h or 0)
    return dt.time(h, m) if h < 24 and m < 60 else None


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, languages: tuple[str, ...], base: dt.date | None) -> dt.datetime | None:
    import dateparser

    settings = {"PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}
    if base is not None:
        settings["RELATIVE_BASE"] = dt.datetime.combine(base, dt.time(0, 0))
    try:
        return dateparser.parse(text, languages=list(languages), settings=settings)
    except (ValueError, OverflowError):
        return None


def _parse(text: str, languages: tuple[str, ...], base: dt.date | None) -> dt.datetime | None:
    return _parse_cached(text, languages, base)


@functools.lru_cache(maxsize=None)
def _months(language: str) -> frozenset[str]:
    """Month names: the only date words a day number or a year is written next to."""
    from dateparser.languages.loader import LocaleDataLoader

    info = LocaleDataLoader().get_locale(language).info
    return frozenset(v.lower() for name in ("january", "february", "march", "april", "may", "june", "july",
                                            "august", "september", "october", "november", "december")
                     for v in info.get(name, []))


@functools.lru_cache(maxsize=None)
def _vocabulary(language: str) -> tuple[str, ...]:
    """Words that make a phrase a date in ``language``: dateparser's relative day and week words,
    weekday and month names (abbreviations of one or two letters left out: too ambiguous)."""
    from dateparser.languages.loader import LocaleDataLoader

    info = LocaleDataLoader().get_locale(language).info
    words: set[str] = set()
    for key, values in (info.get("relative-type") or {}).items():
        if re.search(r"\b(day|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", key):
            words.update(values)
    for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                 "january", "february", "march", "april", "may", "june", "july", "august",
                 "september", "october", "november", "december"):
        # Thai abbreviations of one or two letters ("อา", "จ") hide inside other words ("อาหาร").
        words.update(v for v in info.get(name, []) if len(v) >= (2 if language == "zh" else 3))
    words.discard("may")  # "may" is far more often the verb
    return tuple(sorted(words, key=len, reverse=True))


def _phrases(text: str, languages: tuple[str, ...], today: dt.date, taken: list) -> list[tuple[int, int, dt.date]]:
    """Date phrases around each vocabulary word, parsed by dateparser; the longest that parses wins."""
    lower = text.lower()
    results: list[tuple[int, int, dt.date]] = []
    occupied = [(s, e) for s, e, _ in taken]
    spaced = languages[0] in ("en", "fr")
    for language in languages:
        for word in _vocabulary(language):
            for match in re.finditer(re.escape(word.lower()), lower):
                start, end = match.span()
                if spaced and not _word_bounded(lower, start, end):
                    continue
                if any(s < end and start < e for s, e in occupied):
                    continue
                month = word.lower() in _months(language)
                span = _best_span(text, start, end, languages, today, spaced and month, spaced)
                if span is None:
                    continue
                s, e, value = span
                occupied.append((s, e))
                results.append((s, e, value))
    return results


def _word_bounded(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _best_span(text: str, start: int, end: int, languages, today: dt.date, numbered: bool, spaced: bool):
    """The date word with the day and year written next to it ("le 12 mars", "the 12th of March
    2026", "March 12"), parsed by dateparser; the longest such phrase that parses wins."""
    if numbered:
        before = list(re.finditer(r"\S+", text[:start]))[-2:]
        after = list(re.finditer(r"\S+", text[end:]))[:2]
        los, his = [start], [end]
        if before and _DAY.fullmatch(_bare(before[-1].group(0))):
            los.append(before[-1].start())
        elif len(before) == 2 and _bare(before[-1].group(0)) in ("of", "de") and _DAY.fullmatch(_bare(before[0].group(0))):
            los.append(before[0].start())
        if after and _DAY.fullmatch(_bare(after[0].group(0))):
            his.append(end + after[0].end())
            after = after[1:]
        if after and _YEAR.fullmatch(_bare(after[0].group(0))):
            his.append(end + after[0].end())
        candidates = sorted({(lo, hi) for lo in los for hi in his}, key=lambda c: c[0] - c[1])
    elif spaced:
        candidates = [(start, end)]
    else:
        lo = start
        while lo > 0 and (text[lo - 1].isdigit() or text[lo - 1] == " "):
            lo -= 1
        hi = end
        while hi < len(text) and (text[hi].isdigit() or text[hi] in "日号 "):
            hi += 1
        candidates = [(lo, hi), (start, end)]
    for lo, hi in candidates:
        value = _parse_phrase(text[lo:hi], languages, today)
        if value is not None:
            return lo, hi, value
    return None


_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th|er)?")
_YEAR = re.compile(r"(?:19|20|25)\d\d")


def _bare(token: str) -> str:
    return token.lower().strip(",.;:!?")


def _parse_phrase(phrase: str, languages, today: dt.date) -> dt.date | None:
    phrase = _NEXT.sub(" ", phrase).strip(" ,.")
    if not phrase:
        return None
    parsed = _parse(phrase, languages, today)
    if parsed is None:
        return None
    value = parsed.date()
    if value.year > 2400:  # a Thai Buddhist-era year
        value = value.replace(year=value.year - 543)
    return value
