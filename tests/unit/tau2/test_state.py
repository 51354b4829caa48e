"""Databases compared, hashed and diffed as τ² and τ-bench do (sim/tau2/state.py), without the data."""

from __future__ import annotations

import hashlib
import json

import pytest

from sim.tau2.state import DbState, Snapshot, changed_fields, diff
from sim.tau2.storage import build_image, read_changes, stored_texts

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


def test_what_was_said_is_read_as_tau2_reads_it():
    from sim.tau2 import communicated

    assert communicated([], ["anything"]) is None
    assert communicated(["1000", "Gold"], ["Your GOLD status.", "It costs 1,000 dollars."]) is True
    assert communicated(["1,000"], ["It costs 1,000 dollars."]) is False  # commas go from the message only
    assert communicated(["1000"], ["It costs 1 000 dollars."]) is False
