"""The reply against what the apps returned: values it must carry, values it must not make up.

What is known in a conversation is what its calls returned, what the user said, the
arguments of the calls, what the agent was told of its tools (an example id in a
description) and the run date. Checked in every reply's asserting clauses
(sim/eval/phrases.py):

- an identifier (ORD-8492, BK-1001, QX-4471, #58213) nobody said and no call returned is
  made up;
- a number no call returned and nobody said is made up, give or take rounding (19.4 said as
  19), a Celsius/Fahrenheit conversion, a 12-hour clock time and a count of what a list
  held; on a turn no app could serve, only where the user asked for something to be done
  (a question such as "What's a 15% tip on $80?" the agent may answer from what it knows);
- in English, a value of a field with a fixed set of values (the result schema's enum:
  "delivered" for an order whose status is SHIPPED) that the field does not have, in a
  clause that is not negated ("it hasn't been delivered yet" states nothing); a clause
  that names one result's identifier is held to that result (a part of one, an order's item,
  to the result that holds it), a list item to what the items above it or its heading name;
- in English, a field said to be empty ("it doesn't have any text") that is not, and nothing
  said to be free ("no openings at 19:00") where the search found some then;
- a clause said of "everything else", "the others", "the rest" is held to what the reply did not
  name, and a word that qualifies the action's noun ("Annulation confirmée") is no value;
- a date, a time of day or a quantity with its unit is compared as that kind of value
  (sim/eval/restated.py: "Friday 14 June" of a Saturday, "7:30 AM" for 19:30, "14°F" for 14 °C),
  in a hedged clause too where it restates a result's ("it should arrive on Friday");
- a JSON or YAML object or a table is read row by row (sim/eval/structure.py), each field held to
  the result its row's key names;
- on a question the agent may answer from what it knows, a name or a quotation in a sentence that
  answers it is no value a call should have returned.

A read turn's reply must also carry what the user asked for: the fields the case names
(``tell: [status]``), else at least one value of each expected call's answer that the
request did not already hold (an order's status or carrier, a temperature, a restaurant's
name). Replies in another language than English carry only what survives translation:
there, only the named fields' numbers, identifiers and names are required, and the
default is not.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from sim.eval.arithmetic import miscalculated
from sim.eval.phrases import STATE_ELSEWHERE, Cues
from sim.eval.restated import (agrees, dates_in, dates_said, dates_spans, misconverted, misdated, moments_in, quantities_said,
                               times_said, unit_of_field, units_of_kind, wrong_half_of_day)
from sim.eval.structure import OUTCOME_FIELD, YES_NO, Record, field_words, parse
from sim.eval.value_words import (abilities_said, counted, counts_said, emptiness_said, of_its_kind, ownership_said,
                                  values_said)

_ID = re.compile(r"#\d{3,}|\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b"
                 r"|\b(?=\w*\d)(?=\w*[A-Za-z])[A-Za-z0-9]{4,}\b|\b[A-Za-z]{1,4}-\d+\b")
# A number with its unit or ending is no identifier: 7pm, 20h, 3rd, 10km, 5kg, 3-pack.
_NUMBER_WITH_UNIT = re.compile(r"^#?\d+(?:st|nd|rd|th|am|pm|h|hr|hrs|min|mins|km|kmh|mph|kg|g|ml|l|c|f|s|x|k|m)$"
                               r"|^\d+-[a-z]+$|^\d{1,2}h\d{2}$", re.I)  # 20h30: a French time
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)?(?![A-Za-z0-9_]*\d)")
# The unit a number is said in, and the words of the fields that hold such numbers.
_UNITS = {"temperature": (re.compile(r"^\s*(?:°|º|degrees?\b|deg\b)", re.I), re.compile(r"°|temperature", re.I)),
          "percent": (re.compile(r"^\s*(?:%|percent\b|per cent\b)", re.I), re.compile(r"%|percent", re.I))}
# A name: two or more capitalised words ("Chez Marcel", "Le Petit Bistro", "Bistro Lumière": Latin
# letters with accents too), or one after a word in lower case ("the Garage light"), not one that
# any English text capitalises.
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"
_NAME = re.compile(rf"\b[{_UPPER}][{_LOWER}]+(?:\s+(?:[{_UPPER}][{_LOWER}]+|de|du|la|le|des|of|van|von))*"
                   rf"\s+[{_UPPER}][{_LOWER}]+\b|(?<=[a-z]\s)[{_UPPER}][{_LOWER}]{{2,}}\b"
                   rf"|\b[{_UPPER}][{_LOWER}]+(?:[{_UPPER}][{_LOWER}]+)+\b")  # a capital inside a word: FedEx, DoorDash
# Languages written without capitals, where a capitalised Latin word is a name wherever it stands.
_UNCASED = frozenset({"th", "zh"})
_UNCASED_SCRIPT = re.compile(r"[\u0e00-\u0e7f\u3400-\u9fff]")
_ALWAYS_CAPITALISED = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december celsius fahrenheit ok okay".split())
# A number with its unit just before a word: what follows a value listed on one line opens a new
# sentence ("💨19 km/h Outside there's…"), whose capital says nothing of a name.
_AFTER_A_QUANTITY = re.compile(r"\d(?:[.,]\d+)?\s*(?:%|°\s?[CF]?|[a-zA-Z]{1,4}(?:/[a-zA-Z]{1,2})?)\s+$")
_LIST_MARKS = " \t-*•·|—–:"
# An article in capitals before a name opens its sentence ("Done ✔️ The Bedside lamp is off"): no
# word of the name, which a call returned without it.
_OPENING_ARTICLE = re.compile(r"^(?:The|A|An)\s+(?=\S)")


# A word that opens a sentence, not a name, at a name's end: the next sentence run on after a name
# with no stop ("🌡️ 14°C in San Francisco None of those lights is on").
_RUN_ON_OPENER = re.compile(r"\s+(?:None|No|Neither|Nothing|All|Both|Everything|It|Its|There|This|That|They|The)$")


def _unarticled(name: str) -> str:
    """``name`` without an opening article ("The Bedside": "Bedside"), nor a sentence run on after it."""
    return _RUN_ON_OPENER.sub("", _OPENING_ARTICLE.sub("", name))


# A name said as an app's ("the Notes app", "in the Weather application") names a tool, not a value.
_AN_APP = re.compile(r"\s+(?:apps?|applications?)\b", re.I)
_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")
_QUESTION_WORDS = frozenset("what what's whats where which when who whom whose does would could should there their "
                            "about tell know please".split())
# A clause about the user or their things: never general knowledge ("your flight leaves at 7:40").
_PERSONAL = re.compile(r"\b(?:you|your|yours|you're|you'll|you've|my|mine|me|our|us|i|i'm|i've|i'll|we|we've)\b", re.I)
_EMPTY = re.compile(r"(?:\b(?:the|its|his|her|their|your)\s+(?P<noun3>[a-z]+)\s+)?"  # "the text is now empty"
                    r"(?:\b(?:is|are|was|were|looks?|seems?)|'s|'re)\s+(?:an?\s+)?(?:(?:now|still|currently|already|otherwise|\w+ly)\s+)?"
                    r"(?:empty|blank)\b|\bnothing\s+(?:written\b|(?:written\s+)?(?:in|inside|under|below|beneath)\b"
                    r"|on it\b)|\bcontains\s+nothing\b|\b(?:has|have|had)(?:\s+got)?\s+no\s+(?P<noun>\w+)"
                    r"|\b(?:doesn't|does not|don't|do not|hasn't|has not|haven't|have not)\s+(?:got|have)\s+"
                    r"(?:any\s+(?P<noun2>\w+)|anything\b)", re.I)
# "Nothing in X" as the subject of its own verb ("nothing in the record suggests a problem", "nothing in
# it is urgent"): what is in X is said of, not that X is empty. Function words that end like a verb
# are none.
_NOTHING_AS_SUBJECT = re.compile(r"nothing\s+(?:in|inside|under|below|beneath)\s+(?:[\w-]+\s+){1,4}?"
                                 r"(?!(?:besides|as|its|this|his|hers|ours|yours|theirs|thus|unless|plus|perhaps|yes)\b)"
                                 r"(?:\w+(?:s|ed)|is|was|can|could|will|would|should|may|might|must|has|had)\b", re.I)
# A clause said of all but what the reply names: "everything else", "all the others", "the rest",
# "le reste", "les autres", 其他的, ที่เหลือ.
_BUT_THE_NAMED = re.compile(r"\b(?:else|others|the other|the rest|remaining|le reste|les autres|l'autre)\b"
                            r"|其他|其余|别的|ที่เหลือ|อื่นๆ", re.I)
# "the other scale", "l'autre unité": "other" before a noun, which says what kind of other it is.
_OTHER_NOUN = re.compile(r"\b(?:the other|l'autre|les autres)\s+([^\W\d_]{3,})", re.I)


def _other_of_no_thing(said: str, others: list[Any]) -> bool:
    """A clause's "the other <noun>" that names none of the things the reply left unnamed ("about 72°F
    in the other scale" of a weather report and its time zone): another unit or way, not the rest
    of the results, so the clause keeps its own scope. A noun is a thing's when its stem is in a
    field's name or value ("the other lights" of lights named "Porch light")."""
    found = _OTHER_NOUN.search(said)
    if not found:
        return False
    stem = found.group(1).lower()[:4]
    return bool(others) and not any(stem in f"{key} {value}".lower() for part in others
                                    for key, value in _named_leaves(part))


# A clause that opens on a pronoun speaks of what the sentences before it named, the nearest first:
# "ORD-8492? It's delivered" is said of ORD-8492; so is the pronoun of what the app is reported to
# say ("You asked about ORD-7310. The app says it can still be cancelled").
_LEADING_ASIDE = re.compile(r"^\s*[(（][^()（）]*[)）]\s*")
_ANAPHOR = re.compile(r"^\s*(?:(?:the\s+)?(?:app|application|shop|store|system|service|result|response)\s+"
                      r"(?:says|said|shows|showed|reports|reported|notes|noted|indicates|indicated)\s+(?:that\s+)?"
                      # where the words come from, put first: "According to the order details, it …", "Per the app it …"
                      r"|(?:according\s+to|per|based\s+on|going\s+by|judging\s+by)\s+(?:the|your|its|their|what)\s+"
                      r"(?:[\w-]+\s+){0,2}?(?:details?|records?|data|info|information|results?|response|app|application|"
                      r"system|listing|page|status|says|shows)\s*,?\s*)?"
                      r"(?:it|it's|its|that|that's|this|she|he|which)\b", re.I)
# A number said as a count: a word follows it (a noun or a classifier: "2 lights", "3 commandes",
# "2 ดวง", "2 盏"), or a word of counting goes before it ("all 2", "the 3", "each of the 2", "les 2").
_COUNTED = re.compile(r"\s*(?:[^\W\d_]+\s+)?(?P<noun>[^\W\d_]+)", re.UNICODE)
_COUNTING = re.compile(r"(?:\b(?:all|the|these|those|both|each of the|of the|les|ces|tous les|toutes les)\s*|共|ทั้ง(?:หมด)?\s*)$",
                       re.I)
# A list item speaks of what the heading above it names: "Weather for Tokyo:\n- Conditions: clear".
_LIST_ITEM = re.compile(r"^\s*(?:[-*•|]|\d+[.)])\s")  # a table's row too
_ITEM_NUMBER = re.compile(r"^[ \t>*_]*\d{1,2}[.)](?=[ \t]+\S)", re.M)  # "2. It came back foggy", "3) Feels like…"
# Text a reply gives as what a thing says, whose words must be the thing's own: a quotation of a
# few words, a quoted block ("> ..."), or the lines under a heading that quotes a title or says
# what follows is its text ("Here's “Welcome”:", "It reads:").
_QUOTATION = re.compile(r"[“\"«「]\s*([^\W\d_][^”\"»」\n{}\[\]]{11,})[”\"»」]")  # words, not JSON
_ANY_QUOTE = re.compile(r"[“\"«「][^”\"»」\n]*[”\"»」]")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?。！？\n])\s")
_QUOTED_LINE = re.compile(r"^\s*>\s?(.+)$", re.M)
_TEXT_HEADING = re.compile(r"(?:[“\"«「][^”\"»」\n]+[”\"»」]|\b(?:says?|reads?|contains?|contents?|text|written)\b)"
                           r"[^\n:]*:\s*$", re.I)
_TEXT_WORD = re.compile(r"[^\W\d_]{4,}")
_CHARACTER = re.compile(r"[\u4e00-\u9fff\u0e00-\u0e7f]")  # Chinese and Thai: no spaces between words
# A line that gives a state to what it names: "- On: Pendant and Porch light", "Currently lit:
# Pendant", "Lamps now off: Porch", "Bedside lamp and Ceiling light — off".
_STATE_FIRST = re.compile(r"^[\s\-*•]*(?:[^\w\s]+\s*)?(?:(?:[A-Za-z]+\s+)?(?:currently|now|still|right now)\s+)?(?P<state>[A-Za-z]+)"
                          r"\s*:\s*(?P<names>.+)$", re.I)
