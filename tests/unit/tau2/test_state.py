"""Databases compared, hashed and diffed as τ² and τ-bench do (sim/tau2/state.py), without the data."""

from __future__ import annotations

import hashlib
import json
import re
import threading

import pytest

from sim.tau2.state import DbState, Snapshot, changed_fields, diff
from sim.tau2.storage import build_image, read_changes, stored_texts
from tests.helpers import EVENT_BOUND

DB = {"users": {"b": {"name": "B", "amount": 1.0, "tags": ["x", "y"]}, "a": {"name": "A", "amount": 2}},
      "orders": {"#1": {"user": "a", "items": [1, 2]}}}


def snapshot(dialect: str = "tau2") -> Snapshot:
    return Snapshot("retail", dialect, {name: stored_texts(records) for name, records in DB.items()})


def changed(base: Snapshot, *records: tuple[str, str, object]) -> DbState:
    return DbState(base, {(c, k): None if v is None else json.dumps(v, sort_keys=True) for c, k, v in records})


def test_the_tau2_hash_is_sha256_of_the_sorted_dump_of_the_whole_database():
    assert snapshot().state().tau2_hash() == hashlib.sha256(json.dumps(DB, sort_keys=True).encode()).hexdigest()


def test_the_v1_hash_is_sha256_of_the_data_as_sorted_tuples():
    def hashable(item):
        if isinstance(item, dict):
            return tuple((k, hashable(v)) for k, v in sorted(item.items()))
        return tuple(hashable(e) for e in item) if isinstance(item, list) else item

    expected = hashlib.sha256(str(hashable(DB)).encode()).hexdigest()
    assert snapshot("tau-bench-v1").state().hash() == expected


def test_one_and_one_point_zero_differ_as_in_the_hash():
    base = snapshot()
    as_float = changed(base, ("users", "a", {"name": "A", "amount": 2.0}))
    assert not as_float.matches(base.state())
    assert as_float.tau2_hash() != base.state().tau2_hash()


def test_list_order_counts_and_key_order_does_not():
    base = snapshot()
    reordered = changed(base, ("orders", "#1", {"items": [2, 1], "user": "a"}))
    same_keys_other_order = changed(base, ("orders", "#1", {"items": [1, 2], "user": "a"}))
    assert not reordered.matches(base.state())
    assert same_keys_other_order.matches(base.state())


def test_a_record_written_back_unchanged_matches_and_two_cases_are_compared_on_what_either_changed():
    base = snapshot()
    one = changed(base, ("users", "a", {"name": "A", "amount": 3}))
    other = changed(base, ("users", "a", {"name": "A", "amount": 3}), ("users", "b", DB["users"]["b"]))
    assert one.matches(other) and other.matches(one)
    assert not one.matches(changed(base, ("users", "a", {"name": "A", "amount": 4})))


def test_states_of_different_snapshots_are_compared_whole():
    base, copy = snapshot(), snapshot()
    assert changed(base, ("users", "c", {"n": 1})).matches(changed(copy, ("users", "c", {"n": 1})))
    assert not changed(base, ("users", "c", {"n": 1})).matches(copy.state())


def test_diff_lists_records_added_removed_and_the_fields_changed():
    base = snapshot()
    after = changed(base, ("users", "c", {"name": "C"}), ("orders", "#1", None),
                    ("users", "b", {"name": "B", "amount": 0.5, "tags": ["x", "z"], "new": True}))
    result = diff(base.state(), after)
    assert result.to_json() == {"added": {"users": ["c"]}, "removed": {"orders": ["#1"]},
                                "changed": {"users": {"b": ["amount", "new", "tags[1]"]}}}
    assert diff(after, after).is_empty()
    assert after.keys("users") == ["b", "a", "c"] and after.keys("orders") == []


def test_a_list_that_grew_is_one_changed_field():
    assert changed_fields({"r": [1]}, {"r": [1, 2]}) == ["r"]


def test_the_database_file_reports_each_record_a_case_changed():
    import sqlite3

    image = build_image(snapshot().texts, "tau2")
    connection = sqlite3.connect(":memory:")
    connection.deserialize(image)
    connection.execute("UPDATE users SET record = ? WHERE key = 'a'", ('{"name":"A2"}',))
    connection.execute("INSERT INTO orders (key, record) VALUES ('#2', '{}')")
    connection.execute("DELETE FROM users WHERE key = 'b'")
    connection.commit()
    changes = read_changes(connection.serialize(), DB)
    assert changes == {("users", "a"): '{"name": "A2"}', ("orders", "#2"): "{}", ("users", "b"): None}
    assert read_changes(image, DB) == {}
    connection.execute("INSERT INTO changed VALUES ('meta', 'dialect')")
    connection.commit()
    with pytest.raises(ValueError, match="lists a change to 'meta', which it was not given"):
        read_changes(connection.serialize(), DB)


# What the app may make of its database file (it is the app's to write), before the read-back.
ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT 'users' AS collection, x AS key FROM n WHERE x < 0"
HOSTILE_FILES = {
    "changed is a view that never ends": (f"DROP TABLE changed; CREATE VIEW changed AS {ENDLESS}",
                                          "changed is a view, not a table"),
    "a collection is a view": ("DROP TABLE users; CREATE VIEW users AS SELECT 'a' AS key, '{}' AS record",
                               "users is a view, not a table"),
    "changed is gone": ("DROP TABLE changed", "changed is missing, not a table"),
    "more changes than records": ("INSERT INTO changed WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
                                  "WHERE x < 10005) SELECT 'users', x FROM n", "lists more than 10003 changes"),
    "a record nested 100,000 deep": (f"INSERT INTO users (key, record) VALUES ('z', '{'[' * 100_000}{']' * 100_000}')",
                                     "holds a record nested deeper than JSON is read"),
}


@pytest.mark.parametrize("what", list(HOSTILE_FILES))
def test_a_database_file_the_app_rewrote_is_refused_naming_what_is_wrong(what):
    import sqlite3

    script, refusal = HOSTILE_FILES[what]
    connection = sqlite3.connect(":memory:")
    connection.deserialize(build_image(snapshot().texts, "tau2"))
    connection.executescript(script)
    image, outcome = connection.serialize(), []
    # On a thread: before the check, the view's query never returned (nor can a signal stop it).
    reading = threading.Thread(target=lambda: outcome.append(_refusal(image)), daemon=True)
    reading.start()
    reading.join(EVENT_BOUND)
    assert outcome, f"the read-back of a file whose {what} still runs after {EVENT_BOUND:g} s"
    assert re.fullmatch(f"the app's database .*{re.escape(refusal)}.*", outcome[0]), outcome[0]


def _refusal(image: bytes) -> str:
    """The ValueError's words; anything else, said so that the test's message shows it."""
    try:
        return f"read as {read_changes(image, snapshot().texts)}"
    except ValueError as refused:
        return str(refused)
    except Exception as error:  # noqa: BLE001 - the thread reports what it met
        return f"{type(error).__name__}: {error}"


def test_a_file_that_is_no_database_is_refused_as_such():
    with pytest.raises(ValueError, match="^the app's database is not one the loader wrote: file is not a database$"):
        read_changes(b"not SQLite" * 100, snapshot().texts)


def test_what_was_said_is_read_as_tau2_reads_it():
    from sim.tau2 import communicated

    assert communicated([], ["anything"]) is None
    assert communicated(["1000", "Gold"], ["Your GOLD status.", "It costs 1,000 dollars."]) is True
    assert communicated(["1,000"], ["It costs 1,000 dollars."]) is False  # commas go from the message only
    assert communicated(["1000"], ["It costs 1 000 dollars."]) is False
