"""A reply's structured parts read as structure: JSON and YAML objects, markdown tables.

Models answer in structure as often as in prose: a JSON object, a fenced YAML block, a table.
Read as prose, a structure's words run together ("done: false" says "done"), and a cell is held
to whatever the line or the heading near it names. Read as structure, each row is a record of
fields, and the record speaks of the result its own key names: the value in it that names a
result (an order's id, a light's name), else the key of the object that holds it
(``{"Porch light": {"on": false}}``), else the heading above the table.

``parse`` returns the records and the reply with them blanked out, which is read as prose.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from sim.eval.phrases import LISTED, VALUE_END

_FENCE = re.compile(r"^[ \t]*```[ \t]*(?P<lang>[\w-]*)[ \t]*\n(?P<body>.*?)\n[ \t]*```[ \t]*$", re.M | re.S)
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_HEADING = re.compile(r"^[ \t]*(?:#+\s*|\*\*)?(?P<text>[^\n|]{2,80}?)(?:\*\*)?:?[ \t]*$")
_MARKUP = re.compile(r"\*\*|__|`|~~")
_RUN_ON = re.compile(r"[.!?。！？:]|\*\*")
_YAML_LINE = re.compile(r"^(?:- )?(?:[a-z_][A-Za-z0-9_]*|'[^'\n]+'|\"[^\"\n]+\"):(?:[ \t]+\S.*)?[ \t]*\n?$")
_YAML_NESTED = re.compile(r"^(?:[ \t]+\S|- ).*\n?$")
# A field that says how the action went in general words, not a value of a thing: "done", "success",
# "ok", "result" (its name as words). A participle of the turn's own action ("cancelled") is one too;
# claims.py and facts.py know the action's words.
OUTCOME_FIELD = re.compile(r"(?:(?:was|is|has been|action|request)\s+)?(?:done|ok|okay|success|successful|succeeded|"
                           r"complete|completed|result|outcome|status of (?:the )?(?:action|request)|fait|faite|réussi|"
                           r"effectué|effectuée|terminé|terminée|完成|成功|สำเร็จ|เรียบร้อย)", re.I)
# A yes or a no as a structure says it: true, "yes", ✅, "oui", 是, ใช่.
YES_NO = {**dict.fromkeys(("yes", "true", "y", "✅", "✔", "✔️", "oui", "是", "ใช่", "done", "ok"), True),
          **dict.fromkeys(("no", "false", "n", "❌", "✖", "✗", "non", "否", "ไม่", "not done", "failed"), False)}


@dataclass(frozen=True)
class Record:
    """One row of a structure: its fields as said, and what names it from outside (the key of the
    object that holds it, the heading above its table)."""

    fields: tuple[tuple[str, Any], ...]
    context: tuple[str, ...]  # what names the row from outside, the nearest last: ("Living room", "Floor lamp")
    text: str  # the row as said, with its context: the part a claim or a denial quotes

    def scalars(self) -> list[tuple[str, Any]]:
        return [(key, value) for key, value in self.fields if not isinstance(value, (dict, list))]


@dataclass(frozen=True)
class Structured:
    records: tuple[Record, ...]
    prose: str  # the reply with its structures blanked out


def field_words(key: str) -> str:
    """A field's name as words, lower case: "isOn", "is_on" and "Is on?" are all "is on"."""
    return " ".join(re.findall(r"[^\W\d_]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key))).lower()


@functools.lru_cache(maxsize=1024)  # the same reply is read for its claims and for its values
def parse(text: str) -> Structured:
    records: list[Record] = []
    spans: list[tuple[int, int]] = []
    for fence in _FENCE.finditer(text):
        data = _load(fence.group("body"), fence.group("lang").lower())
        if data is not None:
            records += _records(data, _context_above(text, fence.start()))
            spans.append(fence.span())
    for start, end, data in _bare_json(text, spans):
        records += _records(data, _context_above(text, start))
        spans.append((start, end))
    for start, end, data in _bare_yaml(text, spans):
        records += _records(data, _context_above(text, start))
        spans.append((start, end))
    for start, end, rows in _tables(text, spans):
        records += rows
        spans.append((start, end))
    for item_spans, fields, context in _field_lists(text, spans):
        records.append(Record(fields, context, _shown(context, dict(fields))))
        spans += item_spans
    prose = text
    for start, end in spans:
        prose = prose[:start] + "\n" + " " * (end - start - 1) + prose[end:]
    return Structured(tuple(records), prose)


def _load(body: str, lang: str) -> Any:
    """A fenced block's data, where it is JSON or YAML of a mapping or a list of them."""
    try:
        data = json.loads(body)
    except ValueError:
        if lang not in ("yaml", "yml", ""):
            return None
        try:  # every scalar as the text it is: YAML 1.1 reads "on" as true and 19:30 as 1170
            data = yaml.load(body, Loader=yaml.BaseLoader)
        except yaml.YAMLError:
            return None
    if isinstance(data, dict) or isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
        return data
    return None


def _bare_json(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, Any]]:
    """JSON objects and lists of objects written straight into the reply."""
    found, decoder, at = [], json.JSONDecoder(), 0
    while True:
        start = min((i for i in (text.find("{", at), text.find("[", at)) if i >= 0), default=-1)
        if start < 0:
            return found
        if any(s <= start < e for s, e in taken):
            at = start + 1
            continue
        try:
            data, end = decoder.raw_decode(text, start)
        except ValueError:
            at = start + 1
            continue
        if isinstance(data, dict) and data or isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
            found.append((start, end, data))
        at = end


def _bare_yaml(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, Any]]:
    """YAML written straight into the reply: two or more lines of ``key: value`` whose keys are
    names a program would write (``status``, ``can_cancel``, ``'on'``), with their nested lines;
    not a person's "- Status: shipped", which is read as prose (a list item under its heading)."""
    found, start, lines = [], None, []
    offset = 0
    for line in text.splitlines(keepends=True) + [""]:
        if line and (_YAML_LINE.match(line) or lines and _YAML_NESTED.match(line)) and \
                not any(s <= offset < e for s, e in taken):
            start = offset if start is None else start
            lines.append(line)
        else:
            if len([l for l in lines if _YAML_LINE.match(l)]) >= 2:
                data = _load("".join(lines), "yaml")
                if data is not None:
                    found.append((start, start + len("".join(lines)), data))
            start, lines = None, []
        offset += len(line)
    return found