_STATE_ANSWER = re.compile(r"^(?P<names>[^?]+)\?\s*(?P<state>[A-Za-z]+)\b")  # "Bedside lamp? Off, says the app."
_STATE_LAST = re.compile(r"^(?P<names>.+?)\s*(?:[—–:→]|\s-|->|=>)\s*(?P<state>[A-Za-z]+)\W*$")
# A thing's name is not what is in it: "nothing in the note besides its title" speaks of the rest.
_NAMING_FIELD = re.compile(r"name|title|label|heading|subject|caption|owner|id$", re.I)
_MACHINE = re.compile(r"://|^[a-z]+(?:\.[a-zA-Z_$]+){2,}$")  # URIs, package and class names


@dataclass
class Known:
    """What a conversation has said so far."""

    run_date: dt.date
    results: list[tuple[dict[str, Any], Any]] = field(default_factory=list)  # (response schema, result)
    said: list[str] = field(default_factory=list)  # the user's words
    args: list[str] = field(default_factory=list)  # the calls' arguments, as JSON
    told: str = ""  # what the agent was told of its tools (their descriptions and examples)
    _names: dict[int, list[tuple[Any, set[str]]]] = field(default_factory=dict, repr=False, compare=False)
    _memo: dict[tuple[str, int], Any] = field(default_factory=dict, repr=False, compare=False)

    def of_part(self, what: str, part: Any, read: Any) -> Any:
        """``read(part)``, read once per part of a result (the results stay for the conversation)."""
        key = (what, id(part))
        if key not in self._memo:
            self._memo[key] = read(part)
        return self._memo[key]

    def add_result(self, schema: dict[str, Any], result: Any, args: dict[str, Any]) -> None:
        self.results.append((schema or {}, result))
        self._memo.pop(("descriptions", id(self.results)), None)
        self.args.append(json.dumps(args, ensure_ascii=False, default=str))

    def text(self) -> str:
        """Everything said so far, lower case: the results, the user's words, the arguments, the dates."""
        return " ".join([json.dumps([r for _, r in self.results], ensure_ascii=False, default=str),
                         self.said_text(), self.told]).lower()

    def said_text(self) -> str:
        dates = [self.run_date + dt.timedelta(days=d) for d in range(-1, 8)]
        return " ".join([*self.said, *self.args, *(d.isoformat() for d in dates)]).lower()

    def scope(self, *texts: str) -> list[Any]:
        """The parts of the results a statement is about: those it names by one of their words
        (an order's id, a light's or a city's name), trying the clause, then its sentence; else all."""
        return next((named for named in map(self.named, texts) if named), [r for _, r in self.results])

    def named(self, text: str) -> list[Any]:
        """The parts of the results a text names, the newest word on each (the one that holds)."""
        said, named, seen = text.lower(), [], set()
        for _, result in reversed(self.results):
            found = set()
            for part, its_names in self._named_parts(result):
                names = {name for name in its_names if name in said}
                if names - seen:
                    named.append(part)
                found |= names
            seen |= found
        return named

    def _named_parts(self, result: Any) -> list[tuple[Any, set[str]]]:
        """A result's parts with their names, lower case: read once, for every clause of every reply."""
        if id(result) not in self._names:
            self._names[id(result)] = [(part, {v.lower() for v in part.values() if _names_it(v)})
                                       for part in _dicts(result)]
        return self._names[id(result)]

    def latest(self, scope: list[Any]) -> list[Any]:
        """The parts in scope that no newer result speaks of again by one of their names: a note
        read, then emptied, is the emptied one."""
        newer: set[str] = set()
        kept = []
        for _, result in reversed(self.results):
            names = set()
            for part, its_names in self._named_parts(result):
                if any(part is p for p in scope) and not its_names & newer:
                    kept.append(part)
                names |= its_names
            newer |= names
        return [p for p in scope if any(p is k for k in kept) or not any(p is d for _, r in self.results for d in _dicts(r))]

    def others(self, reply: str) -> list[Any]:
        """The named parts of the results that the reply does not name: what "everything else",
        "all the others", "the rest" speak of ("Ceiling light on. Everything else is off")."""
        said = reply.lower()
        named = [(part, [v.lower() for v in part.values() if _names_it(v)])
                 for _, result in self.results for part in _dicts(result)]
        return [part for part, names in named if names and not any(name in said for name in names)]

    def holders(self, scope: list[Any]) -> list[tuple[Any, Any]]:
        """Each part in scope with the result that holds it."""
        return [(part, next((r for _, r in self.results if any(part is d for d in _dicts(r))), part)) for part in scope]

    def said_numbers(self) -> set[float]:
        return {float(n.replace(",", ".")) for n in _NUMBER.findall(self.said_text().replace("-", " "))}

    def returned_numbers(self, scope: list[Any], unit: str | None = None) -> set[float]:
        """The numbers of the results in scope (of the fields said in ``unit``, a temperature "in
        °C", a brightness "in percent", when any field is)."""
        fields = self._fields_in(unit) if unit else set()
        # Magnitudes, as said_numbers reads the reply: a sign is said in words ("you spent 42.50")
        # as often as with a minus, which a reply's hyphens make unreadable.
        found = {abs(float(v)) for part in scope for name, v in _named_leaves(part)
                 if isinstance(v, (int, float)) and not isinstance(v, bool) and (not fields or name in fields)}
        return found | {float(n.replace(",", ".")) for part in scope for _, v in _named_leaves(part)
                        if isinstance(v, str) for n in _NUMBER.findall(v.replace("-", " "))}

    def _fields_in(self, unit: str) -> set[str]:
        _, unit_words = _UNITS[unit]
        return {name for schema, _ in self.results for name, description in _described_fields(schema)
                if unit_words.search(f"{name} {description}")}

    def times(self, scope: list[Any]) -> set[tuple[int, int]]:
        """The times of day said, and those of the results in scope: (hour, minute)."""
        found = {(int(v["hour"]), int(v.get("minute") or 0)) for part in scope for v in _dicts(part)
                 if isinstance(v.get("hour"), int)}
        found |= {(moment.hour, moment.minute) for part in scope for moment in self.of_part("moments", part, moments_in)}
        said_hours = {(int(n), None) for n in _NUMBER.findall(" ".join(self.said)) if n.isdigit() and 0 < int(n) <= 24}
        return found | said_hours | _times(self.said_text()) | {t for part in scope for _, v in _named_leaves(part)
                                                               if isinstance(v, str) for t in _times(v)}

    def clock_times(self, scope: list[Any]) -> set[tuple[int, int | None]]:
        """The times of day whose half of the day is known: the results' in scope, the user's said so."""
        found = {(int(v["hour"]), int(v.get("minute") or 0)) for part in scope for v in _dicts(part)
                 if isinstance(v.get("hour"), int)}
        texts = [*self.said, *(v for part in scope for _, v in _named_leaves(part) if isinstance(v, str))]
        found |= {(moment.hour, moment.minute) for part in scope for moment in self.of_part("moments", part, moments_in)}
        return found | {(t.hour, t.minute) for text in texts for _, t in times_said(text) if t.certain}

    def dates(self, language: str) -> set[dt.date]:
        """Every date the conversation holds: the results', the arguments', the user's, the days around the run."""
        found = {d for _, result in self.results for d in dates_in(result)} | \
            {moment.date() for _, result in self.results for moment in moments_in(result)} | \
            {self.run_date + dt.timedelta(days=d) for d in range(-1, 8)}
        return found | self.said_dates(language)

    def said_dates(self, language: str) -> set[dt.date]:
        """The dates the user said and the calls were given."""
        found = {d for args in self.args for d in dates_in(json.loads(args))}
        for said in self.said:
            for date in dates_said(said, language):
                found |= {dt.date(year, date.month, date.day) for year in
                          ([date.year] if date.year else [self.run_date.year, self.run_date.year + 1])
                          if _valid(year, date.month, date.day)}
        return found

    def descriptions(self) -> dict[str, str]:
        """Each field of the results' schemas by name, with its description."""
        return {name: description for schema, _ in self.results for name, description in _described_fields(schema)
                if description}

    def longest_list(self) -> int:
        return max((len(v) for _, r in self.results for v in _lists(r)), default=0)

    def calls_per_function(self) -> set[int]:
        """How many calls each function answered (the results that share a schema): "2 lights
        switched" after two calls that switched one each."""
        counted: dict[str, int] = {}
        for schema, _ in self.results:
            key = json.dumps(schema, sort_keys=True, default=str)
            counted[key] = counted.get(key, 0) + 1
        return set(counted.values())


def told_of(tools: Iterable[Any]) -> str:
    """What the agent is told of its tools, as text: their descriptions and parameters."""
    return " ".join(f"{t.description} {json.dumps(t.parameters, ensure_ascii=False)}" for t in tools)


def made_up(text: str, known: Known, cues: Cues, *, language: str, numbers: bool = True,
            exclude: Iterable[str] = (), promised: bool = False, knowledge: bool = False) -> list[str]:
    """The values the reply states that nothing in the conversation said, each with why, in a
    reply in ``language``. ``promised``: a hedged clause counts too ("it will arrive at 7:40" on a
    request no app served). ``knowledge``: a question the agent may answer from what it knows, where a
    name said of the world rather than of the user ("the capital of Australia is Canberra") is no
    value a call should have returned. The reply's structures (JSON, YAML, tables: sim/eval/structure.py)
    are read field by field, each held to the result its row names; the rest as prose."""
    if language in _UNCASED and not _UNCASED_SCRIPT.search(re.sub(r"“[^”]*”|「[^」]*」", "", text)):
        language = "en"  # a Thai or Chinese request answered in English (its names quoted): read as English is
    reading = _Reading(known, language, numbers, {e.lower() for e in exclude}, knowledge)
    structured = parse(text)
    reading.counts |= _items_listed(text, structured.records)
    structured = replace(structured, prose=_without_item_numbers(structured.prose))
    found = [why for record in structured.records for why in reading.record(record, cues)]
    # A call's own sentence quoted as another field's value ("renamed note-1 to “<its text>”") is read
    # before such quotations are blanked below.
    found += [why for sentence in _SENTENCE_BREAK.split(structured.prose)
              for why in _swapped(sentence, known.latest(known.scope(sentence)))]
    found += _names_embellished(text, known) + _listed_unnamed(text, known) + [why for sentence in _SENTENCE_BREAK.split(structured.prose)
                                                 for why in misconverted(sentence)]
    # A call's own sentence quoted ("the store responded: “The order cannot be cancelled because it
    # is delivered.”") states nothing the call did not (a quoted name still says what it speaks of).
    text = _QUOTATION.sub(lambda m: "“…”" if len(m.group(1).split()) >= 4 and
                          m.group(1).strip().lower() in reading.seen_text else m.group(0), structured.prose)
    earlier: list[str] = []  # the sentences before this clause's, the nearest first
    clauses = cues.clauses(text)
    after = {c.sentence: n.sentence for c, n in zip(clauses, clauses[1:]) if n.sentence != c.sentence}
    asserted = {c.sentence for c in clauses if c.asserts and not c.question and not c.hedged}
    negated = {c.sentence for c in clauses if c.negated}
    for clause in clauses:
        if not earlier or earlier[0] != clause.sentence:
            earlier.insert(0, clause.sentence)
            if clause.sentence in asserted:  # "M-12 is nothing but a heading" spans clauses ("nothing", "but")
                found += reading.sentence_said(clause.sentence, negated=clause.sentence in negated)
        if clause.question:
            continue
        said = clause.plain
        # an aside opening a sentence closes the one before ("Quick answer: shipped. (ORD-8492, UPS)")
        own = clause.sentence if _LEADING_ASIDE.sub("", clause.sentence).find(said) < 0 else \
            _LEADING_ASIDE.sub("", clause.sentence)
        spoken = known.scope(said, own, *_spoken_of(said, own, earlier[1:], after.get(clause.sentence, "")))
        scope = known.others(text) if _BUT_THE_NAMED.search(said) and not _other_of_no_thing(said, known.others(text)) \
            else spoken
        found += reading.fields_said(said, known.latest(spoken), clause.negated)  # "someone else's" is no "else"
        if clause.hedged and not promised:  # "it should arrive on Friday, June 14": the app's estimate restated
            found += reading.restated(said, scope) if not clause.negated else []
            continue
        found += reading.clause(said, scope, clause.negated, known.named(clause.sentence), clause.sentence)
    found += _text_not_returned(_QUOTED_LINE.findall(text) + _under_text_headings(text) +
                                _quoted(text, cues, reading.of_the_world), reading.seen_text)
    if reading.english:
        found += _states_as_labels(text, known)
    if knowledge:  # "A 15% tip on $80 is $15": no app's to say, arithmetic's
        found += miscalculated(structured.prose, " ".join(known.said))
    return list(dict.fromkeys(found))


