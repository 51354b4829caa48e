"""A domain's data folder read as its benchmark reads it, and every bad folder refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.tau2 import DataError, load_domain

# τ²'s own code (Environment.get_db_hash of a fresh environment) and τ-bench v1's (get_data_hash)
# give these for the data at the commits in SOURCES.md.
TAU2_HASHES = {"retail": "b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c",
               "airline": "124e39a664b56402bcd09cb8a6a9cece6acb8462337c969799d5658e3250f263"}
V1_AIRLINE_HASH = "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290"


def test_the_databases_read_as_the_benchmarks_read_them(retail, airline, airline_v1):
    assert retail.snapshot.state().tau2_hash() == TAU2_HASHES["retail"]
    assert airline.snapshot.state().tau2_hash() == TAU2_HASHES["airline"]
    assert airline_v1.layout == "tau-bench-v1" and airline_v1.snapshot.state().hash() == V1_AIRLINE_HASH
    # τ²'s models dump what the file leaves out and make whole amounts floats; v1 reads the file as it is.
    assert airline.snapshot.state().record("reservations", "4WQ150")["status"] is None
    assert "status" not in airline_v1.snapshot.state().record("reservations", "4WQ150")
    certificate = {"source": "certificate", "id": "certificate_7504069"}
    assert airline.snapshot.state().record("users", "mia_li_3668")["payment_methods"]["certificate_7504069"] == \
        {**certificate, "amount": 250.0}
    assert airline_v1.snapshot.state().record("users", "mia_li_3668")["payment_methods"]["certificate_7504069"] == \
        {**certificate, "amount": 250}


def test_tasks_splits_and_policy(retail, airline):
    assert (len(retail.tasks()), len(retail.tasks("train")), len(retail.tasks("test"))) == (114, 74, 40)
    assert (len(airline.tasks()), len(airline.tasks("train")), len(airline.tasks("test"))) == (50, 30, 20)
    task = retail.task("0")
    assert [a.name for a in task.actions][-1] == "exchange_delivered_order_items"
    assert task.reward_basis == ["DB", "NL_ASSERTION"]
    assert airline.task("0").reward_basis == ["DB", "COMMUNICATE"]
    assert "# Airline Agent Policy" in airline.policy
    with pytest.raises(DataError, match="no split 'dev' \\(it has: train, test, base\\)"):
        retail.tasks("dev")
    with pytest.raises(DataError, match="no task '999'"):
        retail.task("999")


def test_v1_data_has_no_tasks_or_policy_and_says_where_they_are(airline_v1):
    with pytest.raises(DataError, match="τ-bench v1's layout, which has no tasks.json.*historical-trajectories"):
        airline_v1.tasks()
    with pytest.raises(DataError, match="no policy.md"):
        airline_v1.policy


def _layout(folder: Path, source: Path, files: list[str]) -> Path:
    """A data folder of links to some of the reference files (nothing copied)."""
    folder.mkdir()
    for name in files:
        (folder / name).symlink_to(source / name)
    return folder


def test_an_unknown_domain_and_a_missing_folder(tmp_path):
    with pytest.raises(DataError, match="unknown domain 'telecom': droidsim has τ²'s retail and airline"):
        load_domain("telecom", tmp_path)
    with pytest.raises(DataError, match="nowhere: no such folder"):
        load_domain("retail", tmp_path / "nowhere")
    with pytest.raises(DataError, match="holds no retail data: τ²'s layout has db.json, tasks.json"):
        load_domain("retail", tmp_path)


def test_a_missing_file_is_named(tmp_path, benchmarks):
    tau2 = _layout(tmp_path / "t", benchmarks / "tau2" / "retail", ["db.json", "tasks.json", "policy.md"])
    with pytest.raises(DataError, match="is τ²'s layout \\(it has db.json\\) but lacks split_tasks.json"):
        load_domain("retail", tau2)
    v1 = _layout(tmp_path / "v1", benchmarks / "tau-bench-v1" / "airline", ["flights.json", "users.json"])
    with pytest.raises(DataError, match="τ-bench v1's airline layout but lacks reservations.json"):
        load_domain("airline", v1)
    with pytest.raises(DataError, match="db.json is τ²'s airline database, not retail's"):
        load_domain("retail", benchmarks / "tau2" / "airline")
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "orders.json").write_text("{}")
    with pytest.raises(DataError, match="τ-bench v1's retail layout, which droidsim does not port"):
        load_domain("retail", tmp_path / "r")


def test_a_malformed_task_names_the_task_and_the_field(tmp_path, benchmarks):
    source = benchmarks / "tau2" / "retail"
    folder = _layout(tmp_path / "f", source, ["db.json", "policy.md"])
    tasks = json.loads((source / "tasks.json").read_text())[:3]
    del tasks[1]["evaluation_criteria"]["actions"][2]["name"]
    (folder / "tasks.json").write_text(json.dumps(tasks))
    (folder / "split_tasks.json").write_text(json.dumps({"base": ["0", "1", "2"]}))
    with pytest.raises(DataError, match=r"tasks.json: task '1': evaluation_criteria.actions\[2\].name: Field required"):
        load_domain("retail", folder)
    tasks[1]["evaluation_criteria"]["actions"][2]["name"] = "get_order_details"
    tasks[2]["initial_state"] = {"initialization_actions": [{"env_type": "assistant", "func_name": "x", "arguments": {}}]}
    (folder / "tasks.json").write_text(json.dumps(tasks))
    with pytest.raises(DataError, match="task '2': initial_state: Value error, initial states are not run"):
        load_domain("retail", folder)
    del tasks[2]["initial_state"]
    (folder / "tasks.json").write_text(json.dumps(tasks))
    (folder / "split_tasks.json").write_text(json.dumps({"base": ["0", "7"]}))
    with pytest.raises(DataError, match="split 'base' names task '7', which tasks.json does not have"):
        load_domain("retail", folder)


def test_a_database_taus_models_refuse_names_the_field(tmp_path, benchmarks):
    folder = _layout(tmp_path / "f", benchmarks / "tau2" / "airline", ["tasks.json", "policy.md", "split_tasks.json"])
    database = {"flights": {}, "users": {}, "reservations": {"X": {"reservation_id": "X"}}}
    (folder / "db.json").write_text(json.dumps(database))
    with pytest.raises(DataError, match="db.json: not τ²'s airline database: reservations.X.user_id: Field required"):
        load_domain("airline", folder)
    (folder / "db.json").write_text("{not json")
    with pytest.raises(DataError, match="db.json: not JSON"):
        load_domain("airline", folder)