def _field_lists(text: str, taken: list[tuple[int, int]]) -> list[tuple[list[tuple[int, int]], tuple, tuple]]:
    """Lists of fields, one item each ("- **Status:** shipped", "- Bedside lamp (Bedroom): on"), a
    run of items one record under the heading above it: the item's label is the field's name, a
    parenthesis in it a field of its own. An item's value ends where a sentence or a heading runs
    on after it on its line (phrases.VALUE_END: "- Conditions: clear Weather for Bangkok:"), and
    such a heading heads the items below it."""
    found, items, fields, context, offset = [], [], [], (), 0
    lines = text.splitlines(keepends=True) + [""]
    for at, line in enumerate(lines):
        label = _listed(lines, at) if line and not any(s <= offset < e for s, e in taken) else None
        if not label:
            if items:
                found.append((items, tuple(fields), context))
            items, fields, context = [], [], ()
            offset += len(line)
            continue
        end = VALUE_END.search(line, label.end())
        name = re.sub(r"^\d+[.)]\s*", "", _MARKUP.sub("", line[:label.end()]).strip(" \t-*•:—–→").strip())
        if items and _said_again(name, fields):
            found.append((items, tuple(fields), context))
            items, fields, context = [], [], ()
        if not items and not context:
            context = _context_above(text, offset)
        rest = line[end.end(1):].strip() if end else ""
        # a sentence or a heading run on after the value, not a name in capitals ("On: Pendant and Porch light")
        runs_on = bool(end) and bool(_RUN_ON.search(rest) or len(rest.split()) >= 6)
        value_end = end.start(1) if runs_on else len(line.rstrip("\n"))
        detail = re.search(r"\s*\(([^)]*)\)\s*$", name)
        fields += [(name[:detail.start()].strip() if detail else name,
                    _MARKUP.sub("", line[label.end():value_end]).strip())] + ([("detail", detail.group(1))] if detail else [])
        items.append((offset, offset + value_end))
        if runs_on:  # what runs on ends the list; a heading at its end heads the items below
            bold = re.search(r"\*\*([^*\n]+)\*\*\s*$", rest)
            heading = bold.group(1) if bold else re.split(r"(?<=[.!?])\s+", rest)[-1] if rest.endswith(":") else ""
            found.append((items, tuple(fields), context))
            items, fields, context = [], [], (heading.strip(" :"),) if heading else ()
        offset += len(line)
    return found


