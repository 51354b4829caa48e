"""Recorded runs, read from a file: τ-bench's historical trajectories, or a plain list of calls.

Two formats, told apart by their keys:

- τ-bench's ``historical_trajectories/*.json``: a list of runs ``{"task_id", "trial", "reward",
  "info": {"task": {"actions", "outputs", ...}, ...}, "traj": [messages]}``. Each assistant
  message either calls a tool (τ-bench's agent ran only its first call, and the file keeps only
  that one) or speaks to the user; a tool call's text is not spoken. The run carries its task:
  the gold actions and the strings the agent had to say (``outputs``).
- A plain list for τ² tasks: ``{"task_id", "domain", "calls": [{"name", "arguments"}],
  "messages": [the agent's texts]}``, optionally with ``"trial"`` (else the run's number among
  the file's runs of its task). The task, its gold actions and what must be said come from the
  domain's tasks.json.

A run that cannot be replayed as written is a ``DataError`` naming it (its place in the file,
task and trial) and the call or field at fault.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.tau2.tasks import Call, DataError

HISTORICAL = "tau-bench historical trajectories"
PLAIN = "plain calls"


@dataclass(frozen=True)
class RecordedRun:
    """One run to replay. ``gold``/``outputs`` are the run's own task (τ-bench's format); None
    means: take the domain's task ``task_id``."""

    index: int
    task_id: Any
    trial: int
    calls: tuple[Call, ...]
    messages: tuple[str, ...]
    gold: tuple[Call, ...] | None = None
    outputs: tuple[str, ...] | None = None
    recorded_reward: float | None = None
    # τ-bench scored the run when it ended (the user stopped, or a transfer); a run its agent's
    # step limit cut short was never scored, and its recorded reward is 0 whatever it did.
    scored: bool = True

    @property
    def name(self) -> str:
        return f"run #{self.index} (task {self.task_id}, trial {self.trial})"


def read_runs(path: Path | str, domain: str) -> tuple[str, list[RecordedRun]]:
    """The file's format and its runs."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"{path}: cannot read it: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise DataError(f"{path}: not JSON: {error}") from None
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{path}: expected a list of runs (τ-bench's historical trajectories, or "
                        f'{{"task_id", "domain", "calls", "messages"}} objects)')
    kinds = [_kind(entry) for entry in raw]
    odd = next((i for i, kind in enumerate(kinds) if kind is None or kind != kinds[0]), None)
    if odd is not None:
        what = "neither a τ-bench trajectory (with \"traj\") nor a plain run (with \"calls\")" if kinds[odd] is None \
            else f"a {kinds[odd]} run after a {kinds[0]} one"
        raise DataError(f"{path}: run #{odd} is {what}; a file holds runs of one format")
    if kinds[0] == HISTORICAL:
        return HISTORICAL, [_historical(entry, index, path) for index, entry in enumerate(raw)]
    trials: Counter = Counter()
    return PLAIN, [_plain(entry, index, path, domain, trials) for index, entry in enumerate(raw)]


def _kind(entry: Any) -> str | None:
    if isinstance(entry, dict) and "traj" in entry:
        return HISTORICAL
    return PLAIN if isinstance(entry, dict) and "calls" in entry else None


def _historical(entry: dict[str, Any], index: int, path: Path) -> RecordedRun:
    where = f"{path}: run #{index} (task {entry.get('task_id')}, trial {entry.get('trial')})"
    task = (entry.get("info") or {}).get("task") if isinstance(entry.get("info"), dict) else None
    if not isinstance(task, dict):
        raise DataError(f"{where}: info.task is missing (τ-bench keeps each run's task there)")
    if not isinstance(entry.get("traj"), list):
        raise DataError(f"{where}: traj must be a list of messages")
    calls, messages = [], []
    for number, message in enumerate(entry["traj"]):
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        if message.get("tool_calls"):
            calls.append(_tool_call(message["tool_calls"][0], f"{where}: traj[{number}]"))
        else:
            messages.append(message.get("content") or "")
    gold = [_gold_action(action, f"{where}: info.task.actions[{i}]") for i, action in enumerate(task.get("actions", []))]
    outputs = task.get("outputs", [])
    if not isinstance(outputs, list) or not all(isinstance(o, str) for o in outputs):
        raise DataError(f"{where}: info.task.outputs must be a list of strings")
    info = entry.get("info") or {}
    return RecordedRun(index, entry.get("task_id"), _trial(entry, where, default=0), tuple(calls), tuple(messages),
                       tuple(gold), tuple(outputs), _reward(entry.get("reward"), where),
                       scored=info.get("reward_info") is not None)


def _tool_call(call: Any, where: str) -> Call:
    function = call.get("function") if isinstance(call, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str) or not name:
        raise DataError(f"{where}: the tool call names no function")
    return Call(name=name, arguments=_arguments(function.get("arguments", "{}"), f"{where}: the call to {name}"))


def _arguments(arguments: Any, where: str) -> dict[str, Any]:
    """A call's arguments: an object, or its JSON text (as a chat-completions tool call carries them)."""
    try:
        values = json.loads(arguments) if isinstance(arguments, str) else arguments
    except json.JSONDecodeError as error:
        raise DataError(f"{where}: its arguments are not JSON: {error}") from None
    if not isinstance(values, dict):
        raise DataError(f"{where}: its arguments are not an object")
    return values


def _gold_action(action: Any, where: str) -> Call:
    if not isinstance(action, dict) or not isinstance(action.get("name"), str) or not action["name"]:
        raise DataError(f"{where}: the action names no function")
    kwargs = action.get("kwargs", {})
    if not isinstance(kwargs, dict):
        raise DataError(f"{where}: kwargs must be an object")
    return Call(name=action["name"], arguments=kwargs)


def _plain(entry: dict[str, Any], index: int, path: Path, domain: str, trials: Counter) -> RecordedRun:
    task_id = entry.get("task_id")
    where = f"{path}: run #{index} (task {task_id})"
    if not isinstance(task_id, (str, int)) or isinstance(task_id, bool):
        raise DataError(f"{path}: run #{index}: task_id must be the task's id")
    if entry.get("domain") not in (None, domain):
        raise DataError(f"{where}: its domain is {entry['domain']!r}, not {domain!r} (--domain)")
    if not isinstance(entry["calls"], list):
        raise DataError(f"{where}: calls must be a list")
    calls = []
    for number, call in enumerate(entry["calls"]):
        name = call.get("name") if isinstance(call, dict) else None
        if not isinstance(name, str) or not name:
            raise DataError(f"{where}: calls[{number}] names no function")
        calls.append(Call(name=name, arguments=_arguments(call.get("arguments", {}), f"{where}: calls[{number}] ({name})")))
    messages = entry.get("messages", [])
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise DataError(f"{where}: messages must be a list of the agent's texts")
    trial = _trial(entry, where, default=trials[str(task_id)])
    trials[str(task_id)] += 1
    return RecordedRun(index, task_id, trial, tuple(calls), tuple(messages))


def _trial(entry: dict[str, Any], where: str, default: int) -> int:
    trial = entry.get("trial", default)
    if not isinstance(trial, int) or isinstance(trial, bool):
        raise DataError(f"{where}: trial must be a whole number")
    return trial


def _reward(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise DataError(f"{where}: reward must be a number")
    return float(value)
