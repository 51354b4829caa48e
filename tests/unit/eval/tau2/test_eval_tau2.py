"""`droidsim eval tau2` end to end on τ²'s own data, in its own process: scripted agents and users on
airline (one device), and on retail a user model and a judge served over HTTP (one device). The data
is read from ../shared/reference/benchmarks (DROIDSIM_REFERENCE), never copied; absent, these skip."""

from __future__ import annotations

import json
import pickle
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sim.eval.tau2.run import AGENT, Tau2Suite
from tests.helpers import droidsim
from tests.unit.agent.chat_server import received, running


@pytest.fixture(scope="module")
def tau2(reference_dir) -> Path:
    folder = reference_dir / "benchmarks" / "tau2"
    if not folder.is_dir():
        pytest.skip(f"τ² data not found at {folder}")
    return folder


AIRLINE_AGENT = """
"0":   # refuse: EHGLP3 may not be cancelled; this agent cancels it
  - [{name: cancel_reservation, arguments: {reservation_id: EHGLP3}}]
  - Your reservation EHGLP3 is cancelled.
"1":   # refuse too; this agent does nothing, and says it cancelled
  - [{name: get_user_details, arguments: {user_id: raj_sanchez_7340}}]
  - [{name: get_reservation_details, arguments: {reservation_id: Q69X3R}}]
  - I have cancelled reservation Q69X3R for you.
"11":  # the gold call, and the refund told
  - [{name: update_reservation_flights, arguments: {reservation_id: GV1N64, cabin: basic_economy,
      flights: [{flight_number: HAT003, date: "2024-05-19"}, {flight_number: HAT290, date: "2024-05-20"}],
      payment_id: gift_card_1642017}}]
  - Done. The refund of $5,244 goes back to your gift card.
"19": []   # cancel Z7GOZK; this agent stops at once
"5":   # a complaint; this agent hands the customer to a human
  - [{name: transfer_to_human_agents, arguments: {summary: "Delayed flight HAT045, wants compensation."}}]
  - YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.
"""


