"""τ² tasks as eval cases: what a worker needs to hold one conversation and judge it.

A ``Tau2Case`` is plain data (it travels to worker processes and Ray tasks): the task's id,
its domain as the case's category, the scenario the user model plays, the criteria the outcome
is judged by (sim/eval/outcome.py), and, for deterministic reruns, the user's turns and the
agent's steps when they come from a script rather than a model.

A scripted user's turns come from a file (``--user-model scripted:FILE``): a mapping of task id
to its list of turns (YAML or JSON), or the ``results.jsonl`` of an earlier ``droidsim eval
tau2`` run, whose recorded user turns are said again, trial for trial. Without a file, the
scripted user says the scenario's reason for calling and stops: a smoke test, not a customer.
A scripted agent (``--model scripted:FILE``) takes its steps from a mapping of task id to a list
of steps, each a message to the user or a list of calls in τ²'s names
(``[{name: cancel_pending_order, arguments: {...}}]``); ``--model scripted`` alone makes the
task's gold calls and then tells what the task says must be told.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sim.eval.outcome import BASES, Criteria, GoldAction


class TaskScriptError(ValueError):
    """A script file (a user's turns, an agent's steps) that cannot be used; names the file and entry."""


@dataclass(frozen=True)
class Tau2Case:
    id: str
    category: str  # the domain: eval's records and tables group by it
    scenario: str  # what the user model plays
    reason: str  # the scenario's reason for calling: the plain scripted user's one turn
    criteria: Criteria
    user_turns: dict[int, tuple[str, ...]] = field(default_factory=dict)  # trial (-1: every trial) -> turns
    agent_steps: tuple[Any, ...] | None = None  # a scripted agent's steps, in τ²'s names

    def turns_for(self, trial: int) -> tuple[str, ...] | None:
        return self.user_turns.get(trial, self.user_turns.get(-1))


def criteria_of(task_id: str, raw: dict[str, Any]) -> Criteria:
    """The outcome criteria of a task's ``evaluation_criteria``; a basis droidsim cannot judge is refused."""
    basis = tuple(raw.get("reward_basis") or ("DB",))
    unknown = [b for b in basis if b not in BASES]
    if unknown:
        raise TaskScriptError(f"task {task_id}: evaluation_criteria.reward_basis: {', '.join(unknown)} is not "
                              f"judged by droidsim (it judges {', '.join(BASES)})")
    actions = tuple(GoldAction(a["name"], dict(a.get("arguments") or {}),
                               tuple(a["compare_args"]) if a.get("compare_args") is not None else None)
                    for a in raw.get("actions") or [])
    return Criteria(actions, tuple(str(i) for i in raw.get("communicate_info") or ()),
                    tuple(raw.get("nl_assertions") or ()), basis)


def scenario_text(scenario: dict[str, Any]) -> tuple[str, str]:
    """(the scenario as the user model reads it, its reason for calling)."""
    lines = []
    if scenario.get("persona"):
        lines += ["Who you are:", str(scenario["persona"]).strip(), ""]
    instructions = scenario.get("instructions")
    if not isinstance(instructions, dict):
        text = str(instructions or "").strip()
        return "\n".join(lines + [text]).strip(), text
    for key, title in (("domain", "Domain"), ("reason_for_call", "Why you are calling"),
                       ("known_info", "What you know"), ("unknown_info", "What you do not know"),
                       ("task_instructions", "How to go about it")):
        if instructions.get(key):
            lines += [f"{title}:", str(instructions[key]).strip(), ""]
    return "\n".join(lines).strip(), str(instructions.get("reason_for_call") or "").strip()


def load_user_turns(path: Path, task_ids: set[str]) -> dict[str, dict[int, tuple[str, ...]]]:
    """Per task, per trial (-1: every trial), the turns a scripted user says."""
    if path.suffix == ".jsonl":
        return _recorded_turns(path)
    data = _read(path)
    if not isinstance(data, dict):
        raise TaskScriptError(f"{path}: a scripted user is a mapping of task id to a list of turns, or the "
                              "results.jsonl of an earlier run")
    out = {}
    for task_id, turns in data.items():
        _known(path, str(task_id), task_ids)
        if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
            raise TaskScriptError(f"{path}: task {task_id}: the user's turns are a list of texts")
        out[str(task_id)] = {-1: tuple(turns)}
    return out


def load_agent_steps(path: Path, task_ids: set[str]) -> dict[str, tuple[Any, ...]]:
    """Per task, a scripted agent's steps: texts, or lists of calls ``{name, arguments}`` in τ²'s names."""
    data = _read(path)
    if not isinstance(data, dict):
        raise TaskScriptError(f"{path}: a scripted agent is a mapping of task id to a list of steps")
    out = {}
    for task_id, steps in data.items():
        _known(path, str(task_id), task_ids)
        if not isinstance(steps, list):
            raise TaskScriptError(f"{path}: task {task_id}: the steps are a list")
        for index, step in enumerate(steps):
            if isinstance(step, str):
                continue
            calls = step if isinstance(step, list) else None
            if not calls or not all(isinstance(c, dict) and isinstance(c.get("name"), str)
                                    and isinstance(c.get("arguments", {}), dict) for c in calls):
                raise TaskScriptError(f"{path}: task {task_id}: step {index + 1}: a step is a message (text) or a "
                                      "list of calls, each {name: TOOL, arguments: {...}}")
        out[str(task_id)] = tuple(steps)
    return out


def _recorded_turns(path: Path) -> dict[str, dict[int, tuple[str, ...]]]:
    out: dict[str, dict[int, tuple[str, ...]]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            turns = tuple(turn["user"] for turn in record["turns"] if "user" in turn)
            out.setdefault(str(record["case_id"]), {})[int(record["trial"])] = turns
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise TaskScriptError(f"{path}:{number}: not a record of droidsim eval tau2 ({error})") from None
    return out


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TaskScriptError(f"{path}: cannot read it: {error.strerror}") from None
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        raise TaskScriptError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {error}") from None


def _known(path: Path, task_id: str, task_ids: set[str]) -> None:
    if task_id not in task_ids:
        raise TaskScriptError(f"{path}: task {task_id} is not among the domain's tasks")