def _said_again(label: str, fields: list[tuple[str, str]]) -> bool:
    """A list's label said again starts the next record: "- Title: A / - ID: note-2 ✅ Saved / - Title: B"
    lists two notes, one after the other, not one with two titles."""
    return any(said.lower() == label.lower() for said, _ in fields)


# A field on a line of its own with no bullet: "Status: delivered", "**Carrier:** UPS".
_UNBULLETED = re.compile(r"^\s*(?:\*\*)?[A-Z][^:\n—–→.!?]{0,30}?:(?:\*\*)?\s+(?=\S)")
# A value that opens on what identifies a thing: ORD-8492, note-2, #58213 (a heading may run on after it).
_AN_ID = re.compile(r"(?:#\d{3,}|(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)(?!\S)")


def _listed(lines: list[str], at: int) -> re.Match | None:
    """The label of the field line ``at``: a list item's, or a bare "Label: value" line's in a run
    of two or more that names its thing by an id ("Status: delivered / Order ID: ORD-8492"): a
    record as a bulleted list is. One such line alone is a sentence ("Note: it may rain"), and a
    run with no id of its own is read as prose, as the heading it stands under may be far above."""
    found = LISTED.match(lines[at])
    if found or not _UNBULLETED.match(lines[at]):
        return found
    start = end = at
    while start > 0 and _UNBULLETED.match(lines[start - 1]):
        start -= 1
    while end + 1 < len(lines) and _UNBULLETED.match(lines[end + 1]):
        end += 1
    run = [(line, _UNBULLETED.match(line)) for line in lines[start:end + 1]]
    named = any(_AN_ID.match(_MARKUP.sub("", line[label.end():]).strip()) for line, label in run)
    return run[at - start][1] if end > start and named else None


def _records(data: Any, context: tuple[str, ...]) -> list[Record]:
    """The records of a JSON or YAML value: each object with scalar fields is one, under the keys
    that hold it; an object of objects names each by its key."""
    if isinstance(data, list):
        return [r for item in data for r in _records(item, context)]
    if not isinstance(data, dict):
        return []
    scalars = tuple((str(k), v) for k, v in data.items() if not isinstance(v, (dict, list)))
    # a list of plain values is a field too: "on": ["Pendant", "Porch light"] (Record.scalars leaves it out)
    listed = tuple((str(k), v) for k, v in data.items()
                   if isinstance(v, list) and v and not any(isinstance(x, (dict, list)) for x in v))
    fields = scalars + listed
    found = [Record(fields, context, _shown(context, dict(fields)))] if fields else []
    named = tuple(str(v) for _, v in scalars if isinstance(v, str))
    for key, value in data.items():
        if isinstance(value, (dict, list)):
            found += _records(value, (*context, *named, str(key)))
    return found


def _tables(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, list[Record]]]:
    """Markdown tables: a header row, its rule, and rows of cells under the header's names."""
    found = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    i = 0
    while i < len(lines) - 1:
        if _TABLE_ROW.match(lines[i]) and _TABLE_RULE.match(lines[i + 1]) and \
                not any(s <= offsets[i] < e for s, e in taken):
            header = _cells(lines[i])
            j = i + 2
            rows = []
            while j < len(lines) and _TABLE_ROW.match(lines[j]):
                rows.append(tuple(zip(header, _cells(lines[j]))))  # cells past the header's are dropped, as GFM does
                j += 1
            context = _context_above(text, offsets[i])
            found.append((offsets[i], offsets[j], [Record(fields, context, _shown(context, dict(fields)))
                                                   for fields in rows]))
            i = j
        else:
            i += 1
    return found


def _cells(line: str) -> list[str]:
    return [_MARKUP.sub("", cell).strip() for cell in line.strip().strip("|").split("|")]


def _context_above(text: str, start: int) -> tuple[str, ...]:
    """The line above a structure, where it is a heading ("Weather for Tokyo:", "## ORD-8492")."""
    above = [line for line in text[:start].splitlines() if line.strip()]
    heading = _HEADING.match(above[-1]) if above else None
    return (_MARKUP.sub("", heading.group("text")).strip(),) if heading else ()


def _shown(context: tuple[str, ...], fields: dict[str, Any]) -> str:
    return " ".join([*context, json.dumps(fields, ensure_ascii=False, default=str)])
