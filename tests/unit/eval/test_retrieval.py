"""Retrieval: descriptions measured without a model (sim/eval/retrieval.py).

The done-when of issue 35: on an app the project never tuned on (tests/unit/eval/apps/todo,
written for this test, with its own suite), with 200 distractor apps installed, BM25 over the
functions' names and descriptions keeps at least 70 % of the expected functions in the top 3,
and gutting the app's descriptions costs at least 10 points of that.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from sim.eval import retrieval
from sim.eval.catalog import Catalog
from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import Case, load_suite

from .conftest import RUN_DATE
from .gutting import gut

TODO_SUITE = Path(__file__).with_name("todo-suite.yaml")
TODO_APP = Path(__file__).with_name("apps") / "todo"


def tool(name: str, description: str, **parameters: str):
    return SimpleNamespace(name=name, function_id=f"com.example.x#{name}", description=description,
                           parameters={"properties": {k: {"type": "string", "description": v}
                                                      for k, v in parameters.items()}})


TOOLS = [
    tool("refill_prescription", "Refills a prescription at the pharmacy."),
    tool("track_parcel", "Tracks a parcel.", trackingId="The parcel's tracking number."),
    tool("fetch_order_details", "Fetches an order's status and delivery date.", orderId="The order's ID."),
    tool("cancel_order", "Cancels an order that has not shipped."),
    tool("get_recipe", "Runs this function."),
]
CATALOG = Catalog([SimpleNamespace(function_id=t.function_id, short_id=t.name, package_name="com.example.x",
                                   parameters=t.parameters) for t in TOOLS])


def case(*turns: dict) -> Case:
    return Case.model_validate({"id": "c", "category": "multi-turn", "turns": list(turns)})


def test_each_expected_function_is_ranked_once_among_all_by_the_conversation_so_far():
    ranks = retrieval.rank_expected(case(
        {"user": "Where is my order?", "calls": [{"function": "fetch_order_details", "args": {}}]},
        {"user": "Then cancel it", "calls": [{"function": "cancel_order", "args": {}},
                                            {"function": "fetch_order_details", "args": {}}]},
    ), TOOLS, CATALOG)
    assert ranks == [
        {"function": "fetch_order_details", "turn": 0, "rank": 1, "of": 5, "matched": True},
        # "cancel it" alone names no order; with the turn before, cancel_order ranks first
        {"function": "cancel_order", "turn": 1, "rank": 1, "of": 5, "matched": True},
    ]


def test_a_description_that_shares_no_word_with_the_request_ranks_last_and_scores_no_reciprocal_rank():
    ranks = retrieval.rank_expected(case({"user": "How do I make a lasagne?",
                                          "calls": [{"function": "get_recipe", "args": {}}]}), TOOLS, CATALOG)
    assert ranks == [{"function": "get_recipe", "turn": 0, "rank": 5, "of": 5, "matched": False}]
    scores = retrieval.summarize([{"case_id": "c", "retrieval": ranks}])
    assert (scores["recall_at_3"], scores["mrr"], scores["catalog"]) == (0.0, 0.0, 5)


def test_ties_rank_last_among_equals_and_each_case_counts_once_whatever_its_trials():
    twins = [tool("get_north", "Gets the weather."), tool("get_south", "Gets the weather.")]
    catalog = Catalog([SimpleNamespace(function_id=t.function_id, short_id=t.name, package_name="com.example.x",
                                       parameters=t.parameters) for t in twins])
    (row,) = retrieval.rank_expected(case({"user": "the weather", "calls": [{"function": "get_north", "args": {}}]}),
                                     twins, catalog)
    assert row["rank"] == 2
    records = [{"case_id": "c", "trial": t, "retrieval": [row]} for t in range(3)]
    assert retrieval.summarize(records) == {"expected": 1, "recall_at_1": 0.0, "recall_at_3": 1.0, "mrr": 0.5,
                                            "catalog": 2, "functions": {"get_north": {"expected": 1, "recall_at_1": 0.0,
                                                                                  "recall_at_3": 1.0, "mrr": 0.5}}}


# 60 distractor apps (187 functions) rank the to-do app's functions as 200 do (docs/eval.md) in a
# fraction of the time: the figures, 92.3 % and 0 % in the top 3, are the same at both sizes.
DISTRACTORS = 60


def test_an_unseen_app_among_60_distractors_is_found_by_its_descriptions_and_lost_without_them(tmp_path):
    variant = gut(TODO_APP, tmp_path / "todo-gutted")
    summary = run_eval(load_suite(TODO_SUITE), EvalOptions(model="scripted", out=tmp_path / "o", run_date=RUN_DATE,
                                                           distractors=[DISTRACTORS], variant=variant))
    base, gutted = (summary["configs"][f"{config}+{DISTRACTORS}"]["retrieval"]
                    for config in ("base", "variant"))
    print("retrieval with descriptions", {k: v for k, v in base.items() if k != "functions"})
    print("retrieval gutted", {k: v for k, v in gutted.items() if k != "functions"})
    assert base["expected"] == gutted["expected"] == 13 and base["catalog"] == gutted["catalog"] > 3 * DISTRACTORS
    assert base["recall_at_3"] >= 0.70, base
    assert base["recall_at_3"] - gutted["recall_at_3"] >= 0.10, (base, gutted)
    delta = summary["variant"]["retrieval_delta"]
    assert delta["recall_at_3"] == round(gutted["recall_at_3"] - base["recall_at_3"], 4)
    assert set(delta["functions"]) == set(base["functions"]) >= {"add_task", "complete_task", "set_priority"}
    # Every case's record says where each expected function ranked; the report and the table show it.
    record = json.loads((tmp_path / "o" / "results.jsonl").read_text().splitlines()[0])
    assert {"function", "turn", "rank", "of", "matched"} == set(record["retrieval"][0])
    page = (tmp_path / "o" / "report.html").read_text()
    assert "retrieval: in the top 3" in page and "retrieval top 3 " in page
