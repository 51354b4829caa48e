"""The τ² runner (sim/eval/tau2/) on a small domain double: the sample orders app as the domain, its
orders as the database. What the real retail and airline domains add (their data, their apps, gold
replay on their code) is tested in test_eval_tau2.py; here, the conversation, the limits, the records,
the summary and the report, on a device booted once."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path

import pytest

from droid.agent import AppFunctionAgentTools
from sim.eval.apps import AppSource
from sim.eval.tau2.domain import Domain
from sim.eval.tau2.run import Tau2Options, run_tau2
from tests.helpers import REPO

ORDERS = ("ORD-8492", "ORD-7310", "ORD-6025", "ORD-5117")
START = {"orders": {"ORD-8492": {"status": "SHIPPED"}, "ORD-7310": {"status": "PROCESSING"},
                    "ORD-6025": {"status": "DELIVERED"}, "ORD-5117": {"status": "CONFIRMED"}}}
TASKS = [
    {"id": "cancel", "user_scenario": {"instructions": {"reason_for_call": "Cancel order ORD-7310."}},
     "evaluation_criteria": {"actions": [{"name": "cancel_order", "arguments": {"orderId": "ORD-7310"}}],
                             "communicate_info": ["CANCELLED"], "reward_basis": ["DB", "COMMUNICATE"]}},
    {"id": "refuse", "user_scenario": {"instructions": {"reason_for_call": "Cancel order ORD-8492 (shipped)."}},
     "evaluation_criteria": {"actions": [], "nl_assertions": ["Agent should refuse."],
                             "reward_basis": ["DB", "NL_ASSERTION"]}},
    {"id": "look", "user_scenario": {"instructions": {"reason_for_call": "Where is ORD-6025?"}},
     "evaluation_criteria": {"actions": [{"name": "fetch_order_details", "arguments": {"orderId": "ORD-6025"}}],
                             "reward_basis": ["DB"]}},
]


class OrdersDomain(Domain):
    """The sample orders app as a τ² domain: its tool names and arguments are τ²'s."""

    name = "orders"
    data = REPO / "apps" / "orders"
    policy = "Cancel an order only when the user asks, and only one that has not shipped."
    tasks = TASKS
    splits = {"test": ["cancel", "look"]}

    def app_sources(self):
        return (AppSource(str(REPO / "apps" / "orders")),)

    def prepare(self, device):
        pass  # clearing the app (eval's reset) brings back its seeded orders

    def outcome_states(self, device, case):
        gold = copy.deepcopy(START)
        for action in case.criteria.actions:
            if action.name == "cancel_order" and gold["orders"][action.arguments["orderId"]]["status"] in (
                    "PROCESSING", "CONFIRMED"):
                gold["orders"][action.arguments["orderId"]]["status"] = "CANCELLED"
        [fetch] = [t for t in AppFunctionAgentTools.discover(device.shell) if t.name == "fetch_order_details"]

        async def read():
            return {"orders": {o: {"status": (await fetch.execute({"orderId": o}))["status"]} for o in ORDERS}}

        return START, gold, asyncio.run(read()), []

    def tool_call(self, name, arguments, tools):
        return name, arguments

    def tau2_call(self, tool, args):
        return tool.short_id, args

    def writes(self, name):
        return name == "cancel_order"


@pytest.fixture
def run(monkeypatch, tmp_path):
    monkeypatch.setattr("sim.eval.tau2.run.open_domain", lambda name, data, tasks_from=None: OrdersDomain())

    def go(agent: dict, users: dict | None = None, **options):
        steps = tmp_path / "agent.json"
        steps.write_text(json.dumps(agent))
        user = "scripted"
        if users is not None:
            (tmp_path / "users.json").write_text(json.dumps(users))
            user = f"scripted:{tmp_path / 'users.json'}"
        out = tmp_path / "out"
        summary = run_tau2(Tau2Options("orders", Path("unused"), model=f"scripted:{steps}", user_model=user,
                                       out=out, **options))
        lines = (out / "results.jsonl").read_text().splitlines()
        records = {(r["case_id"], r["trial"]): r for r in map(json.loads, lines)}
        return summary, records, out

    return go