def test_scripted_agents_on_airline_are_judged_by_outcome_with_the_path_and_the_diff(tau2, tmp_path) -> None:
    script = tmp_path / "agent.yaml"
    script.write_text(AIRLINE_AGENT)
    out = tmp_path / "out"
    result = droidsim("eval", "tau2", "--domain", "airline", "--data", str(tau2 / "airline"), "--tasks", "0,1,5,11,19",
                      "--model", f"scripted:{script}", "--user-model", "scripted", "--trials", "2", "--out", str(out),
                      "--junit", str(tmp_path / "junit.xml"), timeout=240)
    assert result.returncode == 0, result.stderr
    records = {(r["case_id"], r["trial"]): r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert len(records) == 10

    gold = records[("11", 0)]
    assert (gold["reward"], gold["passed"], gold["outcome"]["checks"]) == (1.0, True, {"DB": True, "COMMUNICATE": True})
    assert gold["outcome"]["path"]["gold"][0]["matched"] and gold["outcome"]["communicated"] == [
        {"info": "5244", "met": True}]  # "$5,244" told: τ² takes the commas out of what the agent said
    assert gold["turns"][0]["calls"][0]["args"]["reservationId"] == "GV1N64"  # the agent's own call, wire names

    wrong = records[("0", 0)]
    assert (wrong["reward"], wrong["passed"]) == (0.0, False)
    [finding] = wrong["outcome"]["diff"]["findings"]
    assert (finding["kind"], finding["table"], finding["key"]) == ("unexpected", "reservations", "EHGLP3")
    assert {c["path"]: c["after"] for c in finding["fields"]}["status"] == "cancelled"
    assert wrong["outcome"]["path"]["extra_writes"] == [{"name": "cancel_reservation",
                                                         "arguments": {"reservation_id": "EHGLP3"}}]

    claimed = records[("1", 0)]
    assert (claimed["reward"], claimed["passed"], claimed["outcome"]["do_nothing_passes"]) == (1.0, False, True)
    assert claimed["failures"] == [
        "a change claimed where none happened: 'I have cancelled reservation Q69X3R for you.'"]

    idle = records[("19", 1)]
    assert (idle["reward"], idle["outcome"]["ending"]) == (0.0, "agent_stop")
    assert idle["failures"][0].startswith("database: reservations Z7GOZK is changed by the gold actions, and the "
                                          "run left it as it was")

    transferred = records[("5", 0)]
    assert (transferred["reward"], transferred["outcome"]["ending"]) == (1.0, "transfer")
    assert transferred["turns"][-1]["user"] == "###TRANSFER###"  # the scripted user hears the hand-over

    summary = json.loads((out / "summary.json").read_text())
    tau2_scores = summary["tau2"]
    assert tau2_scores["tau2"]["pass^k"] == {"1": 0.6, "2": 0.6}  # 1, 5 and 11, every trial
    assert tau2_scores["droidsim"]["pass^k"] == {"1": 0.4, "2": 0.4}  # 5 and 11: 1 fails on its words
    assert tau2_scores["do_nothing_tasks"] == ["0", "1", "5"] and tau2_scores["words_failed"] == ["1"]
    assert "reservations EHGLP3 was changed by the run" in (out / "report.html").read_text()
    assert re.search(r"│ 11 +│ +2/2 │ +2/2 │ +100\.0% │", result.stdout), result.stdout  # the table, per task
    cases = ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    assert sum(1 for c in cases if c.find("failure") is not None) == 6  # 0, 1 and 19, twice


def _retail_folder(tau2: Path, tmp_path: Path) -> Path:
    """τ²'s retail data with task 24 twice: its customer scripted for the chat-server double, and its
    assertion answered by the double as a judge would (met, then not)."""
    folder = tmp_path / "retail"
    folder.mkdir()
    for name in ("db.json", "policy.md"):
        (folder / name).symlink_to(tau2 / "retail" / name)
    [task] = [t for t in json.loads((tau2 / "retail" / "tasks.json").read_text()) if t["id"] == "24"]
    tasks = []
    for task_id, met in (("24-met", True), ("24-unmet", False)):
        copy = json.loads(json.dumps(task))
        copy["id"] = task_id
        copy["user_scenario"]["instructions"]["task_instructions"] += (
            ' [answers] ["What are my two t-shirts made of?", "###STOP###"]')
        verdict = json.dumps({"results": [{"statement": 1, "met": met, "reason": "judged"}]})
        copy["evaluation_criteria"]["nl_assertions"] = [
            f"{copy['evaluation_criteria']['nl_assertions'][0]} [answers] {json.dumps([verdict])}"]
        tasks.append(copy)
    (folder / "tasks.json").write_text(json.dumps(tasks))
    (folder / "split_tasks.json").write_text(json.dumps({"test": ["24-met", "24-unmet"]}))
    return folder


def test_a_user_model_and_a_judge_over_http_on_retail(tau2, tmp_path) -> None:
    script = tmp_path / "agent.yaml"
    script.write_text('"24-met": [The two t-shirts are made of polyester and cotton.]\n'
                      '"24-unmet": [The two t-shirts are made of polyester and cotton.]\n')
    with running() as server:
        result = droidsim("eval", "tau2", "--domain", "retail", "--data", str(_retail_folder(tau2, tmp_path)),
                          "--split", "test", "--model", f"scripted:{script}", "--user-model", "openai:user-sim",
                          "--user-base-url", f"{server}/v1", "--judge-model", "openai:judge", "--base-url",
                          f"{server}/v1", "--out", str(tmp_path / "out"), "--json", timeout=240)
        bodies = [r["body"] for r in received(server)]
    assert result.returncode == 0, result.stderr
    records = {r["case_id"]: r for r in map(json.loads, (tmp_path / "out" / "results.jsonl").read_text().splitlines())}
    met, unmet = records["24-met"], records["24-unmet"]
    assert [t["user"] for t in met["turns"]] == ["What are my two t-shirts made of?", "###STOP###"]
    assert (met["reward"], met["passed"], met["outcome"]["checks"]) == (1.0, True, {"DB": True, "NL_ASSERTION": True})
    assert (unmet["reward"], unmet["passed"]) == (0.0, False)
    assert unmet["failures"] == [f"assertion not met: {unmet['outcome']['assertions'][0]['assertion']} (judged)"]
    users = [b for b in bodies if b["model"] == "user-sim"]
    judges = [b for b in bodies if b["model"] == "judge"]
    assert len(users) == 4 and len(judges) == 2
    # The user model plays the scenario; the judge reads what the agent said.
    assert "Why you are calling:" in users[0]["messages"][0]["content"]
    assert "agent: The two t-shirts are made of polyester and cotton." in judges[0]["messages"][-1]["content"]
    assert json.loads(result.stdout)["tau2"]["tau2"]["pass^k"] == {"1": 0.5}


def test_an_unknown_domain_is_refused_by_the_command() -> None:
    result = droidsim("eval", "tau2", "--domain", "banking", "--data", ".", "--user-model", "scripted")
    assert result.returncode == 2 and "Invalid value for '--domain': 'banking' is not one of 'retail', 'airline'" \
        in result.stderr


@pytest.mark.parametrize("data, options, message", [
    ("{tmp}/nowhere", {}, "nowhere: no such folder"),
    ("{tau2}/retail", {}, "retail/db.json is τ²'s retail database, not airline's"),
    ("{tmp}/partial", {}, "partial is τ²'s layout (it has db.json) but lacks tasks.json, split_tasks.json, policy.md"),
    ("{tau2}/airline", {"tasks": ["3", "999"]}, "--tasks: 999 is not among the airline tasks"),
    ("{tau2}/airline", {"model": "gpt-4"}, "--model 'gpt-4': use openai:NAME"),
    ("{tau2}/airline", {"user_model": "scripted:{tmp}/turns.yaml"}, "turns.yaml: task 77 is not among"),
    ("{tau2}/../tau-bench-v1/airline", {}, "is τ-bench v1's airline layout, whose tasks and policy are code: give"),
    ("{tau2}/airline", {"tasks_from": "{tmp}/turns.yaml"}, "--tasks-from is for τ-bench v1's layout"),
])
def test_bad_input_is_refused_before_any_conversation(tau2, tmp_path, data, options, message) -> None:
    from sim.eval.tau2.run import Tau2Options, run_tau2

    (tmp_path / "partial").mkdir()
    (tmp_path / "partial" / "db.json").symlink_to(tau2 / "airline" / "db.json")
    (tmp_path / "turns.yaml").write_text("77: [hello]\n")
    options = {key: value.format(tmp=tmp_path) for key, value in options.items() if isinstance(value, str)} | \
        {key: value for key, value in options.items() if not isinstance(value, str)}
    with pytest.raises(ValueError) as refused:
        run_tau2(Tau2Options("airline", Path(data.format(tmp=tmp_path, tau2=tau2)), out=tmp_path / "out", **options))
    assert message in str(refused.value)
    assert not (tmp_path / "out").exists()


def test_the_run_travels_to_workers_whole(tau2) -> None:
    """What a worker process or a Ray task gets: the loaded domain, not a path it may not have."""
    from sim.eval.tau2.benchmark_domain import BenchmarkDomain

    suite = Tau2Suite(BenchmarkDomain.open("airline", tau2 / "airline"), "scripted", None, 200, 10)
    copy = pickle.loads(pickle.dumps(suite))
    assert copy.domain.tasks == suite.domain.tasks and copy.domain.policy == suite.domain.policy
    assert copy.domain.loaded.snapshot.texts == suite.domain.loaded.snapshot.texts and copy.agent == AGENT


def test_tau_bench_v1_airline_runs_the_tasks_its_recorded_runs_carry(tau2, tmp_path) -> None:
    from sim.eval.tau2.run import Tau2Options, run_tau2

    v1 = tau2.parent / "tau-bench-v1"
    summary = run_tau2(Tau2Options("airline", v1 / "airline", tasks=["0", "12"], out=tmp_path / "out",
                                   tasks_from=v1 / "historical_trajectories" / "gpt-4o-airline.json"))
    records = {r["case_id"]: r for r in map(json.loads, (tmp_path / "out" / "results.jsonl").read_text().splitlines())}
    booked = records["0"]  # book a flight for mia_li_3668: the oracle's booking is the gold one
    assert (booked["reward"], booked["turns"][0]["calls"][0]["tau2"]["name"]) == (1.0, "book_reservation")
    assert booked["turns"][0]["user"].startswith("You are mia_li_3668. You want to fly from New York to Seattle")
    assert summary["tau2"]["do_nothing_tasks"] == ["12"]
