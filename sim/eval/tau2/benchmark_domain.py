"""τ²'s retail and airline domains for ``droidsim eval tau2``, through sim.tau2 (their data, apps and gold).

The loaded domain (its tasks, policy and database) travels with the run to every worker, so a
worker on another machine needs no data folder; each worker opens the domain's app on its own
device, gives it a fresh database before every case, reads the agent's database back from the
app's storage, and replays each task's gold actions through the same app once, keeping the
database they leave.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sim.eval.apps import AppSource
from sim.eval.tau2.domain import Domain, DomainError


class BenchmarkDomain(Domain):
    def __init__(self, loaded: Any) -> None:
        self.loaded = loaded  # sim.tau2.data.Domain
        self.name = loaded.name
        self.data = loaded.data_dir
        self.policy = loaded.policy
        self.tasks = [task.model_dump() for task in loaded.tasks()]
        self.splits = loaded.splits
        self._apps: dict[int, Any] = {}  # this process's: the app on each device
        self._gold: dict[str, Any] = {}  # task id -> GoldResult

    @classmethod
    def open(cls, name: str, data: Path) -> "BenchmarkDomain":
        from sim.tau2 import DataError, load_domain

        try:
            return cls(load_domain(name, data))
        except DataError as error:
            raise DomainError(str(error)) from None

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