def test_right_wrong_and_unjudged_trials_on_one_device(run) -> None:
    cancel = [{"name": "cancel_order", "arguments": {"orderId": "ORD-7310"}}]
    wrong = [{"name": "cancel_order", "arguments": {"orderId": "ORD-5117"}}]
    summary, records, out = run({
        "cancel": [cancel, "ORD-7310 is CANCELLED now.", "You're welcome."],
        "refuse": ["I'm sorry, ORD-8492 has shipped, so it can't be cancelled."],
        "look": [wrong, "Cancelled it."],
    }, users={"cancel": ["Cancel ORD-7310, please.", "Thanks."], "refuse": ["Cancel ORD-8492."],
              "look": ["Where is ORD-6025?"]})
    cancelled = records[("cancel", 0)]
    assert (cancelled["reward"], cancelled["passed"], cancelled["outcome"]["ending"]) == (1.0, True, "user_stop")
    assert [t["user"] for t in cancelled["turns"]] == ["Cancel ORD-7310, please.", "Thanks.", "###STOP###"]
    [call] = cancelled["turns"][0]["calls"]
    assert call["tau2"] == {"name": "cancel_order", "arguments": {"orderId": "ORD-7310"}} and not call["failed"]
    assert cancelled["outcome"]["path"]["gold"][0]["matched"] is True

    looked = records[("look", 0)]
    assert (looked["reward"], looked["passed"]) == (0.0, False)
    assert looked["outcome"]["path"]["extra_writes"] == [{"name": "cancel_order", "arguments": {"orderId": "ORD-5117"}}]
    assert ("database: orders ORD-5117 was changed by the run, and the gold actions leave it alone "
            '(status: "CONFIRMED" -> "CANCELLED")') in looked["failures"]
    assert "gold action not called" not in " ".join(looked["failures"])  # ACTION is not in its basis
    assert looked["confusion"] == [["fetch_order_details", "(no call)"]]

    unjudged = records[("refuse", 0)]
    assert (unjudged["reward"], unjudged["passed"], unjudged["outcome"]["verdict"]) == (None, False, "not judged")
    assert unjudged["outcome"]["do_nothing_passes"] is True

    tau2 = summary["tau2"]
    assert tau2["not_judged"] == ["refuse"] and tau2["do_nothing_tasks"] == ["look", "refuse"]
    assert tau2["tau2"]["pass^k"] == {"1": 0.5} and tau2["droidsim"]["pass^k"] == {"1": 0.5}
    overall = summary["configs"]["orders"]["scores"]["overall"]
    assert (overall["cases"], overall["passed"]) == (2, 1)  # the unjudged trial is no failure and no pass
    page = (out / "report.html").read_text()
    assert "orders ORD-5117 was changed by the run" in page and "<h2>τ² tasks</h2>" in page


def test_a_claimed_change_on_a_do_nothing_task_fails_on_its_words(run) -> None:
    summary, records, _ = run({"refuse": ["Done: I have cancelled order ORD-8492 for you."]},
                              tasks=["refuse"], judge_model=None)
    record = records[("refuse", 0)]
    assert record["outcome"]["false_claims"] and record["passed"] is False
    assert record["failures"][-1].startswith("a change claimed where none happened:")
    # eval's two verdicts: the task (the outcome) was not judged, the words failed
    assert (record["task"]["passed"], record["words"]["verdict"], record["verdict"]) == (None, "fail", "fail")
    assert record["words"]["failures"] == record["failures"][-2:]  # "Done", "I have cancelled order ORD-8492..."
    assert summary["tau2"]["words_failed"] == ["refuse"]


def test_a_user_model_nobody_serves_stops_the_run_naming_it(monkeypatch, tmp_path) -> None:
    import socket

    from sim.eval.runner import ModelUnavailable

    monkeypatch.setattr("sim.eval.tau2.run.open_domain", lambda name, data, tasks_from=None: OrdersDomain())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelUnavailable, match=r"the user model openai:customer: cannot reach http://127\.0\.0\.1"):
        run_tau2(Tau2Options("orders", Path("unused"), tasks=["look"], user_model="openai:customer",
                             user_base_url=f"http://127.0.0.1:{port}/v1", api_key="test-key", out=tmp_path / "out"))
    assert (tmp_path / "out" / "results.jsonl").read_text() == ""  # nothing half-judged was written


def test_the_step_and_error_limits_cut_a_conversation_off_with_nothing_earned(run) -> None:
    look = [{"name": "fetch_order_details", "arguments": {"orderId": "ORD-6025"}}]
    missing = [{"name": "fetch_order_details", "arguments": {"orderId": "ORD-0000"}}]
    _, records, _ = run({"look": [look] * 10 + ["It was delivered."], "cancel": [missing] * 3 + ["Sorry."]},
                        tasks=["look", "cancel"], max_steps=6, max_errors=2)
    looked, failed = records[("look", 0)], records[("cancel", 0)]
    assert (looked["reward"], looked["outcome"]["ending"]) == (0.0, "max_steps")
    assert looked["failures"][0] == "the conversation ended on max steps, not by the user or the agent"
    assert (failed["reward"], failed["outcome"]["ending"]) == (0.0, "too_many_errors")
    assert failed["outcome"]["path"]["failed_calls"] == 2


def test_resume_keeps_the_finished_trials_and_refuses_another_customer(run, tmp_path) -> None:
    from sim.eval.results import ResumeError

    agent = {"look": ["It was delivered."], "cancel": ["I can't do that."]}
    run(agent, tasks=["look"])
    summary, records, _ = run(agent, resume=True)  # the finished trial is kept, the new task runs
    assert sorted(records) == [("cancel", 0), ("look", 0), ("refuse", 0)]
    with pytest.raises(ResumeError, match="holds a run with another user_model"):
        run(agent, users={"look": ["hi"]}, resume=True)
