"""Recorded runs read from a file (sim/tau2/trajectories.py), and every run that cannot be replayed
as written refused, naming the run and the call or field."""

from __future__ import annotations

import json

import pytest

from sim.tau2 import DataError
from sim.tau2.trajectories import HISTORICAL, PLAIN, read_runs


def write(tmp_path, runs) -> str:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(runs))
    return str(path)


def historical(traj, **task) -> dict:
    return {"task_id": 3, "trial": 1, "reward": 1.0, "traj": traj,
            "info": {"task": {"actions": [], "outputs": [], **task}, "reward_info": {"reward": 1.0}}}


def call(name, arguments="{}") -> dict:
    return {"role": "assistant", "content": "Let me look.", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}]}


def test_a_historical_run_keeps_the_first_call_of_each_message_and_the_replies_as_said(tmp_path):
    traj = [{"role": "user", "content": "hi"}, call("get_user_details", '{"user_id": "u1"}'),
            {"role": "tool", "content": "{}"}, {"role": "assistant", "content": "Your total is 1,000."},
            {"role": "assistant", "content": None}]
    form, [run] = read_runs(write(tmp_path, [historical(traj, outputs=["1000"],
                                                        actions=[{"name": "think", "kwargs": {}}])]), "airline")
    assert form == HISTORICAL
    assert [(c.name, c.arguments) for c in run.calls] == [("get_user_details", {"user_id": "u1"})]
    assert run.messages == ("Your total is 1,000.", "")  # a tool call's text is not said
    assert (run.task_id, run.trial, run.recorded_reward, run.scored) == (3, 1, 1.0, True)
    assert run.outputs == ("1000",) and [g.name for g in run.gold] == ["think"]


def test_a_plain_run_numbers_its_trials_per_task(tmp_path):
    runs = [{"task_id": "4", "domain": "retail", "calls": [{"name": "get_order_details", "arguments": {"order_id": "#W1"}},
                                                           {"name": "calculate", "arguments": '{"expression": "1+1"}'}],
             "messages": ["ok"]},
            {"task_id": "4", "calls": []}, {"task_id": "5", "calls": [], "trial": 7}]
    form, read = read_runs(write(tmp_path, runs), "retail")
    assert form == PLAIN
    assert [(r.task_id, r.trial) for r in read] == [("4", 0), ("4", 1), ("5", 7)]
    assert read[0].gold is None and read[0].messages == ("ok",)
    assert read[0].calls[1].arguments == {"expression": "1+1"}  # JSON text, as a chat-completions call carries it


@pytest.mark.parametrize("runs, message", [
    ([historical([call("")])], r"runs.json: run #0 \(task 3, trial 1\): traj\[0\]: the tool call names no function"),
    ([historical([{"role": "assistant", "tool_calls": [{"id": "x"}]}])],
     r"run #0 \(task 3, trial 1\): traj\[0\]: the tool call names no function"),
    ([historical([call("book_reservation", "{not json")])],
     r"traj\[0\]: the call to book_reservation: its arguments are not JSON"),
    ([historical([call("get_user_details", "[1]")])], r"the call to get_user_details: its arguments are not an object"),
    ([historical([], actions=[{"kwargs": {}}])], r"info.task.actions\[0\]: the action names no function"),
    ([{"task_id": 3, "traj": []}], r"run #0 \(task 3, trial None\): info.task is missing"),
    ([{"task_id": "1", "calls": [{"name": "x"}, {"arguments": {}}]}], r"run #0 \(task 1\): calls\[1\] names no function"),
    ([{"task_id": "1", "calls": [{"name": "x", "arguments": [1]}]}], r"calls\[0\] \(x\): its arguments are not an object"),
    ([{"task_id": "1", "calls": [{"name": "x", "arguments": "{no"}]}], r"calls\[0\] \(x\): its arguments are not JSON"),
    ([{"task_id": "1", "domain": "airline", "calls": []}], r"its domain is 'airline', not 'retail' \(--domain\)"),
    ([{"task_id": "1", "calls": [], "messages": "hi"}], r"messages must be a list of the agent's texts"),
    ([{"task_id": None, "calls": []}], r"run #0: task_id must be the task's id"),
    ([{"task_id": "1", "calls": []}, historical([])],
     r"run #1 is a tau-bench historical trajectories run after a plain calls one; a file holds runs of one format"),
    ([{"task_id": "1", "calls": []}, {"task_id": "1"}], r"run #1 is neither a τ-bench trajectory"),
    ({"runs": []}, r"expected a list of runs"),
])
def test_a_run_that_cannot_be_replayed_is_refused_by_name(tmp_path, runs, message):
    with pytest.raises(DataError, match=message):
        read_runs(write(tmp_path, runs), "retail")


def test_a_file_that_is_not_there_or_not_json(tmp_path):
    with pytest.raises(DataError, match="nothing.json: cannot read it"):
        read_runs(tmp_path / "nothing.json", "retail")
    (tmp_path / "bad.json").write_text("[{")
    with pytest.raises(DataError, match="bad.json: not JSON"):
        read_runs(tmp_path / "bad.json", "retail")
