"""What a run changed in an app's database, against what it should have changed (AppWorld's diff).

A database here is plain JSON in τ²'s shape: tables (``orders``, ``users``...) of records keyed
by id, compared as τ²'s hash compares them (the same JSON text: ``1`` is not ``1.0``). Three
states are compared: the one the case started from, the one the gold actions leave (the expected
end state) and the one the agent left; a caller may pass only the records either of the last two
changed, and the findings are the same. Records whose end state equals the expected one are
fine, whether they changed or not; every other record is named with what went wrong:

- ``unexpected``: the gold actions leave it alone, the run added, changed or removed it;
- ``missed``: the gold actions change it, the run left it as it was;
- ``different``: both change it, to different values.

Each finding lists the fields (paths into the record) that differ, with both values, so a
failure says "orders #W2378156: status 'delivered' -> 'exchange requested'" rather than "the
database hashes differ".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

ABSENT = "(absent)"
_MISSING = object()


@dataclass(frozen=True)
class FieldChange:
    path: str  # "status", "items[0].price", "" for the whole record
    before: Any  # the value compared against (the start, or the expected end)
    after: Any  # the run's

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "before": self.before, "after": self.after}

    def text(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{_short(self.before)} -> {_short(self.after)}"


@dataclass(frozen=True)
class RecordFinding:
    kind: str  # unexpected | missed | different
    table: str
    key: str
    change: str  # added | changed | removed: what the run did (unexpected), or what gold does (missed)
    fields: tuple[FieldChange, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "table": self.table, "key": self.key, "change": self.change,
                "fields": [f.to_dict() for f in self.fields]}

    def text(self) -> str:
        shown = "; ".join(f.text() for f in self.fields[:4]) + ("; ..." if len(self.fields) > 4 else "")
        record = f"{self.table} {self.key}"
        if self.kind == "unexpected":
            return f"{record} was {self.change} by the run, and the gold actions leave it alone ({shown})"
        if self.kind == "missed":
            return f"{record} is {self.change} by the gold actions, and the run left it as it was ({shown})"
        return f"{record} was changed otherwise than the gold actions change it (run vs gold: {shown})"


@dataclass(frozen=True)
class StateDiff:
    """The run's changes (start -> run), the expected ones (start -> gold), and the findings."""

    changed: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # table -> added/changed/removed keys
    expected: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    findings: tuple[RecordFinding, ...] = ()

    @property
    def matches(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {"changed": self.changed, "expected": self.expected, "findings": [f.to_dict() for f in self.findings]}


def diff_states(start: dict[str, Any], gold: dict[str, Any], run: dict[str, Any]) -> StateDiff:
    findings = []
    for table in _keys(start, gold, run):
        s, g, r = (_table(state, table) for state in (start, gold, run))
        for key in _keys(s, g, r):
            before, want, got = s.get(key, _MISSING), g.get(key, _MISSING), r.get(key, _MISSING)
            if _same(got, want):
                continue
            if _same(want, before):
                findings.append(RecordFinding("unexpected", table, key, _what(before, got),
                                              tuple(field_changes(before, got))))
            elif _same(got, before):
                findings.append(RecordFinding("missed", table, key, _what(before, want),
                                              tuple(field_changes(before, want))))
            else:
                findings.append(RecordFinding("different", table, key, _what(before, got),
                                              tuple(field_changes(want, got))))
    return StateDiff(changes(start, run), changes(start, gold), tuple(findings))


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Per table, the keys of the records added, changed and removed (tables with none left out)."""
    out: dict[str, dict[str, list[str]]] = {}
    for table in _keys(before, after):
        b, a = _table(before, table), _table(after, table)
        found = {"added": sorted(k for k in a if k not in b),
                 "changed": sorted(k for k in a if k in b and not _same(a[k], b[k])),
                 "removed": sorted(k for k in b if k not in a)}
        found = {kind: keys for kind, keys in found.items() if keys}
        if found:
            out[table] = found
    return out


def field_changes(before: Any, after: Any, path: str = "") -> list[FieldChange]:
    """The leaves that differ, by path: objects by key, lists of equal length by index, else whole."""
    if _same(before, after):
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in _keys(before, after):
            out += field_changes(before.get(key, _MISSING), after.get(key, _MISSING), f"{path}.{key}" if path else key)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = []
        for index, (b, a) in enumerate(zip(before, after)):
            out += field_changes(b, a, f"{path}[{index}]")
        return out
    return [FieldChange(path, _shown(before), _shown(after))]


def _same(a: Any, b: Any) -> bool:
    """Equal as τ² compares databases: the same JSON text (1 and 1.0 differ, as do lists in another order)."""
    if a is _MISSING or b is _MISSING:
        return a is b
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _what(before: Any, after: Any) -> str:
    if before is _MISSING:
        return "added"
    if after is _MISSING:
        return "removed"
    return "changed"


def _table(state: dict[str, Any], table: str) -> dict[str, Any]:
    """A table as records by key; a list (a table without ids) keyed by position."""
    value = state.get(table, {})
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return value
    return {"": value}  # a scalar at the top: one record without a key


def _keys(*mappings: dict[str, Any]) -> list[str]:
    return sorted({key for mapping in mappings if isinstance(mapping, dict) for key in mapping}, key=str)


def _shown(value: Any) -> Any:
    return ABSENT if value is _MISSING else value


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if value != ABSENT else ABSENT
    return text if len(text) <= 80 else text[:77] + "..."
