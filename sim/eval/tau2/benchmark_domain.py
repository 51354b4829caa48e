"""τ²'s retail and airline domains for ``droidsim eval tau2``, through sim.tau2 (their data, apps and gold).

The loaded domain (its tasks, policy and database) travels with the run to every worker, so a
worker on another machine needs no data folder; each worker opens the domain's app on its own
device, gives it a fresh database before every case, reads the agent's database back from the
app's storage, and replays each task's gold actions through the same app once, keeping the
database they leave.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sim.eval.apps import AppSource
from sim.eval.tau2.domain import Domain, DomainError


class BenchmarkDomain(Domain):
    def __init__(self, loaded: Any, policy: str, tasks: list[dict[str, Any]], splits: dict[str, list[str]]) -> None:
        self.loaded = loaded  # sim.tau2.data.Domain
        self.name = loaded.name
        self.data = loaded.data_dir
        self.policy = policy
        self.tasks = tasks
        self.splits = splits
        self._apps: dict[int, Any] = {}  # this process's: the app on each device
        self._gold: dict[str, Any] = {}  # task id -> GoldResult

    @classmethod
    def open(cls, name: str, data: Path, tasks_from: Path | None = None) -> "BenchmarkDomain":
        """τ²'s layout holds its tasks and policy; τ-bench v1's keeps them in code, and its
        historical-trajectories file (``tasks_from``) carries them: each run its task, and the
        policy its agent read as its first message."""
        from sim.tau2 import DataError, load_domain
        from sim.tau2.appkit import TAU_BENCH_V1

        try:
            loaded = load_domain(name, data)
        except DataError as error:
            raise DomainError(str(error)) from None
        if loaded.layout != TAU_BENCH_V1:
            if tasks_from is not None:
                raise DomainError(f"--tasks-from is for τ-bench v1's layout; {data} is τ²'s, which has its tasks")
            return cls(loaded, loaded.policy, [task.model_dump() for task in loaded.tasks()], loaded.splits)
        if tasks_from is None:
            raise DomainError(f"{data} is τ-bench v1's {name} layout, whose tasks and policy are code: give its "
                              "historical-trajectories file with --tasks-from (its runs carry their tasks)")
        policy, tasks = v1_tasks(Path(tasks_from))
        return cls(loaded, policy, tasks, {})

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_apps": {}, "_gold": {}}

    def app_sources(self) -> tuple[AppSource, ...]:
        return (AppSource(str(self.loaded.app_dir)),)

    def app(self, device: Any) -> Any:
        """The domain's app on an eval device (its in-process ``sim.device.Device``)."""
        from sim.tau2 import DomainApp

        app = self._apps.get(id(device))
        if app is None:
            app = self._apps[id(device)] = DomainApp(device.device, self.loaded)
        return app

    def prepare(self, device: Any) -> None:
        self.app(device).load()

    def outcome_states(self, device: Any, case: Any) -> tuple[dict, dict, dict, list[dict[str, Any]]]:
        from sim.tau2 import replay_gold
        from sim.tau2.tasks import Call

        app = self.app(device)
        run = app.state()  # first: the gold replay loads a fresh database into the same app
        gold = self._gold.get(case.id)
        if gold is None:
            actions = [Call(name=a.name, arguments=a.arguments) for a in case.criteria.actions]
            gold = self._gold[case.id] = replay_gold(app, actions)
        keys = sorted(set(run.changes) | set(gold.state.changes))
        start = self.loaded.snapshot.state()
        return _records(keys, start.record), _records(keys, gold.state.record), _records(keys, run.record), gold.errors

    def tool_call(self, name: str, arguments: dict[str, Any], tools: list[Any]) -> tuple[str, dict[str, Any]]:
        from sim.tau2.arguments import _adapt, _declared_name

        tool = next((t for t in tools if t.short_id == name), None)
        if tool is None:
            raise DomainError(f"the {self.name} app has no function {name!r}")
        types = {named.name: named.data_type for named in tool.components.data_types}
        declared = {parameter.name: parameter.data_type for parameter in tool.metadata.parameters}
        wire = {}
        for key, value in arguments.items():
            renamed = _declared_name(key, declared) or key
            wire[renamed] = _adapt(value, declared[renamed], types) if renamed in declared else value
        return tool.name, wire

    def tau2_call(self, tool: Any, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return tool.short_id, _snake(args)

    def writes(self, name: str) -> bool:
        function = next(iter(self._apps.values())).functions.get(name) if self._apps else None
        return bool(function is not None and function.is_destructive)


def v1_tasks(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """(the policy, the tasks as τ² writes them) from τ-bench's historical trajectories: per task id
    its user's instruction, gold actions and the strings to say (``outputs``), judged on the database
    and those strings as v1 judges them."""
    try:
        runs = json.loads(path.read_text(encoding="utf-8"))
        policy = runs[0]["traj"][0]["content"] if runs[0]["traj"][0]["role"] == "system" else None
        tasks: dict[str, dict[str, Any]] = {}
        for run in runs:
            task = run["info"]["task"]
            tasks.setdefault(str(run["task_id"]), {
                "id": str(run["task_id"]), "user_scenario": {"instructions": task["instruction"]},
                "evaluation_criteria": {
                    "actions": [{"name": a["name"], "arguments": a["kwargs"]} for a in task["actions"]],
                    "communicate_info": list(task.get("outputs") or []), "reward_basis": ["DB", "COMMUNICATE"]}})
    except OSError as error:
        raise DomainError(f"{path}: cannot read it: {error.strerror}") from None
    except (json.JSONDecodeError, LookupError, TypeError) as error:
        raise DomainError(f"{path}: not τ-bench's historical trajectories ({type(error).__name__}: {error})") from None
    if not policy:
        raise DomainError(f"{path}: its first run does not open with the policy its agent read (a system message)")
    return policy, sorted(tasks.values(), key=lambda t: int(t["id"]) if t["id"].isdigit() else t["id"])


def _snake(value: Any) -> Any:
    """An agent's arguments in τ²'s names: the wire's lowerCamelCase keys back in snake_case."""
    if isinstance(value, dict):
        return {_CAMEL.sub(lambda m: "_" + m.group(0).lower(), k): _snake(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snake(v) for v in value]
    return value


_CAMEL = re.compile(r"[A-Z]")


def _records(keys: list[tuple[str, str]], record: Any) -> dict[str, dict[str, Any]]:
    """{collection: {key: record}} of ``keys``, leaving out the records that are not there."""
    out: dict[str, dict[str, Any]] = {}
    for collection, key in keys:
        value = record(collection, key)
        if value is not None:
            out.setdefault(collection, {})[key] = value
    return out
