"""A τ² domain as ``droidsim eval tau2`` uses it: its data, its app, its state, its names.

``Domain`` is what the runner needs of a domain, whoever provides it: the policy and the
tasks; the app(s) a device installs; the database a case starts from, the one the gold actions
leave (computed by replaying them on a fresh copy) and the one the app holds now (read from its
storage, never through a function the agent could see); and the translation between the
agent's calls (AppFunction tool names and arguments) and τ²'s (tool names and arguments, the
terms gold actions and scripts are written in). It is plain data (a name and a folder), so it
travels to worker processes and Ray tasks; what it computes is kept per process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class DomainError(ValueError):
    """An unknown domain or a data folder that cannot be used: says which file, task and field."""


class Domain:
    name: str
    data: Path
    policy: str
    tasks: list[dict[str, Any]]  # τ²'s task objects: id, user_scenario, evaluation_criteria
    splits: dict[str, list[str]]  # split name -> task ids
    transfer_tool = "transfer_to_human_agents"  # τ²'s name: hands the user to a human

    def app_sources(self) -> tuple[Any, ...]:
        """The apps a device installs for this domain (sim/eval/apps.py AppSource)."""
        raise NotImplementedError

    def prepare(self, device: Any) -> None:
        """Give the app on ``device`` (just reset: its data cleared) the database a case starts from."""
        raise NotImplementedError

    def outcome_states(self, device: Any, case: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any],
                                                              list[dict[str, Any]]]:
        """After a conversation: the databases it is judged on, as plain JSON ({collection: {key:
        record}}), the one it started from, the one the case's gold actions leave (replayed on a fresh
        copy) and the one the app holds now (read from its storage); each may hold only the records
        either of the last two changed. Then the gold actions that raised ({function, code, message})."""
        raise NotImplementedError

    def tool_call(self, name: str, arguments: dict[str, Any], tools: list[Any]) -> tuple[str, dict[str, Any]]:
        """A call in τ²'s terms as the agent's: the tool's name among ``tools`` and its arguments."""
        raise NotImplementedError

    def tau2_call(self, tool: Any, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """An agent's call of ``tool`` in τ²'s terms."""
        raise NotImplementedError

    def writes(self, name: str) -> bool:
        """Whether τ²'s tool ``name`` changes the database."""
        raise NotImplementedError


KNOWN = ("retail", "airline")


def open_domain(name: str, data: Path, tasks_from: Path | None = None) -> Domain:
    """The domain ``name`` with its files in ``data`` (and, for τ-bench v1's layout, its tasks in the
    historical-trajectories file ``tasks_from``); DomainError names what is wrong with them."""
    if name not in KNOWN:
        raise DomainError(f"unknown domain {name!r}: droidsim runs τ²'s {' and '.join(KNOWN)}")
    from sim.eval.tau2.benchmark_domain import BenchmarkDomain

    return BenchmarkDomain.open(name, Path(data), tasks_from)