# A wait said in numbers: "3-5 business days", "about 20 minutes", « 48 heures », 3 天, 20 นาที (not 日
# nor 周: a date's day, 30日, and a weekday, 周五).
_A_WAIT = re.compile(r"(?P<n>\d+(?:[.,]\d+)?(?:\s*(?:-|–|to|à|~|至|到)\s*\d+(?:[.,]\d+)?)?)\s*"
                     r"(?:(?:business|working|calendar)\s+|个?工作)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?"
                     r"|jours?(?:\s+ouvrés)?|heures?|semaines?|分钟|小时|天|นาที|ชั่วโมง|วัน|สัปดาห์)(?![a-zà-ÿ])",
                     re.I)


class _Reading:
    """What a reply's values are held to, read once per reply: the conversation and its language."""

    def __init__(self, known: Known, language: str, numbers: bool, excluded: set[str], knowledge: bool = False) -> None:
        self.known, self.language, self.numbers, self.excluded = known, language, numbers, excluded
        self.knowledge = knowledge
        self.english = language == "en"
        self.seen_text, self.longest, self.said_numbers = known.text(), known.longest_list(), known.said_numbers()
        self.counts = known.calls_per_function()  # what a count may be: how often a function answered,
        # how many items the reply lists (made_up adds those)
        self.enums = _enum_fields(known.results)

    @functools.cached_property
    def descriptions(self) -> dict[str, str]:
        return self.known.of_part("descriptions", self.known.results, lambda _: self.known.descriptions())

    @functools.cached_property
    def said_dates(self) -> set[dt.date]:
        return self.known.said_dates(self.language)

    @functools.cached_property
    def dates(self) -> set[dt.date]:
        return self.known.dates(self.language)

    def of_the_world(self, sentence: str) -> bool:
        """On a question the agent may answer from what it knows, a sentence that answers it: one
        that shares a word with the question ("Canberra is the capital of Australia") or is a few
        words ("It's Canberra."), and says nothing of the user ("your flight leaves at 7:40")."""
        if not self.knowledge or _PERSONAL.search(sentence):
            return False
        asked = {w.lower() for said in self.known.said for w in _CONTENT_WORD.findall(said)} - _QUESTION_WORDS
        words = _CONTENT_WORD.findall(sentence)
        return len(sentence.split()) <= 4 or bool({w.lower() for w in words} & asked)

    def clause(self, said: str, scope: list[Any], negated: bool, named: list[Any], sentence: str = "",
               label: str = "") -> list[str]:
        """The values one asserting clause states that the results it speaks of do not hold.
        ``named``: what its sentence names, for the states said in other languages. ``label``: a
        field's name that opens ``said``, whose words name the field, not a value ("ส่งถึงประมาณ", the
        estimated delivery, says no order is delivered)."""
        known, found = self.known, []
        for token in _ID.findall(said):
            if not _NUMBER_WITH_UNIT.match(token) and token.lower().lstrip("#") not in self.seen_text:
                found.append(f"{token!r}, which no call returned")
        if self.english or self.language in _UNCASED:  # in Thai or Chinese, a word in Latin capitals is a name
            dated = [m.span() for m in dates_spans(said, self.language)]  # "Sunday March 15": a date, read as one
            for match in _NAME.finditer(said, 1):  # not the clause's first word, capitalised anyway
                name = match.group(0)
                if any(s < match.end() and match.start() < e for s, e in dated) or " " not in name and (
                        _AFTER_A_QUANTITY.search(said, 0, match.start()) or self._after_a_name(said[:match.start()])):
                    continue  # "💨9.7 km/h Based on what…", "💧 64% — Paris Based on what…": a sentence run on
                    # after a value, not a name
                if _unarticled(name).lower() not in self.seen_text and name.lower() not in _ALWAYS_CAPITALISED and \
                        not _AN_APP.match(said, match.end()) and not self.of_the_world(sentence or said):
                    found.append(f"{name!r}, which no call returned")
        if self.numbers and not negated:
            found += self._numbers(said, scope, sentence)
        if not negated:
            valued = _without_reporting(_without_the_action(said[len(label):], self.excluded))
            valued = _blank(valued, _vouched_by_the_app(valued) + _done_by_way_of(valued, scope))
            holders = known.holders(scope)
            if self.english:
                found += _other_enum_values(valued, self.enums, holders, self.excluded) + _flipped_states(said, scope)
            else:
                found += _flipped_elsewhere(said, named, self.language)
            found += _other_values_said(valued, self.language, self.enums, holders, self.excluded)
        if negated and self.english:
            found += _denied_values(_without_the_action(said, self.excluded), self.enums, known.holders(scope),
                                    self.excluded)
        if self.english:
            found += _untrue_for_all(said, scope) + _said_empty(said, known, scope) + _none_free(said, known, scope)
        return found + _misnamed(said, known, scope) + _swapped(said, scope)

    def _after_a_name(self, before: str) -> bool:
        """``before`` (what a clause says before a word in capitals) is a name a call returned, alone:
        a value listed with no stop after it ("… · 💧 64% — Paris"), so the capital opens a sentence."""
        value = before.strip(_LIST_MARKS).strip()
        return bool(value) and value[:1].isupper() and re.search(rf"(?<!\w){re.escape(value.lower())}(?!\w)",
                                                                 self.seen_text) is not None

    def fields_said(self, said: str, parts: list[Any], negated: bool) -> list[str]:
        """What a clause says can be done to the things it speaks of and whose they are, against
        their fields (asserted or hedged: "can" is a hedge's word too)."""
        found = _ability_misstated(said, self.language, parts)
        return found + (_ownership_misstated(said, self.language, parts, self.descriptions) if not negated else [])

    def sentence_said(self, sentence: str, negated: bool) -> list[str]:
        """What an asserting sentence says of how much its things hold and of their text, read across
        its clauses ("M-12 is nothing but a heading"; Thai's "มีสินค้า 5 ชิ้น", whose spaces end
        clauses): a count is held to every count of the things it names, so two things in a
        sentence are each a count it may say."""
        parts = self.known.latest(self.known.scope(sentence))
        found = _emptiness_misstated(sentence, self.language, parts, self.descriptions)
        if not negated:  # a quotation may hold a dash that ends a clause: read across them
            found += _text_not_held(sentence, self.known, parts)
        if self.numbers and not negated:
            found += _count_misstated(sentence, self.language, self.known, parts, self.descriptions)[0]
            found += _quantity_misstated(sentence, parts)
        return found

    def restated(self, said: str, scope: list[Any]) -> list[str]:
        """What a hedged clause restates of the results it speaks of, said otherwise than they hold
        it: a date or weekday other than theirs, a time in the other half of the day, a quantity of
        a kind they hold that none agrees with ("it should arrive on Friday" of a Saturday)."""
        held = _held_dates(self.known, scope)
        found = [why for why in misdated(said, self.language, held | self.said_dates, held)
                 if held] if self.numbers else []
        found += [f"{time.text!r}, but the time returned is in the other half of the day"
                  for _, time in times_said(said) if wrong_half_of_day(time, self.known.clock_times(scope))]
        return found + _quantities(said, self.known, scope)[0] + self._waits_made_up(said, scope)

    def _waits_made_up(self, said: str, scope: list[Any]) -> list[str]:
        """A wait promised in numbers ("a refund within 3-5 business days", "in about 20 minutes",
        « sous 48 heures », 3 个工作日内) that no call returned nor the user said, where the results
        spoken of hold no date or time to count it from: made up."""
        if not self.numbers or _held_dates(self.known, scope) or self.known.clock_times(scope):
            return []
        found = []
        told = {float(n.replace(",", ".")) for n in _NUMBER.findall(" ".join([*self.known.said, *self.known.args]))}
        for match in _A_WAIT.finditer(said):
            numbers = {float(n.replace(",", ".")) for n in _NUMBER.findall(match.group("n"))}
            if not numbers & (told | self.known.returned_numbers(scope)):
                found.append(f"{match.group(0).strip()!r}, a wait no call returned")
        return found

    def _numbers(self, said: str, scope: list[Any], sentence: str = "") -> list[str]:
        """Times, dates, quantities with units, and the numbers left, against the results in scope."""
        known, found = self.known, []
        seen_times = known.times(scope)
        for match, time in times_said(said):
            if time.hour <= 24 and not any(time.hour % 12 == h % 12 and (time.minute in (m, None) or m is None
                                                                         and time.minute == 0) for h, m in seen_times):
                found.append(f"{time.text!r}, a time no call returned")
            elif wrong_half_of_day(time, known.clock_times(scope)):
                found.append(f"{time.text!r}, but the time returned is in the other half of the day")
        held = _held_dates(self.known, scope)
        # a date said of results that hold dates is one of theirs (or the user's), not any day near the run
        found += misdated(said, self.language, held | self.said_dates if held else self.dates, held)
        plain = _blank(said, [m.span() for m in _ID.finditer(said)] + [m.span() for m, _ in times_said(said)] +
                       [m.span() for m in dates_spans(said, self.language)])
        misstated, measured = _quantities(plain, known, scope)
        found += misstated
        plain = _blank(plain, measured + _count_misstated(plain, self.language, known, known.latest(scope),
                                                          self.descriptions)[1])
        for match in _NUMBER.finditer(plain):
            value = float(match.group(0).replace(",", "."))
            unit = next((u for u, (said_in, _) in _UNITS.items() if said_in.match(plain[match.end():])), None)
            converted = unit == "temperature"
            if not (_known_number(value, self.said_numbers, self.longest, converted=converted) or _known_number(
                    value, known.returned_numbers(scope, unit), self.longest, converted=converted)
                    or self._a_true_count(value, plain, match, said, sentence)):
                found.append(f"{match.group(0)!r}, which no call returned")
        return found

    def _a_true_count(self, value: float, plain: str, match: re.Match, said: str, sentence: str) -> bool:
        """A number said as a count of things ("2 lights", "all 3 places", "ไฟ 2 ดวง", "2 盏灯") that
        counts what happened: the calls of one function, or the items the reply lists. A number
        that ends its clause is read on in its sentence (Thai clauses end at spaces: "ไฟ 2 ดวง")."""
        at = sentence.find(said) if not plain[match.end():].strip() else -1
        noun = _COUNTED.match(sentence, at + match.end()) if at >= 0 else _COUNTED.match(plain, match.end())
        if not (noun or _COUNTING.search(plain[:match.start()])) or not value.is_integer():
            return False
        # a count of what a thing the clause names holds ("ORD-7310 has 2 items") is its list's length
        held = noun and any(_stems(noun.group("noun")) & _stems(key) for part in self.known.named(said)
                            for d in _dicts(part) for key, v in d.items() if isinstance(v, list))
        return not held and int(value) in self.counts

    def record(self, record: Record, cues: Cues) -> list[str]:
        """A structure's row, each field held to the result the row names (sim/eval/structure.py); a
        value that runs on in clauses of its own ("yes — it hasn't shipped yet") is read clause by
        clause, each negated or not as it is said."""
        row = self._row_key(record)
        found = []
        record_unit = _unit_of_record(record)
        for key, value in record.fields:  # a state's word over a list of names: "on": ["Pendant", "Porch light"]
            labelled = _state_of("", key, self.language) if isinstance(value, list) else None
            named = [part for name in value if isinstance(name, str) for part in self.known.named(name)] \
                if labelled else []
            found += _state_against(labelled, named) if named else []
        for key, value in record.scalars():
            if value is None or value == "":  # "content": null or "", of a note that has text
                found += [f"{key}: {_shown(value)}, but its {field_name} is {_shown(actual)}"
                          for part in row for d in _dicts(part)
                          for field_name, actual in d.items() if _stems(field_name) == _stems(key)
                          and actual not in (None, "", [], {})][:1]
            if value is None or value == "" or _says_how_it_went(key, value, self.excluded) and \
                    _state_of(key, value, self.language) is None:
                continue  # "done": false says how the action went: read as a claim or a denial (claims.py);
                # "on": false says the thing's state too
            labelled = _state_of("", key, self.language) if isinstance(value, str) else None
            if labelled and self.known.named(value):  # "- On: Pendant and Porch light"
                found += _state_against(labelled, self.known.named(value))
                continue
            parts = self.known.named(key) or row  # a field named by a result ("ORD-8492": "shipped") speaks of it
            state = _state_of(key, value, self.language)
            if state is not None:
                found += _state_against(state, parts)
            else:
                found += self._same_field(key, value, parts)
                if not isinstance(value, bool):  # "temp_f": 67 is 67 °F
                    unit = (_UNIT_IN_KEY.get(field_words(key).split()[-1]) if isinstance(value, (int, float))
                            else None) or record_unit.get(key)
                    found += self._field_clauses(f"{key}: {value}{unit or ''}", f"{key}:", parts, cues)
        return found

    def _field_clauses(self, said: str, label: str, parts: list[Any], cues: Cues) -> list[str]:
        """A field said as "key: value", each of its clauses read as said: "Cancellable: yes — it
        hasn't shipped yet" says the order is not shipped, not that it is."""
        clauses = cues.clauses(said)
        if len(clauses) < 2:
            return self.clause(said, parts, False, parts, label=label)
        return [why for c in clauses for why in self.clause(c.text, parts, c.negated, parts,
                                                             label=label if c.text.startswith(label) else "")]

    def _same_field(self, key: str, value: Any, parts: list[Any]) -> list[str]:
        """A field the row names as the result does (``"can_cancel": true`` for canCancel, ``"room"``)
        with another yes/no, or, in English, other words than the result's (an enum's words are read
        by the lexicon; numbers, dates and times by their own readings)."""
        name = _stems(key)
        said = YES_NO.get(value.strip().lower(), value) if isinstance(value, str) else value
        number = _as_number(said)
        enums = {field for field, _ in self.enums}
        found, numbers = [], {}
        for d in (d for part in parts for d in _dicts(part)):
            for field_name, actual in d.items():
                if not (_stems(field_name) == name or _abbreviates(key, field_name)) or field_name in enums:
                    continue
                if isinstance(actual, (int, float)) and not isinstance(actual, bool):
                    numbers.setdefault(field_name, []).append(actual)
                elif isinstance(actual, bool) and isinstance(said, bool) and said != actual:
                    found.append(f"{key}: {value} for the {field_name}, which is {str(actual).lower()}")
                elif isinstance(actual, str) and isinstance(said, str) and self.english and \
                        not _same_words(said, actual):
                    found.append(f"{value!r} for the {field_name}, which is {actual!r}")
        for field_name, actual in numbers.items():  # "| Qty | 3 |" of a line whose quantity is 2: none agrees
            if number is not None and all(abs(number - a) >= 1 for a in actual):
                found.append(f"{key}: {value} for the {field_name}, which is {' or '.join(map(str, actual))}")
        return found

    def _row_key(self, record: Record) -> list[Any]:
        """The result a row speaks of: the one named by the value that names fewest (the row's key),
        else by what names the row from outside, else every result."""
        named = [parts for _, value in record.scalars() if isinstance(value, str)
                 for parts in [self.known.named(value)] if parts]
        if named:
            return min(named, key=len)
        outside = next((parts for outer in reversed(record.context) for parts in [self.known.named(outer)] if parts),
                       self.known.scope(""))
        return _holding_the_field(record, outside) or _holding_the_field(record, self.known.scope("")) or outside


