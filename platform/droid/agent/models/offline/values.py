"""Argument values found in a piece of a prompt, handed out by parameter type, each once.

``Values(original, english, today)`` reads the prompt as written (ids, quoted
strings, names, places) and as ``lexicon.to_english`` rewrote it (numbers, enum
words, rooms, cuisines). ``take(name, schema, description)`` returns the value
for one parameter in the shape its JSON Schema declares, or None:

- LocalDate / LocalTime / LocalDateTime objects (``{"year", "month", "dayOfMonth"}``,
  ``{"hour", "minute", "second", "nanoOfSecond"}``) and ISO strings, from ``dates``;
- ``SetField`` objects (``{"value": ...}``), only for a field the prompt names
  ("change the title of note-1 to X"); "remove its text" sets it to null;
- enums (spelled with spaces or in the prompt's language), booleans, numbers with
  units ("45%", "half" = 50, "three of us");
- ids shaped like the example in the parameter's description (ORD-8492, note-1,
  BK-1000), else any id; slugs for ids whose example is one ("trattoria-roma");
- places after a preposition, names after "under" / "au nom de", titles after
  "called", contents after a colon or "saying", and quoted strings, each used once
  and without its quotes.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any

from droid.agent.confirmation import name_words
from droid.agent.models.offline import lexicon
from droid.agent.models.offline.dates import FoundDates, find_dates

QUOTED = re.compile(r'"([^"]+)"|\u201c([^\u201d]+)\u201d|«\s*([^»]+?)\s*»|「([^」]+)」|(?<![\w])\'([^\']+)\'(?![\w])')
ID = re.compile(r"#?\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\b|#\d+\b")
_SLUG = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)+(?![\w-])")
_NUMBER = re.compile(r"(?<![\w.-])-?\d+(?:\.\d+)?(?![\w-])")
_PERCENT = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)\s*(?:%|percent\b|pour ?cent\b|เปอร์เซ็นต์)", re.I)
_EXAMPLE = re.compile(r"(?:for example|e\.g\.|such as)[,:]?\s+([^\s,;]+?)[.,;]?(?:\s|$)", re.I)
_PLACE = re.compile(r"\b(?i:in|at|near|for|à|en)\s+([A-Z][\w'-]*(?:(?:\s+|,\s*)[A-Z][\w'-]*)*)")
_BARE_PLACE = re.compile(r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_NAME_CUE = re.compile(
    r"(?:\bunder(?:\s+the\s+name(?:\s+of)?)?|\bfor\s+the\s+name|\bau\s+nom\s+de|\bin\s+the\s+name\s+of|\bname(?:'s|\s+is|\s*:)"
    r"|\bfor(?=\s+[A-Z][a-z]+\s*[.!?]*$)|ในชื่อ|ชื่อ|名字是|以)"
    r"\s*([A-Z\u0E00-\u0E7F\u4E00-\u9FFF][\w\u0E00-\u0E7F\u4E00-\u9FFF'-]*(?:\s+[A-Z][\w'-]*)*)"
)
_TITLE_CUE = re.compile(
    r"(?:\bcalled|\bnamed|\btitled|\btitle\s+(?:is|to)|\bcall\s+it|\bintitulée?|\bappelée?|标题是|标题为|หัวข้อ|ชื่อเรื่อง)"
    r"\s*[:：]?\s*([^:：,.;!?\n]+?)(?=\s*(?:[:：,.;!?\n]|\band\b|\bsaying\b|$))",
    re.I,
)
_CONTENT_CUE = re.compile(
    r"(?:\bsaying|\bthat says|\bwith (?:the )?text|\bcontent\s+(?:is|to)|\btext\s+(?:is|to)|内容是|内容为|เนื้อหา)"
    r"\s*[:：]?\s*(.+?)\s*[.!?]*$|[:：]\s*(.+?)\s*[.!?]*$",
    re.I,
)
_COLON = re.compile(r"[:：]\s*(.+?)\s*[.!?]*$")
_TO_CUE = re.compile(r"\b(?:to|as|en|à|改为|改成|เป็น)\s+(.+?)\s*[.!?]*$", re.I)
_REASON_CUE = re.compile(r"\b(?:because|since|as|parce que|car)\b\s+(.+?)\s*[.!?]*$|เพราะ(.+)$|因为(.+)$", re.I)
_REMOVE = re.compile(r"\b(?:remove|clear|delete|erase|empty)\b|supprime|efface|ลบ|删除|清空", re.I)
_PLACE_WORDS = frozenset({"location", "city", "place", "address", "destination", "town"})
_NAME_WORDS = frozenset({"name", "guest", "customer", "person"})
_TEXT_KINDS = frozenset({"reason", "comment", "message", "notes", "remark", "explanation"})
_ID_WORDS = ("id", "ids", "number", "code", "ref", "reference", "sku")
_STATE_FLAGS = frozenset({"on", "enabled", "enable", "active", "power", "powered", "state", "flag"})
_TRUE = ("yes", "true", "on", "enable", "enabled", "turn on", "switch on")
_FALSE = ("no", "false", "off", "disable", "disabled", "turn off", "switch off")
LOCAL_DATE = frozenset({"year", "month", "dayOfMonth"})
LOCAL_TIME = frozenset({"hour", "minute", "second", "nanoOfSecond"})


def without_cued_values(text: str) -> str:
    """The text without what follows "called", "under", "saying"...: those words are values, not intent."""
    for pattern in (_TITLE_CUE, _NAME_CUE, _CONTENT_CUE):
        text = pattern.sub(lambda m: m.group(0)[: m.start(m.lastindex) - m.start()] if m.lastindex else m.group(0), text)
    return text


def is_set_field(schema: dict[str, Any]) -> bool:
    return set((schema or {}).get("properties") or {}) == {"value"}


def kind_of(schema: dict[str, Any]) -> str | None:
    kind = (schema or {}).get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind


def is_id_param(name: str, schema: dict[str, Any]) -> bool:
    words = name_words(name)
    return kind_of(schema) == "string" and bool(words) and words[-1] in _ID_WORDS


def example_of(schema: dict[str, Any]) -> str | None:
    match = _EXAMPLE.search((schema or {}).get("description", ""))
    return match.group(1) if match else None


def id_shape(value: str) -> str:
    """ORD-8492 -> "ord-", note-1 -> "note-", BK-1000 -> "bk-": what ids of one kind share."""
    match = re.match(r"([A-Za-z]+[-_#]?)", value)
    return match.group(1).lower() if match else ""


def quoted_strings(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in QUOTED.finditer(text)]


@lru_cache(maxsize=256)
def _dates(text: str, today: dt.date) -> FoundDates:
    """find_dates, once per text: every candidate tool reads the same prompt (the lists are copied)."""
    return find_dates(text, today)


class Values:
    def __init__(self, original: str, english: str, today: dt.date) -> None:
        self.original = original
        self.english = lexicon.numbers_in_words(english)
        self.lower = f" {self.english.lower()} "
        self.quoted = quoted_strings(original)
        unquoted = QUOTED.sub(" ", original)
        found = _dates(lexicon.numbers_in_words(unquoted), today)
        self.dates, self.times, self.datetimes = list(found.dates), list(found.times), list(found.datetimes)
        rest = found.rest
        self.ids = [m.group(0).lstrip("#") for m in ID.finditer(rest)]
        rest = ID.sub(" ", rest)
        english_rest = ID.sub(" ", QUOTED.sub(" ", _dates(self.english, today).rest))
        self.percents = [m.group(1) for m in _PERCENT.finditer(english_rest)]
        self.numbers = [m.group(0) for m in _NUMBER.finditer(english_rest)]
        self._used_cues: set[str] = set()

    # -- one parameter ----------------------------------------------------------------------------

    def take(self, name: str, schema: dict[str, Any], mentioned: bool = True, slugs: bool = True) -> Any:
        """The value for parameter ``name`` (see the module docstring); ``mentioned``: whether the
        prompt names this field (SetField updates are only made to fields it names); ``slugs``:
        whether a name may stand for an id (not when the id can be looked up instead)."""
        schema = schema or {}
        properties = set(schema.get("properties") or {})
        if is_set_field(schema):
            return self._set_field(name, schema["properties"]["value"], mentioned)
        if LOCAL_DATE | LOCAL_TIME <= properties:
            moment = self._datetime()
            return None if moment is None else {**_date_object(moment.date()), **_time_object(moment.time())}
        if LOCAL_DATE <= properties:
            value = self._date()
            return None if value is None else _date_object(value)
        if {"hour", "minute"} <= properties:
            value = _pop(self.times)
            return None if value is None else _time_object(value)
        if "enum" in schema:
            return self._enum([v for v in schema["enum"] if v is not None])
        kind = kind_of(schema)
        words = name_words(name)
        if kind == "boolean":
            return self._boolean(words)
        if kind in ("integer", "number"):
            return self._number(int if kind == "integer" else float, schema)
        if kind != "string":
            return None
        fmt = schema.get("format", "")
        if fmt == "date-time":
            moment = self._datetime()
            return moment.isoformat(timespec="minutes") if moment else None
        if fmt == "date":
            value = self._date()
            return value.isoformat() if value else None
        if fmt == "time" or words == ["time"]:
            value = _pop(self.times)
            return value.strftime("%H:%M") if value else None
        if is_id_param(name, schema):
            return self.identifier(schema, slugs)
        for kind_name, values in lexicon.KINDS.items():
            if kind_name in words:
                return self._kind(values)
        if _PLACE_WORDS & set(words):
            places = self.places()
            return places[0] if places else None
        if _NAME_WORDS & set(words):
            return self._cue(_NAME_CUE, "name")
        if "title" in words or "subject" in words:
            # "create a note: call mom" has no title cue; what follows the colon is the title then.
            return _pop(self.quoted) or self._cue(_TITLE_CUE, "title") or self._cue(_COLON, "content")
        if {"content", "body", "text"} & set(words):
            return _pop(self.quoted) or self._cue(_CONTENT_CUE, "content")
        if _TEXT_KINDS & set(words):
            return _pop(self.quoted) or self._cue(_REASON_CUE, "reason")
        return _pop(self.quoted)

    # -- kinds ------------------------------------------------------------------------------------

    def identifier(self, schema: dict[str, Any], slugs: bool = True) -> str | None:
        """An id shaped like the description's example; a slug of a name when the example is one
        (and ``slugs``); any id when there is no example to compare with."""
        example = example_of(schema)
        if example and _shaped(example):
            shape = id_shape(example)
            value = next((v for v in self.ids if id_shape(v) == shape), None)
            if value is not None:
                self.ids.remove(value)
            return value
        if example and slugs and re.fullmatch(r"[a-z]+(?:-[a-z]+)*", example):
            written = _SLUG.search(QUOTED.sub(" ", self.original))  # the id itself: "trattoria-roma"
            return written.group(0) if written else self.slug()
        return _pop(self.ids) if not example else None

    def slug(self) -> str | None:
        """A capitalised name as a lower-case slug ("Trattoria Roma" -> trattoria-roma; French "au
        Petit Bistro" is "à le Petit Bistro")."""
        text = _NAME_CUE.sub(" ", self.original)  # "under Ana" is the guest, not the place
        for match in re.finditer(r"(?:\b(au|du|aux)\s+)?((?:[A-Z][\w'-]*\s+)*[A-Z][\w'-]*)", text):
            words = match.group(2).split()
            while words and (words[0].lower() in _LEADING or words[0].lower() in lexicon.NOT_PLACES):
                words = words[1:]
            first_word = text.split()[0].strip(",.!?") if text.split() else ""
            if not words or (words[0] == first_word and len(words) == 1):
                continue
            if match.group(1) and words[0].lower() not in ("le", "la"):
                words = ["le", *words]
            return "-".join(w.lower() for w in words)
        return None

    def places(self) -> list[str]:
        found = []
        for native, english in lexicon.PLACES.items():
            if native in self.original and english not in found:
                found.append(english)
        text = QUOTED.sub(" ", self.original)
        for pattern in (_PLACE, _BARE_PLACE):
            for match in pattern.finditer(text):
                at_start = match.start() == len(text) - len(text.lstrip())
                if pattern is _BARE_PLACE and at_start and match.group(1).split()[0].lower() in lexicon.COMMON:
                    continue  # a capital at the start of a sentence is not a name
                place = match.group(1).strip(" ,")
                words = place.split()
                while words and (words[0].lower() in _LEADING or words[0].lower() in lexicon.NOT_PLACES):
                    words = words[1:]
                place = " ".join(words).strip(" ,")
                if place and place.lower() not in lexicon.NOT_PLACES and place not in found:
                    found.append(place)
            if found:
                break
        return found

    def _kind(self, values: dict[str, str]) -> str | None:
        hits = [(self.lower.find(f" {word} "), value) for word, value in values.items() if f" {word} " in self.lower]
        hits += [(self.original.find(word), value) for word, value in values.items()
                 if not word.isascii() and word in self.original]
        return min(hits)[1] if hits else None

    def _cue(self, pattern: re.Pattern[str], key: str) -> str | None:
        if key in self._used_cues:
            return None
        match = pattern.search(self.original)
        if not match:
            return None
        value = next((g for g in match.groups() if g), "").strip().strip("\"'“”«» ")
        if not value:
            return None
        self._used_cues.add(key)
        return value

    def _set_field(self, name: str, inner: dict[str, Any], mentioned: bool) -> dict[str, Any] | None:
        if not mentioned:
            return None
        nullable = "null" in (inner.get("type") or []) if isinstance(inner.get("type"), list) else False
        if nullable and _REMOVE.search(self.original):
            return {"value": None}
        value = _pop(self.quoted) or self._cue(_TO_CUE, "to")
        return {"value": value} if value else None

    def _date(self) -> dt.date | None:
        value = _pop(self.dates)
        if value is None and self.datetimes:
            value = self.datetimes.pop(0).date()
        return value

    def _datetime(self) -> dt.datetime | None:
        if self.datetimes:
            return self.datetimes.pop(0)
        if self.dates and self.times:
            return dt.datetime.combine(self.dates.pop(0), self.times.pop(0))
        return None

    def _enum(self, values: list[Any]) -> Any:
        found = []
        for value in values:
            spelled = str(value).lower()
            for form in {spelled, spelled.replace("_", " "), spelled.replace("-", " ")}:
                at = self.lower.find(f" {form} ")
                if at < 0:
                    at = self.lower.find(f" {form}?")
                if at >= 0:
                    found.append((at, value))
                    break
        return min(found, key=lambda f: f[0])[1] if found else None

    def _boolean(self, words: list[str]) -> bool | None:
        """A flag the prompt names ("high chair", "no high chair"), or on/off for a state flag."""
        words = [w for w in words if w not in ("is", "has", "use")]
        phrase = " ".join(words)
        if phrase:
            match = re.search(rf"\b(no|not|without|don't|dont)?\s*{re.escape(phrase)}s?\b", self.lower)
            if match:
                return match.group(1) is None
        if not set(words) & _STATE_FLAGS:
            return None
        hits = []
        for candidates, value in ((_TRUE, True), (_FALSE, False)):
            for word in candidates:
                found = re.search(rf"\b{word}\b", self.lower)
                if found:
                    hits.append((found.start(), value))
        return min(hits)[1] if hits else None

    def _number(self, kind: type, schema: dict[str, Any]) -> Any:
        description = (schema.get("description") or "").lower()
        pool = self.percents if self.percents and ("percent" in description or "%" in description) else self.numbers
        while pool:
            text = pool.pop(0)
            if pool is self.percents and text in self.numbers:
                self.numbers.remove(text)
            try:
                return kind(float(text)) if kind is int else kind(text)
            except ValueError:
                continue
        return None


_LEADING = frozenset("at the a an book reserve in for to on and et also any great ok okay please".split())


def _shaped(value: str) -> bool:
    return bool(re.search(r"[A-Za-z]", value) and re.search(r"\d", value))


def _pop(values: list[Any]) -> Any:
    return values.pop(0) if values else None


def _date_object(value: dt.date) -> dict[str, int]:
    return {"year": value.year, "month": value.month, "dayOfMonth": value.day}


def _time_object(value: dt.time) -> dict[str, int]:
    return {"hour": value.hour, "minute": value.minute, "second": value.second, "nanoOfSecond": 0}
