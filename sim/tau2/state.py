"""A domain's database as loaded (``Snapshot``) and as a case left it (``DbState``): compared,
hashed and diffed the benchmark's way.

τ² decides a task's database check by comparing two hashes: sha256 of
``json.dumps(db.model_dump(), sort_keys=True, default=str)``, for the database the agent's
calls left and for a fresh one the gold actions ran on. Two databases match when that text is
the same: every collection, every key, every value, list order included, and ``1`` apart from
``1.0``. Records are stored as exactly the JSON that text is made of (``record_text``), so the
same decision is taken record by record: equal texts for every record either case changed
(the rest are the snapshot's in both). ``tau2_hash`` gives τ²'s own hash, built from the same
texts; ``v1_hash`` τ-bench v1's (``str`` of the data turned into sorted tuples), which tells
the same values apart.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sim.tau2.appkit import TAU_BENCH_V1
from sim.tau2.storage import Changes, build_image


@dataclass(eq=False)
class Snapshot:
    """A domain's database as loaded: {collection: {key: stored text}}, in the data's order."""

    domain: str
    dialect: str
    texts: dict[str, dict[str, str]]
    _image: bytes | None = field(default=None, repr=False)

    @property
    def image(self) -> bytes:
        """The database file an app is given (built once)."""
        if self._image is None:
            self._image = build_image(self.texts, self.dialect)
        return self._image

    def state(self) -> "DbState":
        return DbState(self, {})


@dataclass(eq=False)
class DbState:
    """A snapshot and what a case changed in it."""

    snapshot: Snapshot
    changes: Changes

    def text(self, collection: str, key: str) -> str | None:
        if (collection, key) in self.changes:
            return self.changes[collection, key]
        return self.snapshot.texts[collection].get(key)

    def keys(self, collection: str) -> list[str]:
        """The collection's keys in order: the snapshot's, then those the case added."""
        loaded = self.snapshot.texts[collection]
        added = [k for (c, k), text in self.changes.items() if c == collection and k not in loaded and text is not None]
        return [k for k in loaded if self.text(collection, k) is not None] + added

    def record(self, collection: str, key: str) -> Any | None:
        text = self.text(collection, key)
        return None if text is None else json.loads(text)

    def changed(self) -> bool:
        """Whether anything differs from the snapshot."""
        return any(text != self.snapshot.texts[c].get(k) for (c, k), text in self.changes.items())

    def matches(self, other: "DbState") -> bool:
        """τ²'s database check: the same text for the whole database (see the module docstring)."""
        if self.snapshot is other.snapshot:
            keys = self.changes.keys() | other.changes.keys()
            return all(self.text(c, k) == other.text(c, k) for c, k in keys)
        return self._canonical() == other._canonical()

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The whole database as plain data (a new copy)."""
        return json.loads(self._canonical())

    def tau2_hash(self) -> str:
        """τ²'s ``get_db_hash()`` of this database."""
        return hashlib.sha256(self._canonical().encode()).hexdigest()

    def v1_hash(self) -> str:
        """τ-bench v1's ``get_data_hash()`` of this database."""
        return hashlib.sha256(str(_v1_hashable(self.to_dict())).encode("utf-8")).hexdigest()

    def hash(self) -> str:
        """The hash the data's own benchmark would give."""
        return self.v1_hash() if self.snapshot.dialect == TAU_BENCH_V1 else self.tau2_hash()

    def _canonical(self) -> str:
        """``json.dumps(database, sort_keys=True)``, assembled from the stored record texts."""
        parts = []
        for collection in sorted(self.snapshot.texts):
            records = ", ".join(f"{json.dumps(key)}: {self.text(collection, key)}"
                                for key in sorted(self.keys(collection)))
            parts.append(f"{json.dumps(collection)}: {{{records}}}")
        return "{" + ", ".join(parts) + "}"


def _v1_hashable(item: Any) -> Any:
    if isinstance(item, dict):
        return tuple((key, _v1_hashable(value)) for key, value in sorted(item.items()))
    if isinstance(item, list):
        return tuple(_v1_hashable(element) for element in item)
    return item


@dataclass
class DbDiff:
    """What differs between two databases, AppWorld's way: records added, removed and changed
    (with the paths of the fields that changed), by collection."""

    added: dict[str, list[str]] = field(default_factory=dict)
    removed: dict[str, list[str]] = field(default_factory=dict)
    changed: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def to_json(self) -> dict[str, Any]:
        return {"added": self.added, "removed": self.removed, "changed": self.changed}


def diff(before: DbState, after: DbState) -> DbDiff:
    """What ``after`` has that ``before`` has not (e.g. the expected database, then the agent's)."""
    if before.snapshot is after.snapshot:
        keys = sorted(before.changes.keys() | after.changes.keys())
    else:
        keys = sorted({(c, k) for state in (before, after) for c in state.snapshot.texts for k in state.keys(c)})
    result = DbDiff()
    for collection, key in keys:
        old, new = before.text(collection, key), after.text(collection, key)
        if old == new:
            continue
        if old is None:
            result.added.setdefault(collection, []).append(key)
        elif new is None:
            result.removed.setdefault(collection, []).append(key)
        else:
            result.changed.setdefault(collection, {})[key] = changed_fields(json.loads(old), json.loads(new))
    return result


def changed_fields(old: Any, new: Any, path: str = "") -> list[str]:
    """The paths (``payment_methods.gift_card_1.amount``, ``flights[1].price``) where two values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        paths = []
        for key in sorted(old.keys() | new.keys()):
            below = f"{path}.{key}" if path else str(key)
            if key not in old or key not in new:
                paths.append(below)
            else:
                paths.extend(changed_fields(old[key], new[key], below))
        return paths
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [p for i, (a, b) in enumerate(zip(old, new)) for p in changed_fields(a, b, f"{path}[{i}]")]
    same = json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)
    return [] if same else [path or "(the record)"]
