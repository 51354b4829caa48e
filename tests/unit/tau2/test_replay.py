"""Recorded runs replayed through the apps score as their benchmark scored them.

τ-bench's 200 GPT-4o airline runs: a representative subset here (every trial of eight tasks: bookings,
changes, transfers, the tasks scored on what was said, and the one run droidsim scores differently);
all 200 in `make tau2-replay` (199 agree: docs/benchmarks.md). τ² runs made of gold actions with
writes dropped, duplicated, changed, added and reordered get τ²'s own database verdict."""

from __future__ import annotations

import copy
import json

import pytest

from sim.tau2.replay import Replayer
from sim.tau2.trajectories import RecordedRun, read_runs
from sim.tau2.tasks import Call

SUBSET = {0, 2, 9, 14, 16, 23, 44, 46}


@pytest.fixture(scope="module")
def v1_runs(benchmarks):
    _, runs = read_runs(benchmarks / "tau-bench-v1" / "historical_trajectories" / "gpt-4o-airline.json", "airline")
    return runs


def test_the_recorded_gpt4o_runs_replay_to_their_recorded_rewards(airline_v1, desk_v1, v1_runs):
    runs = [run for run in v1_runs if run.task_id in SUBSET]
    assert len(runs) == 32
    replayer = Replayer(airline_v1, desk_v1)
    results = [replayer.replay(run) for run in runs]
    differ = [(r.run.task_id, r.run.trial) for r in results if not r.agrees]
    assert differ == [(46, 3)]
    # Cut short by the agent's step limit, so never scored (recorded 0); its database is the gold one.
    [late] = [r for r in results if (r.run.task_id, r.run.trial) == (46, 3)]
    assert (late.run.scored, late.reward, late.db_match, late.run.recorded_reward) == (False, 1, True, 0.0)
    # Task 2 is scored on saying "23553": trial 2 said "23,553" (commas are taken out) and passed.
    said = {(r.run.task_id, r.run.trial): r.communicated for r in results if r.run.task_id == 2}
    assert said == {(2, 0): False, (2, 1): False, (2, 2): True, (2, 3): False}
    record = results[0].to_json()
    assert list(record) == ["task_id", "trial", "reward", "db_match", "communicated", "errors", "not_judged",
                            "recorded_reward"]
    assert record["errors"] == [{"call": 4, "function": "book_reservation", "code": "ERROR_INVALID_ARGUMENT",
                                 "message": "The payments add up to 255, but the price is 305"}]


# --- τ²'s database verdict on perturbed gold runs ---------------------------------------------
# Each run: a task's gold actions, perturbed. The verdicts are τ²'s own: its EnvironmentEvaluator
# (τ²-bench at a2c0247) run on the same calls, outside this project.

READS = frozenset({"calculate", "find_user_id_by_name_zip", "find_user_id_by_email", "get_order_details",
                   "get_product_details", "get_item_details", "get_user_details", "list_all_product_types",
                   "transfer_to_human_agents", "get_reservation_details", "list_all_airports",
                   "search_direct_flight", "search_onestop_flight", "get_flight_status"})


def perturbed(task, variant: str) -> list[Call]:
    calls = [Call(name=a.name, arguments=copy.deepcopy(a.arguments)) for a in task.actions]
    writes = [i for i, c in enumerate(calls) if c.name not in READS]
    kind, _, rest = variant.partition(":")
    if kind == "gold":
        return calls
    if kind == "nothing":
        return []
    if kind == "drop":
        return [c for i, c in enumerate(calls) if i != writes[int(rest)]]
    if kind == "twice":
        i = writes[int(rest)]
        return calls[:i + 1] + [calls[i]] + calls[i + 1:]
    if kind == "reverse":
        return [c for c in calls if c.name in READS] + [calls[i] for i in reversed(writes)]
    if kind == "set":  # set:WRITE:ARGUMENT:JSON
        index, argument, value = rest.split(":", 2)
        i = writes[int(index)]
        calls[i] = Call(name=calls[i].name, arguments={**calls[i].arguments, argument: json.loads(value)})
        return calls
    raise ValueError(variant)


