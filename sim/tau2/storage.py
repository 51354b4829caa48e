"""The app's database file, from the loader's side: built from a domain's data, read back after a case.

sim/tau2/appkit.py is the app's side of the same file. Here the file is built once per data
set, in memory, and written whole into an app's data folder before each case (a reset is a
file written, not a process restarted). Triggers the app never sees list every record a case
inserted, changed or deleted in ``changed``; reading a case's end state back is reading those
records, not the whole database.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Mapping

from sim.tau2.appkit import record_text

# (collection, key) -> the record's stored text, or None when the case deleted it.
Changes = dict[tuple[str, str], "str | None"]
# Fields of a record an app searches by, kept as columns (SQLite computes them from the record, on
# every write too) so that a search reads the records it finds, not every record.
SEARCHED = {"flights": ("origin", "destination")}
# New records a case may add and the read-back takes (a case adds a few: a reservation, a payment).
MAX_INSERTED = 10_000


def build_image(collections: Mapping[str, Mapping[str, str]], dialect: str) -> bytes:
    """The SQLite file of a database given as {collection: {key: stored text}}, in their order."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        connection.execute("INSERT INTO meta VALUES ('dialect', ?)", (dialect,))
        connection.execute("CREATE TABLE changed (collection TEXT NOT NULL, key TEXT NOT NULL, "
                           "PRIMARY KEY (collection, key))")
        for name, records in collections.items():
            columns = "".join(f", {field} TEXT GENERATED ALWAYS AS (json_extract(record, '$.{field}')) STORED"
                              for field in SEARCHED.get(name, ()))
            connection.execute(f"CREATE TABLE {name} (key TEXT PRIMARY KEY, record TEXT NOT NULL{columns})")
            for field in SEARCHED.get(name, ()):
                connection.execute(f"CREATE INDEX {name}_{field} ON {name} ({field})")
            connection.executemany(f"INSERT INTO {name} (key, record) VALUES (?, ?)", records.items())
            for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
                connection.execute(
                    f"CREATE TRIGGER {name}_{event.lower()} AFTER {event} ON {name} BEGIN "
                    f"INSERT OR IGNORE INTO changed VALUES ('{name}', {row}.key); END")
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


def read_changes(image: bytes, collections: Mapping[str, Mapping[str, str]]) -> Changes:
    """What a case changed in a database file: each changed record's text (None: deleted). The
    file is the app's to write: only the collections it was given (``{collection: {key: text}}``,
    the snapshot it was loaded with) are read, and only where each is a plain table (a view
    runs whatever query the app wrote: ``changed`` as a recursive view never ends), each record
    as JSON, at most as many changes as the snapshot has records and ``MAX_INSERTED`` more."""
    bound = sum(len(records) for records in collections.values()) + MAX_INSERTED
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(image)
        _require_tables(connection, ["changed", *collections])
        changed = connection.execute("SELECT collection, key FROM changed LIMIT ?", (bound + 1,)).fetchall()
        if len(changed) > bound:
            raise ValueError(f"the app's database lists more than {bound} changes, more than its records and "
                             f"{MAX_INSERTED} new ones")
        changes: Changes = {}
        for collection, key in changed:
            if collection not in collections:
                raise ValueError(f"the app's database lists a change to {collection!r}, which it was not given")
            row = connection.execute(f"SELECT record FROM {collection} WHERE key = ?", (key,)).fetchone()
            # Written by the app: read as JSON and stored again as the loader stores records.
            changes[collection, key] = None if row is None else record_text(json.loads(row[0]))
        return changes
    except sqlite3.DatabaseError as error:
        raise ValueError(f"the app's database is not one the loader wrote: {error}") from None
    except RecursionError:
        raise ValueError("the app's database holds a record nested deeper than JSON is read") from None
    finally:
        connection.close()


def _require_tables(connection: sqlite3.Connection, names: list[str]) -> None:
    """Each of ``names`` a plain table, as the loader made it (SQLite's own word for what it
    built from the schema, not the schema's text, which the app may have written too)."""
    kinds = dict(connection.execute("SELECT name, type FROM pragma_table_list WHERE schema = 'main'").fetchall())
    wrong = {name: kinds.get(name, "missing") for name in names if kinds.get(name) != "table"}
    if wrong:
        raise ValueError("the app's database is not one the loader wrote: "
                         + ", ".join(f"{name} is {kind if kind == 'missing' else 'a ' + kind}, not a table"
                                     for name, kind in wrong.items()))


def stored_texts(records: Mapping[str, object]) -> dict[str, str]:
    return {key: record_text(record) for key, record in records.items()}
