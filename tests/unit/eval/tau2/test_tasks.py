"""τ² tasks as cases (sim/eval/tau2/tasks.py): criteria, scenarios, and the scripts of deterministic reruns."""

from __future__ import annotations

import json

import pytest

from sim.eval.outcome import GoldAction
from sim.eval.tau2.tasks import (TaskScriptError, criteria_of, load_agent_steps, load_user_turns,
                                 scenario_text)

RAW = {"actions": [{"action_id": "0_0", "name": "cancel_pending_order",
                    "arguments": {"order_id": "#W1", "reason": "no longer needed"}, "compare_args": ["order_id"]}],
       "communicate_info": [10], "nl_assertions": ["Agent should refuse."], "reward_basis": ["DB", "NL_ASSERTION"]}


def test_criteria_keep_what_tau2_judges_by() -> None:
    criteria = criteria_of("7", RAW)
    assert criteria.actions == (GoldAction("cancel_pending_order", {"order_id": "#W1", "reason": "no longer needed"},
                                           ("order_id",)),)
    assert (criteria.communicate_info, criteria.nl_assertions, criteria.reward_basis) == (
        ("10",), ("Agent should refuse.",), ("DB", "NL_ASSERTION"))


def test_a_basis_droidsim_cannot_judge_names_the_task_and_field() -> None:
    with pytest.raises(TaskScriptError, match=r"^task 7: evaluation_criteria.reward_basis: ENV_ASSERTION is not"):
        criteria_of("7", {**RAW, "reward_basis": ["DB", "ENV_ASSERTION"]})


def test_the_scenario_reads_as_the_user_model_needs_it() -> None:
    text, reason = scenario_text({"persona": None, "instructions": {
        "domain": "airline", "reason_for_call": "You want to cancel EHGLP3.", "known_info": "You are Emma Kim.",
        "unknown_info": None, "task_instructions": "Do not accept a voucher."}})
    assert reason == "You want to cancel EHGLP3."
    assert text == ("Domain:\nairline\n\nWhy you are calling:\nYou want to cancel EHGLP3.\n\nWhat you know:\n"
                    "You are Emma Kim.\n\nHow to go about it:\nDo not accept a voucher.")
    assert scenario_text({"instructions": "Just ask for the time."}) == ("Just ask for the time.",) * 2


def test_user_turns_come_from_a_mapping_or_an_earlier_run(tmp_path) -> None:
    mapping = tmp_path / "turns.yaml"
    mapping.write_text("0: [Hi, cancel it]\n'3': [Hello]\n")
    assert load_user_turns(mapping, {"0", "3"}) == {"0": {-1: ("Hi", "cancel it")}, "3": {-1: ("Hello",)}}
    recorded = tmp_path / "results.jsonl"
    recorded.write_text("".join(json.dumps({"case_id": "0", "trial": t, "turns": [{"user": f"hi {t}"},
                                                                                 {"user": "###STOP###"}]}) + "\n"
                                for t in (0, 1)))
    assert load_user_turns(recorded, {"0"}) == {"0": {0: ("hi 0", "###STOP###"), 1: ("hi 1", "###STOP###")}}


@pytest.mark.parametrize("text, message", [
    ("9: [hi]\n", r"turns.yaml: task 9 is not among the domain's tasks"),
    ("0: hi\n", r"turns.yaml: task 0: the user's turns are a list of texts"),
    ("- a\n", r"turns.yaml: a scripted user is a mapping of task id to a list of turns"),
    ("0: [a\n", r"turns.yaml: not valid YAML"),
])
def test_a_bad_user_script_names_the_file_and_the_entry(tmp_path, text, message) -> None:
    path = tmp_path / "turns.yaml"
    path.write_text(text)
    with pytest.raises(TaskScriptError, match=message):
        load_user_turns(path, {"0"})


def test_agent_steps_are_messages_or_calls_in_tau2_names(tmp_path) -> None:
    path = tmp_path / "steps.yaml"
    path.write_text("0:\n  - [{name: get_order_details, arguments: {order_id: '#W1'}}]\n  - Done.\n")
    assert load_agent_steps(path, {"0"}) == {"0": ([{"name": "get_order_details",
                                                     "arguments": {"order_id": "#W1"}}], "Done.")}
    path.write_text("0:\n  - {name: get_order_details}\n")
    with pytest.raises(TaskScriptError, match=r"steps.yaml: task 0: step 1: a step is a message"):
        load_agent_steps(path, {"0"})
    with pytest.raises(TaskScriptError, match=r"nowhere.yaml: cannot read it"):
        load_agent_steps(tmp_path / "nowhere.yaml", {"0"})