# (domain, task, variant): τ²'s db_match.
TAU2_VERDICTS = {
    ("retail", "0", "gold"): True, ("retail", "0", "nothing"): False, ("retail", "0", "twice:0"): True,
    ("retail", "0", 'set:0:payment_method_id:"gift_card_1234567"'): False,
    ("retail", "0", 'set:0:new_item_ids:["7747408585", "7706410293"]'): False,
    ("retail", "0", 'set:0:item_ids:["4983901480", "1151293680"]'): False,
    ("retail", "5", "gold"): True, ("retail", "5", "nothing"): False, ("retail", "5", "drop:0"): False,
    ("retail", "5", "reverse"): True, ("retail", "5", "twice:0"): True,
    ("retail", "10", "gold"): True, ("retail", "10", "nothing"): True,
    ("retail", "20", "gold"): True, ("retail", "20", "drop:0"): False, ("retail", "20", "reverse"): True,
    ("retail", "64", "gold"): True, ("retail", "64", "drop:0"): True, ("retail", "64", "drop:1"): False,
    ("retail", "64", "nothing"): False,
    ("retail", "105", "gold"): True, ("retail", "105", "nothing"): True,
    ("airline", "7", "gold"): True, ("airline", "7", "nothing"): False, ("airline", "7", "twice:0"): True,
    ("airline", "0", "gold"): True, ("airline", "0", "nothing"): True,
    ("airline", "8", "gold"): True, ("airline", "8", "nothing"): False, ("airline", "8", "drop:0"): False,
    ("airline", "8", "reverse"): True,
    ("airline", "12", "gold"): True, ("airline", "12", "nothing"): False, ("airline", "12", "twice:0"): True,
    ("airline", "20", "gold"): True, ("airline", "20", "drop:0"): False,
    ("airline", "20", "set:0:nonfree_baggages:0"): True, ("airline", "20", 'set:0:cabin:"business"'): False,
    ("airline", "33", "gold"): True, ("airline", "33", "reverse"): True, ("airline", "33", "drop:1"): False,
}


APPS = {"retail": "shop", "airline": "desk"}


@pytest.mark.parametrize("domain_name", ["retail", "airline"])
def test_the_database_verdict_is_taus(domain_name, request):
    domain, app = request.getfixturevalue(domain_name), request.getfixturevalue(APPS[domain_name])
    cases = [(task_id, variant) for (d, task_id, variant) in TAU2_VERDICTS if d == domain_name]
    replayer = Replayer(domain, app)
    verdicts = {(task_id, variant): replayer.replay(
        RecordedRun(i, task_id, 0, tuple(perturbed(domain.task(task_id), variant)), ())).db_match
        for i, (task_id, variant) in enumerate(cases)}
    assert verdicts == {(t, v): TAU2_VERDICTS[domain_name, t, v] for t, v in cases}


# The first 16 hex digits of the hash τ²'s own code gives its gold environment, for tasks whose gold
# actions use every write tool (three tasks each), every retail change of two items or more (the price
# quirk), and the gold write that raises (64, 105). All 164 agree (docs/benchmarks.md).
TAU2_GOLD_HASHES = {
    "retail": {"0": "a109be174767fde0", "1": "eab1dde2ca84a093", "2": "9b66e83dbc00ef3e", "3": "efb8b638945f1929",
               "4": "f333ec4241d5094c", "5": "9f1e45fc84a6995e", "6": "2053905d31cc52d9", "11": "05695f333e6ae896",
               "16": "76488acd2c5a18ad", "17": "582f5d9c8242800c", "20": "d43fdfd87998ef6d", "21": "079ef03ab35d99a9",
               "22": "dc23fc9e78321e7b", "30": "e714c87d983579c1", "33": "5fe996d49aefd73c", "34": "bac92290376c0e4c",
               "36": "c263b7ca5913ee44", "37": "c263b7ca5913ee44", "40": "09f9be39b93d78b4", "64": "2e9d92ee0d0cdd9e",
               "100": "1af6e2cc79b3269e", "105": "b25c9cb211f5efca"},
    "airline": {"7": "0087f8266f0f2fc2", "8": "00766aa3e0341b49", "11": "1e46d540ec2e530b", "12": "df1e46c5aaf8af00",
                "14": "b4ea8effd45eee77", "15": "c9500f3100906613", "17": "37ea6df3bdb75dc6", "20": "a561da60bcd2e87f",
                "21": "9ede9d0dc4363e33", "22": "37ea6df3bdb75dc6", "40": "96b61d516184b98e"},
}


@pytest.mark.parametrize("domain_name", ["retail", "airline"])
def test_gold_databases_hash_as_taus(domain_name, request):
    from sim.tau2.gold import replay_gold

    domain, app = request.getfixturevalue(domain_name), request.getfixturevalue(APPS[domain_name])
    hashes = {task_id: replay_gold(app, domain.task(task_id).actions).state.tau2_hash()[:16]
              for task_id in TAU2_GOLD_HASHES[domain_name]}
    assert hashes == TAU2_GOLD_HASHES[domain_name]