def _holding_the_field(record: Record, parts: list[Any]) -> list[Any]:
    """Those of ``parts`` that hold a field the row names in a cell ("| Estimated delivery | 2025-05-30 |"
    of a table of an order's fields, under a sentence on the weather): a row of fields and values
    speaks of what has that field, whatever the sentence above it names."""
    cells = {field_words(value) for _, value in record.scalars() if isinstance(value, str)}
    return [part for part in parts if any(field_words(key) in cells for d in _dicts(part) for key in d)]


def _states_as_labels(text: str, known: Known) -> list[str]:
    """A state given to the things a line names ("- On: Pendant and Porch light", "Currently lit:
    Pendant", "Bedside lamp and Ceiling light — off", a table's row "| Pendant | on |"): each of
    them is said to have it."""
    found = []
    # a sentence each, and each part of a list of them: "A → on, B → off"
    rows = [sentence for line in text.splitlines() for sentence in re.split(r"(?<=[.!])\s+", line)]
    lines = [part for sentence in rows for part in re.split(r"[,;]\s+", sentence)]
    pairs = [*(pair for line in lines for pair in _line_states(line)),
             *(pair for row in rows for pair in _row_states(row))]  # "Ceiling light: 40%, off"
    for state, names in pairs:
        for part in known.named(without_asides(names)):
            for key, value in (part.items() if isinstance(part, dict) else ()):
                word = _state_word(key)
                wrong = _OPPOSITE.get(word or "") if value else word
                if wrong and isinstance(value, bool) and re.fullmatch(_said_as(wrong), state, re.I):
                    found.append(f"{wrong!r} for the {key}, which is {str(value).lower()}")  # as _flipped_states
    return found


def without_asides(names: str) -> str:
    """What a line gives a state to, without its asides: "On: Pendant (the porch stays off)" names the
    pendant; "Porch light (Outside) → off" names no other light outside."""
    return _ASIDE.sub(" ", names)


def _line_states(line: str) -> list[tuple[str, str]]:
    """The words of a line that may be a state given to what the rest of it names: (word, rest)."""
    if line.strip().startswith("|"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        return [(cell, line) for cell in cells if re.fullmatch(r"[A-Za-z]+", cell)]
    return [(match.group("state"), match.group("names")) for pattern in (_STATE_FIRST, _STATE_LAST, _STATE_ANSWER)
            for match in [pattern.match(line)] if match]


# A row that labels what it names, then gives its values: "Ceiling light: 40%, off", "- Porch: dim, on".
_LABELLED_ROW = re.compile(r"^[\s\-*•]*(?P<names>[^:\n]+?)\s*:\s*(?P<values>[^:\n]+)$")
_BARE_STATE = re.compile(r"\W*(?:(?:currently|now|still)\s+)?(?P<state>[A-Za-z]+)\W*")


def _row_states(row: str) -> list[tuple[str, str]]:
    """The values of a labelled row that are a state word alone, each given to what the label names:
    "Ceiling light: 40%, off" says the ceiling light is off; "Ceiling light: 40%, was off" does not.
    A row with no colon is none: the pattern's runs of spaces backtrack in cubic time on the blanked
    lines of a structure read apart (a second per eval case)."""
    match = _LABELLED_ROW.match(row) if ":" in row else None
    values = re.split(r"[,;]\s*", match.group("values")) if match else []
    return [(bare.group("state"), match.group("names")) for value in values[1:]
            for bare in [_BARE_STATE.fullmatch(value)] if bare]


def _quoted(text: str, cues: Cues, of_the_world: Any = lambda sentence: False) -> list[str]:
    """The quotations of sentences that assert: not an offer or a question ("Want me to add “buy
    more coffee”?"), nor, where the agent may answer from what it knows, one said of the world
    ("in Japanese it's “arigatou”")."""
    found = []
    for quotation in _QUOTATION.finditer(text):
        sentence = _SENTENCE_BREAK.split(text[:quotation.start()])[-1] + quotation.group(0) + \
            _SENTENCE_BREAK.split(text[quotation.end():])[0]
        if not (cues.asks(sentence) or cues.hedge.search(sentence) or of_the_world(_ANY_QUOTE.sub(" ", sentence))):
            found.append(quotation.group(1))
    return found


def _under_text_headings(text: str) -> list[str]:
    """The lines under a heading that says a text follows ("Here's “Welcome”:"), to a blank line
    after them; none where what follows the heading was a structure, read as one (its lines are
    blanked in the prose: a question after the list is no part of its last field)."""
    lines, found, under = text.splitlines(), [], False
    for line in lines:
        if _TEXT_HEADING.search(line):
            under = True
        elif under and line and not line.strip():
            under = False  # the heading's text was the structure read in its place
        elif under and line.strip():
            found.append(_LIST_ITEM.sub("", line))
        elif under and found:
            under = False
    return found


@functools.lru_cache(maxsize=1024)  # the same conversation, for reply after reply
def _seen_words(seen_text: str) -> frozenset[str]:
    return frozenset({word[:5] for word in _TEXT_WORD.findall(seen_text)} | set(_CHARACTER.findall(seen_text)))


def _text_not_returned(passages: list[str], seen_text: str) -> list[str]:
    """Passages given as a thing's text, most of whose words nothing in the conversation said
    (a word counts as said where one said shares its first five letters: "conditions", "condition";
    in Chinese and Thai, each character counts)."""
    seen, found = _seen_words(seen_text), []
    for passage in passages:
        words = [word.lower()[:5] for word in _TEXT_WORD.findall(_CHARACTER.sub(" ", passage))] + \
            _CHARACTER.findall(passage)
        if words and sum(word in seen for word in words) * 2 < len(words):
            found.append(f"{passage.strip()!r}, a text no call returned")
    return found


def _spoken_of(said: str, sentence: str, earlier: list[str], following: str = "") -> list[str]:
    """The sentences before, nearest first, that may name what a clause speaks of: any, for a
    pronoun; for a list item, the items above it in its list, then its heading. First, a parenthesis
    that follows the clause's sentence and says what it speaks of: "It's shipped. (That's order
    ORD-8492.)", "Quick answer: delivered. (ORD-6025, DHL)"."""
    aside = [following] if following.lstrip().startswith("(") else []
    if _ANAPHOR.match(said):
        return aside + earlier
    if not _LIST_ITEM.match(sentence):
        return aside
    items = list(itertools.takewhile(_LIST_ITEM.match, earlier))
    return items + earlier[len(items):len(items) + 1]


def uncarried(text: str, result: Any, args: dict[str, Any], tell: list[str], *, english: bool) -> str | None:
    """Why the reply does not carry what a read call answered, or None when it does."""
    said = text.lower()
    if tell:
        for name in tell:
            values = [v for v in _values_of(result, name) if v is not None and not isinstance(v, bool)]
            if not english:
                values = [v for v in values if _survives_translation(v)]
            if values and not any(_carried(v, said) for v in values):
                return f"the reply does not say the {name} ({', '.join(map(_shown, values[:3]))})"
        return None
    if not english:
        return None
    echoed = json.dumps(args, ensure_ascii=False, default=str).lower()
    values = [v for v in _leaves(result) if _informative(v, echoed)]
    states = [(key, v) for key, v in _named_leaves(result) if isinstance(v, bool) and _state_word(key)]
    if (values or states) and not any(_carried(v, said) for v in values) and \
            not any(_state_carried(key, v, said) for key, v in states) and not _ability_carried(result, said):
        return f"the reply says none of what the call returned ({', '.join(map(_shown, values[:4]))})"
    return None


def _ability_carried(result: Any, said: str) -> bool:
    """What can be done told as the result says it: canCancel true as "it's still cancellable"."""
    fields = [(key, value) for key, value in _named_leaves(result) if isinstance(value, bool)]
    return any(value == can and _ability_field(key, stem) for _, stem, can, _ in abilities_said(said, "en")
               for key, value in fields)


def _state_carried(key: str, value: bool, said: str) -> bool:
    """A yes/no field told: isOn true as "on", false as "off" or "not on"/"none of them is on"."""
    word = _state_word(key) or ""
    if value:
        return bool(re.search(rf"\b{word}\b", said))
    return bool(re.search(rf"\b{_OPPOSITE[word]}\b", said) or
                re.search(rf"\b(?:not|no|none|neither|nothing)\b[^.!?]*\b{word}\b|n't\b[^.!?]*\b{word}\b", said))


def _known_number(value: float, seen: set[float], longest: int, converted: bool = False) -> bool:
    """Said as returned, rounded, counted from a list, or (a temperature) in the other scale."""
    if value == 0 or value in seen or (value.is_integer() and 0 < value <= longest):
        return True
    return any(abs(value - v) < 1 or converted and (abs(value - (v * 9 / 5 + 32)) <= 1
                                                    or abs(value - (v - 32) * 5 / 9) <= 1) for v in seen)


def _times(text: str) -> set[tuple[int, int | None]]:
    return {(time.hour, time.minute) for _, time in times_said(text)}


def _same_words(said: str, actual: str) -> bool:
    """A text said for a field's: one holds the other, or it has most of the field's longer words
    ("eggs, milk, bread" for "eggs, milk and bread")."""
    said, actual = said.lower(), actual.lower()
    words = set(re.findall(r"[^\W\d_]{4,}", actual))
    return said in actual or actual in said or bool(words) and \
        len(words & set(re.findall(r"[^\W\d_]{4,}", said))) * 2 >= len(words)


def _as_number(value: Any) -> float | None:
    """A cell's number: 3, "3", "3.5"; None for anything else (a time, "3-pack", a word)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return float(value) if isinstance(value, str) and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value) else None


def _abbreviates(key: str, field_name: str) -> bool:
    """A column or key named by a field's abbreviation: "Qty" for quantity, "amt" for amount: one
    short word of letters (not an id's "BK"), its first letter the field's first, its letters in
    the field's name in order."""
    short, full = field_words(key).replace(" ", ""), field_words(field_name).replace(" ", "")
    return bool(re.fullmatch(r"[A-Za-z]{3,4}\.?", key.strip())) and len(full) > len(short) and short[0] == full[0] and \
        bool(re.fullmatch(".*?".join(map(re.escape, short)) + ".*", full)) and not full.startswith(short)


def _stems(key: str) -> frozenset[str]:
    """A field's name as the stems of its words, auxiliaries aside: "canCancel", "can_cancel" and
    "cancellable" are all {cance}; "isOn" and "on" are {on}."""
    return frozenset(word[:5] for word in field_words(key).split() if word not in _AUXILIARY_WORDS) or \
        frozenset(field_words(key).split())


_AUXILIARY_WORDS = frozenset("is can has have was the a an of".split())


def _held_dates(known: Known, scope: list[Any]) -> set[dt.date]:
    """The dates the results in scope hold, an instant's at its place too."""
    return {d for part in scope for d in known.of_part("dates", part, lambda p: dates_in(p) | {
        moment.date() for moment in moments_in(p)})}


def _valid(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def _items_listed(text: str, records: list[Record]) -> set[int]:
    """How many items each list of the reply holds (its lines that open on a bullet or a number,
    one after another) and how many rows its tables and objects have: a count said of them is
    one the reply shows."""
    runs, run = set(), 0
    for line in text.splitlines() + [""]:
        if _LIST_ITEM.match(line):
            run += 1
        elif line.strip() or not run:
            runs.add(run)
            run = 0
    return (runs | {len(records)}) - {0}


def _without_item_numbers(prose: str) -> str:
    """The prose with the numbers that open a numbered list's lines blanked: an item's place in
    its list ("2. It came back foggy, 14°C") is no value a call returned."""
    return _blank(prose, [m.span() for m in _ITEM_NUMBER.finditer(prose)])


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """The text with these spans blanked out, its other offsets kept."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _fields_with_units(known: Known, scope: list[Any]) -> list[tuple[float, str]]:
    """The numbers of the results in scope whose field says its unit, each with it (pint's name)."""
    descriptions = known.of_part("descriptions", known.results, lambda _: known.descriptions())

    def read(part: Any) -> list[tuple[float, str]]:
        return [(float(value), unit) for d in _dicts(part) for key, value in d.items()
                if isinstance(value, (int, float)) and not isinstance(value, bool) and key in descriptions
                for unit in [unit_of_field(descriptions[key], d.values())] if unit]

    return [field for part in scope for field in known.of_part("units", part, read)]


def _quantities(plain: str, known: Known, scope: list[Any]) -> tuple[list[str], list[tuple[int, int]]]:
    """Each quantity said in a unit that fields in scope are given in ("14°F", "12 mph"), converted
    to the field's unit: those that agree with no field of their kind (14 °F is no way of saying
    14 °C), and the spans of all of them, whose numbers are read no further."""
    fields = _fields_with_units(known, scope)
    found, spans = [], []
    for match, quantity in quantities_said(plain) if fields else ():
        said = [agreed for value, unit in fields if (agreed := agrees(quantity, value, unit)) is not None]
        if said:
            spans.append(match.span())
            if not any(said):
                found.append(f"{quantity.text!r}, which no call returned in any unit")
    return found, spans


def _dicts(result: Any) -> list[dict[str, Any]]:
    if isinstance(result, dict):
        return [result] + [d for sub in result.values() for d in _dicts(sub)]
    if isinstance(result, list):
        return [d for item in result for d in _dicts(item)]
    return []


def _enum_fields(results: list[tuple[dict[str, Any], Any]]) -> list[tuple[str, list[str]]]:
    fields: dict[str, set[str]] = {}
    for schema, _ in results:
        for name, allowed in _enums(schema):
            fields.setdefault(name, set()).update(allowed)
    return [(name, sorted(allowed)) for name, allowed in fields.items()]


def _enums(schema: Any, name: str = "") -> Iterable[tuple[str, list[str]]]:
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("enum"), list) and name:
        yield name, [v for v in schema["enum"] if isinstance(v, str)]
    for key, sub in (schema.get("properties") or {}).items():
        yield from _enums(sub, key)
    yield from _enums(schema.get("items"), name)


def _field_values(scope: list[tuple[Any, Any]], name: str) -> set[str]:
    """A field's values in the parts a clause speaks of, else in the results that hold them: "your
    Camping stove order shows shipped" names an item, and speaks of the order's status."""
    for parts in zip(*scope):
        found = {str(v) for part in parts for v in _values_of(part, name) if v is not None}
        if found:
            return found
    return set()


# A demonstrative of what was just said, and a word after it at the clause's end: "c'est confirmé",
# "that's confirmed", "this is all done".
_FACT_HOLDS = re.compile(r"\b(?:c'est|c’est|cela est|that's|that is|this is)\s+(?:\w+\s+)?\w+\W*$", re.I)
# A noun made of a verb ("cancellation", "annulation", "booking").
_NOUN_ENDING = re.compile(r"(?:ation|tion|sion|ment|ing)s?$")
_DETERMINER = r"(?:the|your|its|this|that|my|our|their|la|le|les|votre|vos|son|sa)\s+|l['’]"


def _without_the_action(said: str, actions: set[str]) -> str:
    """The clause without what qualifies the turn's action rather than a thing: "Annulation
    confirmée", "cancellation confirmed" say the cancelling went through, not that the order's
    status is confirmed. A noun of the action is one with a noun's ending and a stem of one of its
    words; the word on either side of it qualifies it (after a form of be, too)."""
    if actions:  # "c'est confirmé", "that's confirmed": the statement before holds, no thing's value
        said = _FACT_HOLDS.sub(" ", said)
    stems = {word[:5] for word in actions if len(word) >= 4 and word.isalpha()}
    for noun in {w for w in re.findall(r"[^\W\d_]+", said.lower())
                 if _NOUN_ENDING.search(w) and any(w.startswith(stem) and w != stem for stem in stems)}:
        said = re.sub(rf"(?:[^\W\d_]+\s+(?:{_DETERMINER})|\S+\s+)?\b{noun}\b"
                      r"(?:\s+(?:is|was|has been|est|a été))?(?:\s+\S+)?", " ", said,
                      flags=re.I)
    return said


# A past verb that reports what someone said, its words after it (a colon, "that", a quotation):
# "The app confirmed: “Order cancelled.”", "the shop confirmed that...", "l'appli a confirmé : « ... »".
_REPORTING = re.compile(r"(?P<before>[^\W\d_]+['’]?[^\W\d_]*)\s+(?P<verb>[^\W\d_]+(?:ed|é|ée|és|ées))\s*(?::|\bthat\b|\bque\b|qu['’]|[“\"«‘])",
                        re.I)
_BE_BEFORE = frozenset("is are was were be been being am it's that's 's now still est sont été était étaient "
                       "être c'est".split())


def _without_reporting(said: str) -> str:
    """The clause without a verb that reports speech, a state's word though it is ("confirmed"):
    what is reported is read on its own (the quotation after it), not as the verb's subject's value.
    After a form of be it is a state again ("ORD-5117 is confirmed: it ships Monday")."""
    return _REPORTING.sub(lambda m: m.group(0) if m.group("before").lower() in _BE_BEFORE
                          else m.group(0).replace(m.group("verb"), " ", 1), said)


def _other_enum_values(said: str, enums: list[tuple[str, list[str]]], scope: list[tuple[Any, Any]],
                       excluded: set[str]) -> list[str]:
    """An enum value the clause says that its field has nowhere in the results it speaks of."""
    found = []
    for name, allowed in enums:
        actual = _field_values(scope, name)
        if not actual:
            continue
        for value in allowed:
            if value in actual or _said(value) in excluded or not _mentions(said, value):
                continue
            if any(_mentions(said, a) and _said(value) in _said(a) for a in actual):
                continue  # "partly cloudy" says PARTLY_CLOUDY, not CLOUDY
            found.append(f"{_said(value)!r} for the {name}, which is {', '.join(sorted(map(_said, actual)))}")
    return found


# A negation and the few words after it it negates: "hasn't shipped", "is not yet delivered".
_NEGATED_SPAN = re.compile(r"(?:\bnot|\bnever|n't)\b(?:\s+(?:yet|been|be|actually|really|even))*\s+\S+", re.I)


def _denied_values(said: str, enums: list[tuple[str, list[str]]], scope: list[tuple[Any, Any]],
                   excluded: set[str]) -> list[str]:
    """An enum value said not to hold that its field holds: "ORD-8492 hasn't shipped yet" of an
    order that is SHIPPED ("it hasn't been delivered yet" of it states nothing)."""
    negated = " ".join(m.group(0) for m in _NEGATED_SPAN.finditer(said.replace("’", "'")))
    found = []
    for name, _ in enums if negated else ():
        for value in sorted(_field_values(scope, name)):
            if _said(value) not in excluded and _mentions(negated, value):
                found.append(f"not {_said(value)!r} for the {name}, which is {_said(value)}")
    return found


def _other_values_said(said: str, language: str, enums: list[tuple[str, list[str]]], scope: list[tuple[Any, Any]],
                       excluded: set[str]) -> list[str]:
    """A value said in a word of the lexicon (sim/eval/value_words.py: "livrée", 已取消, "stormy")
    that can say none of the values its field has in the results the clause speaks of. A word
    inside a saying of what can be done ("elle peut encore être annulée", 还可以取消) says an
    ability, which _ability_misstated holds to its yes/no field, not a status."""
    found = []
    said = _blank(said, _ability_spans(said, language))
    for name, allowed in enums:
        actual = _field_values(scope, name)
        for word, values in values_said(said, language) if actual else ():
            # a value the field can take, or, said of the thing by its name, one of its kind it cannot
            # ("BK-1000 is being processed" of a booking, which is CONFIRMED or CANCELLED)
            cannot = of_its_kind(values, allowed) and _subject_named(said[:said.find(word)], scope)
            other = sorted(v for v in (values if cannot else values & set(allowed)) if _said(v) not in excluded)
            if other and not values & actual:
                found.append(f"{word!r} ({_said(other[0])}) for the {name}, which is "
                             f"{', '.join(sorted(map(_said, actual)))}")
    return found


_COORDINATED = re.compile(r".*(?:\b(?:and|but|while|whereas|et|mais|tandis que)\b|[,;:—–(（])", re.I | re.S)


def _subject_named(before: str, scope: list[tuple[Any, Any]]) -> bool:
    """Whether the words before a value, back to the clause's last conjunction, name a thing in scope
    by one of its values: "Your booking BK-1000 is …", not "… and your refund is …"."""
    own = _COORDINATED.sub("", before).lower()
    return any(isinstance(value, str) and len(value) > 2 and value.lower() in own
               for part, _ in scope for d in _dicts(part) for value in d.values())


# An aside that names the app as the one that vouched for what the reply says ("(confirmé par
# l'application)", （应用已确认）, "(verified in the app)", (ยืนยันโดยแอป)): whose word it is, not a status.
# In parentheses, or a clause of nothing else (the parentheses split off): the vouching word, the app,
# and the small words that join them.
_ASIDE = re.compile(r"[(（][^()（）]*[)）]")
_THE_APP = re.compile(r"\b(?:apps?|applications?|services?|system|système|servers?|serveur)\b|应用|系统|服务|แอป|ระบบ", re.I)
_VOUCHING = re.compile(r"\b(?:confirm\w*|verif\w*|vérifi\w*|check\w*|validat\w*|valid[ée]\w*)|确认|核实|证实|ยืนยัน|ตรวจสอบ",
                       re.I)
_JOINING = re.compile(r"\b(?:by|in|via|from|with|the|your|par|dans|de|sur|l['’]|la|le|votre)\b|l['’]|[已经由被了]|โดย|จาก|แล้ว"
                      r"|[\s\W]", re.I)


def _vouched_by_the_app(said: str) -> list[tuple[int, int]]:
    """Where ``said`` has an aside saying the app vouched for it."""
    whole = [(0, len(said))] if not _JOINING.sub("", _VOUCHING.sub("", _THE_APP.sub("", said))) else []
    return [span for span in whole + [m.span() for m in _ASIDE.finditer(said)]
            if _THE_APP.search(said, *span) and _VOUCHING.search(said, *span)]


# A participle opening a clause, and what it was done by way of: "Shipped via DHL", "Paid with the Visa card".
_BY_WAY_OF = re.compile(r"^\W*[^\W\d_]+ed\s+(?:via|by|with|through)\s+(?:the\s+)?([\w-]+)", re.I)


def _done_by_way_of(said: str, scope: list[Any]) -> list[tuple[int, int]]:
    """Where ``said`` tells how a step was done, by a value another field of the things in scope
    holds ("Shipped via DHL" of an order whose carrier is DHL): a step of the thing's history, which
    a later state keeps true ("delivered"), not the state it is in now. Only as the clause's opening:
    after a subject or a label it is the state again ("it's shipped via DHL", "ORD-6025: shipped via DHL")."""
    held = {str(value).lower() for part in scope for _, value in _named_leaves(part) if isinstance(value, str)}
    return [m.span() for m in [_BY_WAY_OF.match(said)] if m and m.group(1).lower() in held]


def _ability_spans(said: str, language: str) -> list[tuple[int, int]]:
    """Where ``said`` says an action can or cannot be done."""
    return [(end - len(words), end) for words, _, _, end in abilities_said(said, language)]


# A yes/no field read from its name (isOn: "on"), and the word for its no.
_OPPOSITE = {"on": "off", "open": "closed", "available": "unavailable", "enabled": "disabled", "active": "inactive"}
# Other words English says a state in: a light that is on is lit, one that is off is dark.
_ALSO_SAID = {"on": ("lit",), "off": ("dark",)}
_BE = r"(?:\b(?:is|are|was|were|been|be|now|still)|'s|'re)\s+" \
      r"(?:(?:now|still|already|currently|switched|turned)\s+){0,2}"
# A state said after a verb that changes it, keeps it or shows it, its object between: "switched
# off", "went off", "I got the Porch light off", "left it on", "showing as off", "reports off",
# "you should see the Porch light off now", "Switched off: Porch light".
_SET = r"\b(?:switched|turned|flipped|set|put|went|gone|goes|got|gotten|left|kept|keeps|stays|stayed|remains|remained|" \
       r"see|sees|seen|saw|find|finds|found|" \
       r"(?:showing|shows|shown|lists|listed|marked|appears|reads|reports|reported|reporting)(?:\s+as)?)\s+"


def _flipped_states(said: str, scope: list[Any]) -> list[str]:
    """A yes/no field said the other way round: "the Pendant is on" while its isOn is false."""
    found = []
    for part in scope:
        names = [re.escape(v) for v in part.values() if _names_it(v)] if isinstance(part, dict) else []
        changed = _SET + (rf"(?:(?:it|them|(?:the\s+|your\s+)?(?:{'|'.join(names)}))\s+)?" if names else "") + \
            r"(?:to\s+|as\s+)?"  # "I've set Porch light to off", "the app lists Porch light as off"
        for key, value in (part.items() if isinstance(part, dict) else ()):
            word = _state_word(key)
            if word is None or not isinstance(value, bool):
                continue
            wrong = _OPPOSITE[word] if value else word
            said_so = _said_as(wrong)
            if re.search(rf"(?:{'|'.join([_BE, *_labels(part)])})(?:{said_so})\b(?!\s*:)|{changed}(?:{said_so})\b",
                         said, re.I):
                found.append(f"{wrong!r} for the {key}, which is {str(value).lower()}")
    return found


def _says_how_it_went(key: str, value: Any, actions: set[str]) -> bool:
    """A field that says how the action went, not a value of a thing: "done", "success", or the
    action's own word with a yes or a no ("cancelled": true); "order": "ORD-9999" is a value."""
    words = field_words(key)
    yes_no = isinstance(value, bool) or isinstance(value, str) and value.strip().lower() in YES_NO
    return bool(OUTCOME_FIELD.fullmatch(words)) or words in actions and yes_no


# A unit a structure's field names at its end: "temp_f", "temperatureC", "wind_kmh", "humidity_pct".
_UNIT_IN_KEY = {"c": "°C", "celsius": "°C", "f": "°F", "fahrenheit": "°F", "kmh": " km/h", "kph": " km/h",
                "mph": " mph", "km": " km", "mi": " mi", "miles": " mi", "pct": "%", "percent": "%"}


# A field that gives the unit of its row's numbers: {"temperature": 14, "unit": "°F"}.
_UNIT_FIELD = re.compile(r"(?:^|\s)units?$")
_BARE_NUMBER = re.compile(r"\s*-?\d+(?:[.,]\d+)?\s*")
# The kind of number a unit measures, by the words of the fields that hold such numbers.
_KIND_OF_UNIT = {"°C": re.compile(r"temp|feels"), "°F": re.compile(r"temp|feels"),
                 " km/h": re.compile(r"wind|speed"), " mph": re.compile(r"wind|speed")}


def _unit_of_record(record: Record) -> dict[str, str]:
    """The unit a row's own field gives its numbers ("unit": "°F", "units": "fahrenheit"), by the
    numeric fields it is the unit of: those of its kind (a temperature's, a wind's), or the row's only
    number. A row of one quantity said in parts is one quantity: 14 with "°F" is 14 °F."""
    units = {_UNIT_IN_KEY.get(str(value).strip().lstrip("°º").strip().lower().replace("/", ""))
             for key, value in record.scalars() if isinstance(value, str) and _UNIT_FIELD.search(field_words(key))}
    units.discard(None)
    if len(units) != 1:
        return {}
    unit = units.pop()
    numbers = [key for key, value in record.scalars() if isinstance(value, (int, float)) and not isinstance(value, bool)
               or isinstance(value, str) and _BARE_NUMBER.fullmatch(value)]  # a table's cell: "19"
    kind = _KIND_OF_UNIT.get(unit)
    return {key: unit for key in numbers if len(numbers) == 1 or kind and kind.search(field_words(key))}


def _state_of(key: str, value: Any, language: str) -> tuple[str, bool] | None:
    """The yes/no state a structure's field gives: ``"on": false``, ``"isOn": true``, a cell that
    says only "off", "Lit 💡" or "allumée"; as (the state's word, whether it holds)."""
    if isinstance(value, str) and value.strip().lower() in YES_NO:
        value = YES_NO[value.strip().lower()]  # "Lit?": "yes"
    if isinstance(value, bool):
        word = field_words(key).split()[-1:] or [""]
        word = {**{said: state for state, said_as in _ALSO_SAID.items() for said in said_as}}.get(word[0], word[0])
        if word in _OPPOSITE:
            return word, value
        opposite = next((state for state, other in _OPPOSITE.items() if other == word), None)
        if opposite:
            return opposite, not value
        said_as = STATE_ELSEWHERE.get(language, {})  # a key in the reply's language: "allumée", เปิดอยู่, 开着
        on, off = (bool(said_as and re.search(said_as[w], key.lower())) for w in ("on", "off"))
        return ("on", value if on else not value) if on != off and len(key) <= 12 else None
    if not isinstance(value, str):
        return None
    said = re.sub(r"[^\w\s]", " ", value).strip().lower()
    said = re.sub(r"^(?:(?:switched|turned|currently|now|still)\s+)+", "", said)
    for state, other in _OPPOSITE.items():
        if re.fullmatch(_said_as(state), said):
            return state, True
        if re.fullmatch(_said_as(other), said):
            return state, False
    words = STATE_ELSEWHERE.get(language, {})
    if words and len(said) <= 12:
        on, off = (bool(re.search(words[w], said)) for w in ("on", "off"))
        if on != off:
            return "on", on
    return None


def _state_against(state: tuple[str, bool], parts: list[Any]) -> list[str]:
    """A yes/no state a row gives, against the field of that state in the result the row names."""
    word, holds = state
    return [f"{word if holds else _OPPOSITE[word]!r} for the {key}, which is {str(value).lower()}"
            for part in parts for d in _dicts(part) for key, value in d.items()
            if isinstance(value, bool) and _state_word(key) == word and value != holds]


def _flipped_elsewhere(said: str, named: list[Any], language: str) -> list[str]:
    """A yes/no field said the other way round in another language, of a thing the sentence names:
    "la lampe « Ceiling light » est allumée" while it is off."""
    words, found = STATE_ELSEWHERE.get(language, {}), []
    for key, value in ((k, v) for part in named if isinstance(part, dict) for k, v in part.items()):
        word = _state_word(key)
        if word in words and isinstance(value, bool):
            right, wrong = (word, _OPPOSITE[word]) if value else (_OPPOSITE[word], word)
            if re.search(words[wrong], said) and not re.search(words[right], said):
                found.append(f"{re.search(words[wrong], said).group(0)!r} for the {key}, which is {str(value).lower()}")
    return found


def _said_as(state: str) -> str:
    """The words a state is said in, as a pattern: "off|dark"."""
    return "|".join(map(re.escape, (state, *_ALSO_SAID.get(state, ()))))


def _labels(part: Any) -> list[str]:
    """A thing's names as a label whose value follows: "Porch light: off"."""
    return [re.escape(v) + r"\s*:\s*" for v in part.values() if _names_it(v)] if isinstance(part, dict) else []


_ALL = re.compile(r"\b(?:all|every|each|everything|both)\b", re.I)
_NONE = re.compile(r"\b(?:none|neither|nothing|not\s+any|zero)\b|\bno\s+(?!longer\b)(?:\w+s\b|\w+\s+(?:is|was)\b)", re.I)


def _untrue_for_all(said: str, scope: list[Any]) -> list[str]:
    """A yes/no field said of all of them ("all your lights are off", "none of them is on") that
    some of them do not have."""
    found = []
    states = [(key, value) for part in scope for d in _dicts(part) for key, value in d.items()
              if isinstance(value, bool) and _state_word(key)]
    for key in dict.fromkeys(key for key, _ in states):
        claimed = _said_of_all(said, _state_word(key) or "")
        if claimed is not None and (not claimed) in {value for k, value in states if k == key}:
            found.append(f"{said.strip()!r}, but not every {key} is {str(claimed).lower()}")
    return found


def _said_of_all(said: str, word: str) -> bool | None:
    """What a clause says a yes/no field is for all of them: "all on", "all of them are off", "none
    of them is on" (all off), "none of them is off" (all on); None where it says it of not all."""
    said_yes = bool(re.search(rf"\b(?:{_said_as(word)})\b", said, re.I))
    if said_yes == bool(re.search(rf"\b(?:{_said_as(_OPPOSITE[word])})\b", said, re.I)):
        return None
    if _NONE.search(said):
        return not said_yes
    return said_yes if _ALL.search(said) else None


def _state_word(key: str) -> str | None:
    match = re.fullmatch(r"is([A-Z][a-z]+)", key)
    word = match.group(1).lower() if match else None
    return word if word in _OPPOSITE else None


def _said_empty(said: str, known: Known, scope: list[Any]) -> list[str]:
    """A field said to be empty ("it doesn't have any text") whose value is not; a thing said to
    be empty ("there's nothing in note-1 besides its title") that holds something."""
    found = []
    for match in _EMPTY.finditer(said):
        if _NOTHING_AS_SUBJECT.match(said[match.start():]) and not said[:match.start()].strip(" ,;:-—–").split()[1:]:
            continue  # "nothing in the record suggests a problem": said of what is in it, not that nothing is
        noun = (match.group("noun") or match.group("noun2") or match.group("noun3") or "").lower().rstrip("s")
        if not noun:
            found += [f"{match.group(0)!r}, but its {key} is {_shown(value)}"
                      for key, value in _held(said, known.latest(scope))]
            continue
        descriptions = known.of_part("descriptions", known.results, lambda _: known.descriptions())
        found += [f"{match.group(0)!r}, but its {name} is {_shown(value)}"  # the thing as it is now, not as read before
                  for name, value in _fields_of_noun(noun, known.latest(scope), descriptions)
                  if value not in (None, "", [])][:1]
    return found


def _emptiness_misstated(said: str, language: str, scope: list[Any], descriptions: dict[str, str]) -> list[str]:
    """A thing said to hold nothing ("no body", 内容是空的, "est vide") that holds something, said to
    hold nothing but one field ("it's only a title") that holds more, or said to hold something
    still ("it still has its text", 内容还在) whose field is empty. A noun names its field by the
    field's name or description; without one, the saying is of everything the thing holds."""
    found = []
    for words, noun, kind in emptiness_said(said, language):
        fields = _fields_of_noun(noun, scope, descriptions) if noun else None
        if noun and not fields:
            continue  # "no problem", "only a moment": no field of the things spoken of
        if kind == "held":
            empty = [(key, value) for key, value in fields or _holding_fields(scope) if value in (None, "", [])]
            if empty and len(empty) == len(fields or _holding_fields(scope)):
                found.append(f"{words!r}, but its {empty[0][0]} is {_shown(empty[0][1])}")
        elif kind == "empty" and noun:
            found += [f"{words!r}, but its {key} is {_shown(value)}" for key, value in fields
                      if value not in (None, "", [])][:1]
        elif kind in ("empty", "only"):
            kept = {key for key, _ in fields or ()} if kind == "only" else set()
            found += [f"{words!r}, but its {key} is {_shown(value)}" for key, value in _held(said, scope)
                      if key not in kept][:1]
    return found


def _ability_misstated(said: str, language: str, scope: list[Any]) -> list[str]:
    """An action said to be possible ("it can still be cancelled", 还可以取消) or not ("can no longer be
    cancelled", ยกเลิกไม่ได้) against the yes/no field the thing gives it by the same verb (canCancel,
    isRefundable): what the app says can be done is a value, as a status is."""
    found = []
    for words, stem, can, end in abilities_said(said, language):
        label = _LABELLED.match(said, end)  # "can cancel: no" names a field and gives its yes or no
        if label:
            if label.group(1).lower() not in YES_NO:
                continue
            can = YES_NO[label.group(1).lower()]
        found += [f"{words!r}, but its {key} is {str(value).lower()}" for part in scope for d in _dicts(part)
                  for key, value in d.items() if isinstance(value, bool) and value != can and _ability_field(key, stem)][:1]
    return found


def _count_misstated(said: str, language: str, known: Known, scope: list[Any],
                     descriptions: dict[str, str]) -> tuple[list[str], list[tuple[int, int]]]:
    """A count said of what the clause speaks of ("3 items", "a table for 4", 一共 3 件商品) that no
    count of the noun it counts holds: a list of that name (its length, or its lines' quantities
    summed), a number field named by the noun or counting it by its description ("How many people
    the table seats"), or a call's argument of that name (the party size asked for). Where the
    clause says a time, the things at that time are the ones counted."""
    found, agreed = [], []
    parts = _at_times_said(said, scope)
    holders = _lists_holding(parts, [r for _, r in known.results])
    for words, number, nouns, span in counts_said(said, language):
        for noun in nouns:
            held = _counts_of(noun, parts + holders, descriptions) | \
                _counts_of(noun, [json.loads(a) for a in known.args], descriptions)
            if held:
                if all(abs(number - n) >= 0.5 for n in held):
                    found.append(f"{words!r}, but the {noun} counted is {' or '.join(f'{n:g}' for n in sorted(held))}")
                else:
                    agreed.append(span)
                break
    return found, agreed


# A sign of times between a number and a thing's name: "Headlamp × 2", "2 x Headlamp", "Headlamp (x2)".
_TIMES = r"(?:[×✕]|x(?=\s*\d))"
_TIMES_BEFORE = r"(?:[×✕]|x\b)"


def _quantity_misstated(said: str, scope: list[Any]) -> list[str]:
    """A number said beside a listed thing's name with a sign of times ("Headlamp × 2") that is
    not the quantity the thing holds: each line of an order's items, held to its own line."""
    found = []
    for d in (d for part in scope for d in _dicts(part)):
        quantities = [(k, v) for k, v in d.items() if re.search(r"quantit|qty", k, re.I)
                      and isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(quantities) != 1:
            continue
        key, held = quantities[0]
        for name in (v for k, v in d.items() if _NAME_FIELD.search(k) and isinstance(v, str) and v.strip()):
            named = rf"(?<!\w){re.escape(name.strip())}(?!\w)"
            for match in re.finditer(rf"{named}\s*(?:\(\s*{_TIMES}\s*(\d+)\s*\)|{_TIMES}\s*(\d+)\b)"
                                     rf"|\b(\d+)\s*{_TIMES_BEFORE}\s*{named}", said, re.I):
                number = int(next(g for g in match.groups() if g))
                if number != held:
                    found.append(f"{match.group(0)!r}, but its {key} is {held:g}")
    return found


def _lists_holding(parts: list[Any], results: list[Any]) -> list[dict[str, Any]]:
    """The records whose list holds one of ``parts``: where a sentence names an order's lines
    ("3 items — Trail running shoes and Running socks"), the count it says may be the order's (its
    lines, its units, its item count), not one line's quantity."""
    return [d for result in results for d in _dicts(result)
            if any(isinstance(v, list) and any(item is p for item in v for p in parts) for v in d.values())]


def _counts_of(noun: str, parts: list[Any], descriptions: dict[str, str]) -> set[float]:
    stem = noun.rstrip("s")[:5]
    found: set[float] = set()
    for d in (d for part in parts for d in _dicts(part)):
        for key, value in d.items():
            words = [counted(w).rstrip("s")[:5] for w in field_words(key).split()]
            if isinstance(value, list) and value and stem in words:
                found.add(float(len(value)))
                quantities = [v for item in value if isinstance(item, dict) for k, v in item.items()
                              if isinstance(v, (int, float)) and not isinstance(v, bool)
                              and re.search(r"quantit|qty", k, re.I)]
                if quantities:
                    found.add(float(sum(quantities)))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                what = _COUNTS_WHAT.search(descriptions.get(key, ""))
                if stem in words or what and counted(what.group(1)).rstrip("s")[:5] == stem:
                    found.add(float(value))
    return found


# What a count field counts, by its description: "How many people …", "The total number of units …".
_COUNTS_WHAT = re.compile(r"\b(?:how\s+many|number\s+of|count\s+of)\s+([a-z]+)", re.I)


def _at_times_said(said: str, scope: list[Any]) -> list[Any]:
    """The things in scope at a time the clause says ("Le Petit Bistro … at 19:00"), else all of them."""
    times = {(t.hour % 12, t.minute or 0) for _, t in times_said(said)}
    at = [part for part in scope if {(h % 12, m) for h, m in _hours(part)} & times]
    return at or scope


def _ownership_misstated(said: str, language: str, scope: list[Any], descriptions: dict[str, str]) -> list[str]:
    """A thing said to be the user's ("your own note") or another's ("a note someone shared with
    you") against its owner's field (named so, or described as "the user who owns" it): the
    user is the owner its app calls by a first person ("me", "self")."""
    found = []
    for words, mine in ownership_said(said, language):
        owners = [value for part in scope for d in _dicts(part) for key, value in d.items()
                  if isinstance(value, str) and _OWNER_FIELD.search(f"{field_words(key)} {descriptions.get(key, '')}")]
        wrong = [owner for owner in owners if (owner.strip().lower() in _FIRST_PERSON) != mine]
        if wrong and len(wrong) == len(owners):
            found.append(f"{words!r}, but its owner is {_shown(wrong[0])}")
    return found


_OWNER_FIELD = re.compile(r"^owner\b|\bowner$|\bwho\s+owns\b", re.I)
_FIRST_PERSON = frozenset(("me", "self", "myself", "current user", "current_user"))


_LABELLED = re.compile(r"\s*[:=：]\s*\**\s*([^\s,;.*]+)")


def _ability_field(key: str, stem: str) -> bool:
    """A yes/no field that says whether the action of a verb's stem can be done: canCancel,
    can_refund, isCancellable (not "cancelled", which says it was)."""
    words = field_words(key).split()
    return len(stem) >= 4 and stem in _stems(key) and ("can" in words or bool(re.search(r"(?:able|ible)$", words[-1])))


def _fields_of_noun(noun: str, scope: list[Any], descriptions: dict[str, str]) -> list[tuple[str, Any]]:
    """The fields of the things in scope that a noun names, by their name or description words
    ("text" and "body" name a note's content, "the note's body text"), with their values."""
    def words(key: str) -> set[str]:
        return {w.rstrip("s") for w in re.findall(r"[a-z]+", f"{field_words(key)} {descriptions.get(key, '')}".lower())}

    return [(key, value) for part in scope if isinstance(part, dict) for key, value in part.items()
            if noun.rstrip("s") in words(key)]


def _holding_fields(scope: list[Any]) -> list[tuple[str, Any]]:
    """The fields of the things in scope that may hold what they hold: not their names, titles,
    ids, owners, nor a code or a number."""
    return [(key, value) for part in scope if isinstance(part, dict) for key, value in part.items()
            if not _NAMING_FIELD.search(key) and (value in (None, "") or isinstance(value, str) and _text(value))]


# A quotation said as what a thing is called: after a verb of naming ("is called “X”", "titled X",
# "intitulée « X »", 名为“X”, ชื่อ “X”) or right after the thing's noun ("the note “X”", "Note « X »").
_NAMED_AS = re.compile(r"(?:\b(?:called|named|titled|entitled|appel[ée]e?s?|nomm[ée]e?s?|intitul[ée]e?s?)|名为|叫做?|标题为?|ชื่อ)"
                       r"\s*[:：]?\s*[“\"«「]\s*(?P<name>[^”\"»」\n]{1,60}?)\s*[”\"»」]"
                       r"|(?:^\s*|\b(?:the|your|a|la|le|une|un|votre|ta|ma)\s+(?:new\s+|nouvelle\s+|nouveau\s+)?)"
                       r"[^\W\d_]+\s+[“\"«「]\s*(?P<name2>[^”\"»」\n]{1,60}?)\s*[”\"»」]", re.I)
# The fields that hold a thing's name: title, name, label, displayName...
_NAME_FIELD = re.compile(r"(?:^|_|[a-z])(?:title|name|label)$|^(?:title|name|label)", re.I)


def _misnamed(said: str, known: Known, scope: list[Any]) -> list[str]:
    """A thing said to be called what none of the things spoken of is called, nor anything the
    conversation named: "Your new note is called “Untitled note”" of a note titled "Dentist"."""
    found = []
    for match in _NAMED_AS.finditer(said):
        name = (match.group("name") or match.group("name2") or "").strip().lower()
        if re.search(r"[.!?。！？]$", name) or len(name.split()) > 6 or not re.search(r"\w", name):
            continue  # a message quoted, not a name; or a quotation already read (blanked: “…”)
        names = {v.strip().lower() for part in scope if isinstance(part, dict) for k, v in part.items()
                 if _NAME_FIELD.search(k) and isinstance(v, str)}
        if not names or name in names:
            continue
        elsewhere = {str(v).strip().lower() for _, result in known.results for d in _dicts(result)
                     for k, v in d.items() if _NAME_FIELD.search(k) and isinstance(v, str)}
        if name not in elsewhere and name not in known.said_text():
            found.append(f"“{match.group('name') or match.group('name2')}” as its name, which is "
                         f"{' or '.join(sorted(names))!r}")
    return found


# A quotation said as a named field's value: a thing's name ("titled “X”", "the title is now “X”",
# 标题是“X”, ชื่อ “X”) or its text ("says: “X”", "the body reads “X”", "with the text “X”", 内容是“X”).
_QUOTED = r"\s*[:：]?\s*[“\"«「]\s*(?P<value>[^”\"»」\n]{1,200}?)\s*[”\"»」]"
_FIELD_SAID = {
    "name": re.compile(r"(?:\b(?:titled|entitled|named|called|intitul[ée]e?|appel[ée]e?|(?:title|name|titre|nom)\s+"
                       r"(?:is\s+|was\s+|est\s+)?(?:now\s+|maintenant\s+)?)|标题(?:是|为)?|名为|ชื่อ(?:ว่า)?"
                       # a new name given: "renamed note-1 to “X”", « renommée en “X” », 改名为“X”, เปลี่ยนชื่อ…เป็น “X”
                       r"|\b(?:renamed|retitled|renomm[ée]e?s?)(?:\s+[^\s“\"«「]+){0,3}?\s+(?:to|as|en)"
                       r"|(?:改名|重命名|更名)(?:为|成)|เปลี่ยนชื่อ\S{0,20}?เป็น)" + _QUOTED, re.I),
    "text": re.compile(r"(?:\b(?:says|said|reads|read|(?:text|body|content|contents|texte|contenu)\s+(?:is\s+|was\s+|est\s+|"
                       r"reads\s+|says\s+)?(?:now\s+|maintenant\s+)?)|内容(?:是|为)?|正文(?:是|为)?|เนื้อหา(?:ว่า)?)" + _QUOTED,
                       re.I)}
# A thing's text given unquoted after a colon, to the end of its sentence: "note-1 says: Call the bank."
_TEXT_AFTER_A_COLON = re.compile(r"(?:\b(?:says|reads|(?:text|body|content|contents|texte|contenu)\s+(?:is|est|reads|says))"
                                 r"|内容(?:是|为)|正文(?:是|为)|เนื้อหา(?:คือ|ว่า))\s*[:：]\s*(?P<value>[^\s“\"«「*>`\n]"
                                 r"[^“\"«「\n—–(（]{2,200}?)(?=[.。!?！？]?\s*$|[.。!?！？]\s|[—–(（])", re.I)
_FIELDS_OF = {"name": _NAME_FIELD, "text": re.compile(r"(?:content|body|text)", re.I)}


def _swapped(said: str, scope: list[Any]) -> list[str]:
    """A quotation said as one field's value ("titled “Welcome”") that the thing holds in another
    field and not in that one: its title and its text swapped, or one put for the other."""
    found = []
    for field, pattern in _FIELD_SAID.items():
        for match in pattern.finditer(said):
            value = _plain_quote(match.group("value"))
            for part in scope:
                if not isinstance(part, dict):
                    continue
                own = {_plain_quote(v) for k, v in part.items() if isinstance(v, str) and _FIELDS_OF[field].search(k)}
                other = [k for k, v in part.items() if isinstance(v, str) and _plain_quote(v) == value
                         and any(_FIELDS_OF[f].search(k) for f in _FIELDS_OF if f != field)]
                if own and other and value not in own and not _heading_before(said[match.end():], own):
                    found.append(f"“{match.group('value')}” as its {field}, which is its {other[0]}")
    return found


# What parts a rendering's heading from its body: "reads: “Welcome” / Meeting moved to Friday".
_HEADING_RULE = re.compile(r"\s*(?:/|\||—|–|:|\n)\s*")


def _heading_before(after: str, own: set[str]) -> bool:
    """What follows a quotation is the thing's own text after a rule: the thing shown whole, the
    quotation its heading (its title), not its text."""
    rule = _HEADING_RULE.match(after)
    return bool(rule) and any(text and _plain_quote(after[rule.end():]).startswith(text) for text in own)


def _text_not_held(said: str, known: Known, scope: list[Any]) -> list[str]:
    """A quotation said as a thing's text ("with the text “X”", 内容是“X”) that no text field of
    the things spoken of holds, nor a part of it, nor anything else said so far: a text made up
    (a note created with no text said to have one). A text quoted in part, or from another call or
    the user, is left to the other readings."""
    texts = [v or "" for part in scope if isinstance(part, dict) for k, v in part.items()
             if _FIELDS_OF["text"].search(k) and (v is None or isinstance(v, str))]
    if not texts:
        return []
    found = []
    bare = _TEXT_AFTER_A_COLON.finditer(said) if all(texts) else ()  # "says: nothing yet" may be true of an empty one
    for match in [*_FIELD_SAID["text"].finditer(said), *bare]:
        value = _plain_quote(match.group("value")).strip(".…").strip()
        if match.group(0).lower().startswith("said") or not value or value in known.text():
            continue  # "you said “X”": speech reported, not a field
        words = re.findall(r"\w+", value)
        held = sum(any(w in _plain_quote(t) for t in texts) for w in words)
        if 2 * held < len(words):
            shown = " or ".join(sorted({repr(t) for t in texts})) if any(texts) else "empty"
            found.append(f"“{match.group('value')}” as its text, which is {shown}")
    return found


# A quotation ending in a remark in brackets: "Car insurance (copy)", 「购物清单（草稿）」.
_REMARKED = re.compile(r"[“\"«「]\s*(?P<name>[^”\"»」\n()（）]{1,60}?)\s*[(（](?P<remark>[^()（）\n]{1,20})[)）]\s*[”\"»」]")


# A list under a heading, each item a quotation alone: "Created:\n- “Passport”\n- “Visa”".
_LISTED_QUOTATIONS = re.compile(r"^[^\n]*[:：]\s*\n((?:[ \t]*(?:[-*•]|\d+[.)])[ \t]+[“\"«「][^”\"»」\n]+[”\"»」][ \t]*(?:\n|$))+)",
                                re.M)
_ITEM_QUOTED = re.compile(r"[“\"«「]([^”\"»」\n]+)[”\"»」]")


def _listed_unnamed(text: str, known: Known) -> list[str]:
    """A list of things by their names alone, quoted under a heading ("Created:", "Vos notes :"), where
    the results name things: an item that no result names, nor anything else the conversation holds,
    is a name no call returned ("Untitled" listed of two notes titled Passport and Visa)."""
    names = {str(v).strip().lower() for _, result in known.results for d in _dicts(result)
             for k, v in d.items() if _NAME_FIELD.search(k) and isinstance(v, str)}
    if not names:
        return []
    said = known.text()
    return [f"“{item.strip()}” listed as a name, which no call returned"
            for listed in _LISTED_QUOTATIONS.finditer(text) for item in _ITEM_QUOTED.findall(listed.group(1))
            if item.strip().lower() not in names and item.strip().lower() not in said]


def _names_embellished(text: str, known: Known) -> list[str]:
    """A thing's name quoted with a remark added inside its quotation marks ("Car insurance (copy)",
    « Idées cadeaux (brouillon) », 「购物清单（草稿）」) that no call returned nor anyone said: the name
    misstated, the thing said to be called what it is not (a name of the results is quoted whole)."""
    names = {str(v).strip().lower() for _, result in known.results for d in _dicts(result)
             for k, v in d.items() if _NAME_FIELD.search(k) and isinstance(v, str)}
    found = []
    for match in _REMARKED.finditer(text):
        whole = _plain_quote(re.sub(r"\s+", " ", match.group(0)[1:-1]))
        if match.group("name").strip().lower() in names and whole not in names and \
                whole not in known.text():
            found.append(f"{match.group(0)} as its name, which is {match.group('name').strip()!r}")
    return found


def _plain_quote(text: str) -> str:
    return text.strip().rstrip(".。").strip().lower()


# Nothing free, in general English words of availability: "no openings", "booked solid", "nothing available".
_NONE_FREE = re.compile(r"\b(?:no|not any|zero)\s+(?:\w+\s+)?(?:openings?|availability|vacanc(?:y|ies)|slots?|spots?"
                        r"|tables?|seats?)\b|\b(?:fully|completely)\s+booked\b|\bbooked\s+(?:solid|up|out)\b"
                        r"|\b(?:doesn't|does not|don't|do not|didn't|did not)\s+have\s+anything\b|\bhas\s+nothing\b"
                        r"|(?:\b(?:is|are|was|were)|'s|'re)\s+(?:completely\s+|totally\s+|already\s+)?full\b"
                        r"|\b(?:nothing|none)\b[^,;.]*\b(?:available|free|open)\b", re.I)


def _none_free(said: str, known: Known, scope: list[Any]) -> list[str]:
    """Nothing said to be free ("Sakura Sushi has no openings at 19:00") where the search the clause
    speaks of listed some at the time said (else at the time the search asked for: "no free tables
    at that time" is true of a search that found only others near it)."""
    if not _NONE_FREE.search(said):
        return []
    times = {(hour, minute or 0) for hour, minute in _times(said)} or \
        {time for args in known.args for time in _hours(json.loads(args))}
    holders = known.holders(scope)
    listed = [part for part, result in holders for items in _lists(result) if any(part is item for item in items)]
    listed += [item for part, result in holders if part is result for items in _lists(part) for item in items
               if isinstance(item, dict)]
    free = [item for item in listed if not times or not _hours(item) or _hours(item) & times]
    return [f"{said.strip()!r}, but the search found {len(free)} free"] if free else []


def _hours(item: Any) -> set[tuple[int, int]]:
    return {(d["hour"], d.get("minute") or 0) for d in _dicts(item) if isinstance(d.get("hour"), int)}


def _held(said: str, scope: list[Any]) -> list[tuple[str, Any]]:
    """What the things in scope hold: text of more than a word and lists, not their names, titles
    or ids, nor a field the clause names as an exception."""
    return [(key, value) for part in scope if isinstance(part, dict) for key, value in part.items()
            if not _NAMING_FIELD.search(key) and not re.search(_EXCEPT + re.escape(key), said, re.I)
            and (isinstance(value, str) and _text(value) or isinstance(value, list) and value)]


def _text(value: str) -> bool:
    """Text a thing holds, not a code: more than a word, or a word of a few letters not in capitals
    ("Milk", 牛奶和鸡蛋; not "UPS", "SHIPPED", "me")."""
    return len(value.split()) > 1 or len(value.strip()) >= 4 and not value.isupper() or \
        bool(re.search(r"[\u0e00-\u0e7f\u4e00-\u9fff]{2}", value))


# An exception: "nothing besides its title".
_EXCEPT = r"\b(?:besides|except|other than|apart from|aside from|but|beyond|save)\b[^.;]*?\b"


def _named_leaves(result: Any, name: str = "") -> list[tuple[str, Any]]:
    if isinstance(result, dict):
        return [leaf for key, sub in result.items() for leaf in _named_leaves(sub, key)]
    if isinstance(result, list):
        return [leaf for item in result for leaf in _named_leaves(item, name)]
    return [(name, result)]


# A description that gives its unit by another field's: "in the same unit", "in the same units as temperature".
_SAME_UNIT = re.compile(r"\bsame units?\b(?:\s+as\s+(?:the\s+)?(?P<field>\w+))?", re.I)


def _described_fields(schema: Any) -> Iterable[tuple[str, str]]:
    """Each field with its description; one given "in the same unit" is described as the field it
    names, else the one before it, is (the apparent temperature "in the same unit" as the air's)."""
    if not isinstance(schema, dict):
        return
    described: dict[str, str] = {}
    for key, sub in (schema.get("properties") or {}).items():
        if isinstance(sub, dict):
            description = sub.get("description") or ""
            same = _SAME_UNIT.search(description)
            if same and described:
                named = same.group("field") or ""
                source = next((d for k, d in described.items() if field_words(k) == field_words(named)),
                              list(described.values())[-1])
                description = f"{description} ({source})"
            described[key] = description
            yield key, description
            yield from _described_fields(sub)
    yield from _described_fields(schema.get("items"))


def _values_of(result: Any, name: str) -> list[Any]:
    """Every value of a field named ``name``, at any depth (in each element of a list)."""
    if isinstance(result, dict):
        found = [result[name]] if name in result else []
        return found + [v for key, sub in result.items() if key != name for v in _values_of(sub, name)]
    if isinstance(result, list):
        return [v for item in result for v in _values_of(item, name)]
    return []


def _leaves(result: Any) -> list[Any]:
    if isinstance(result, dict):
        return [v for sub in result.values() for v in _leaves(sub)]
    if isinstance(result, list):
        return [v for item in result for v in _leaves(item)]
    return [result]


def _lists(result: Any) -> list[list[Any]]:
    if isinstance(result, dict):
        return [l for sub in result.values() for l in _lists(sub)]
    if isinstance(result, list):
        return [result] + [l for item in result for l in _lists(item)]
    return []


def _informative(value: Any, echoed: str) -> bool:
    """A value worth telling the user: not a flag, not what the request already held, not machine data."""
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return abs(value) > 12 and abs(value) < 1e9
    text = str(value)
    return bool(text.strip()) and text.lower() not in echoed and not _MACHINE.search(text)


def _survives_translation(value: Any) -> bool:
    """Numbers, identifiers and names read the same in any language."""
    if isinstance(value, (int, float)):
        return True
    text = str(value)
    return _is_id(text) or (text[:1].isupper() and not text.isupper() and "_" not in text) or \
        (text.isupper() and len(text) <= 4)


def _names_it(value: Any) -> bool:
    """A value that names a thing: an id or a proper name, not a code such as CLOUDY or METRIC."""
    return isinstance(value, str) and len(value) >= 4 and not _MACHINE.search(value) and \
        (bool(re.search(r"\d", value)) or value != value.upper())


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and bool(re.search(r"\d", value)) and bool(re.search(r"[A-Za-z]", value))


def _carried(value: Any, said: str) -> bool:
    """The value is told: as it is, give or take rounding, or (a number) said with a unit in another
    unit of its kind ("16°C" carries 60.4 of a result in °F, "10 km/h" carries 6.0 in mph)."""
    if isinstance(value, (int, float)):
        return any(abs(float(n.replace(",", ".")) - value) < 1 or abs(float(n.replace(",", ".")) - (value * 9 / 5 + 32))
                   <= 1 for n in _NUMBER.findall(said)) or \
            any(agrees(quantity, value, unit) for _, quantity in quantities_said(said) for unit in units_of_kind(quantity))
    text = str(value).lower()
    if _mentions(said, str(value)):
        return True
    words = [w for w in re.findall(r"[^\W_]+", text) if len(w) > 3]
    return len(words) >= 4 and sum(w in said for w in words) >= 0.6 * len(words)


def _mentions(said: str, value: str) -> bool:
    """``said`` has the value as words, give or take an ending: CANCELLED as "canceled", RAIN as
    "rainy", PARTLY_CLOUDY as "partly cloudy"."""
    pattern = _mention_pattern(_said(value))
    stem = _said(value)[:-3] if _said(value).endswith("ing") else None
    return pattern is not None and any(not (stem and match.group(0).lower() == stem and _A_NOUN_BEFORE.search(
        said[:match.start()])) for match in pattern.finditer(said))


# Words before a bare stem that make it a noun: PROCESSING's "process" in "the store's return process",
# "a process", "that process" names a procedure, not the state.
_A_NOUN_BEFORE = re.compile(r"\b(?:the|a|an|this|that|its|their|your|our|my|any|whole|\w+'s)(?:\s+[a-z-]+)?\s*$", re.I)


# A value's other endings: PROCESSING said "processed"; not an -ed value said in -ing: "UPS is
# delivering it" says the delivery is under way, not that it is DELIVERED.
_ENDINGS = (("ing", ("ed", "es", "")), ("ed", ("es", "e")))


@functools.lru_cache(maxsize=4096)  # the conversation's values, for reply after reply
def _mention_pattern(phrase: str) -> re.Pattern | None:
    if not phrase.strip():
        return None
    variants = {phrase, phrase + "s", phrase + "y", phrase + "ing", phrase.replace("ll", "l"), phrase + phrase[-1] + "y",
                phrase + phrase[-1] + "ing"}
    if phrase.endswith("y"):
        variants.add(phrase[:-1])
    if phrase.endswith("led"):
        variants.add(phrase[:-3] + "lled")
    for ending, others in _ENDINGS:
        if phrase.endswith(ending) and len(phrase) > len(ending) + 3:  # PROCESSING as "processed"
            variants |= {phrase[:-len(ending)] + other for other in others}
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(variants, key=len, reverse=True)))
                      + r")(?![\w-])", re.I)


def _said(value: str) -> str:
    return str(value).lower().replace("_", " ").strip()


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
