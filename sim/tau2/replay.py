"""Recorded runs replayed through the domain's app, and scored as their benchmark scores them.

Each run starts from a fresh database (the app reset), its calls run in order (a call that
raises leaves the database as the benchmark's tool leaves it, and the run goes on, as the
benchmark's did), and the end state is compared with the task's expected database: its gold
actions replayed on a fresh copy (sim/tau2/gold.py), once per task. The reward is the
benchmark's: the database check (``DB``) times whether every required string was said
(``COMMUNICATE``: τ²'s ``communicate_info``, τ-bench v1's ``outputs``), as the task's reward
basis names them. Natural-language assertions need a judge; a replay does not judge them and
says so in ``not_judged`` (the reward is then that of what was judged).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Protocol

from sim.tau2.data import Domain
from sim.tau2.device import CallOutcome
from sim.tau2.gold import GoldResult, replay_gold
from sim.tau2.state import DbState
from sim.tau2.tasks import Call, DataError
from sim.tau2.trajectories import RecordedRun
from sim.tau2.verdict import communicated

# τ-bench v1's `think` tool, which τ² dropped: it changes nothing and answers nothing, so a
# recorded call to it is no call at all here (not an error).
NO_OP_TOOLS = frozenset({"think"})
JUDGED = ("DB", "COMMUNICATE", "ENV_ASSERTION")  # ENV_ASSERTION: none in retail/airline, so 1 as in τ²


class App(Protocol):
    def load(self) -> None: ...
    def call(self, name: str, arguments: Any) -> CallOutcome: ...
    def state(self) -> DbState: ...


@dataclass
class ReplayResult:
    run: RecordedRun
    reward: int
    db_match: bool
    communicated: bool | None
    errors: list[dict[str, Any]] = field(default_factory=list)
    not_judged: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool | None:
        """Whether the recorded reward is this one (None: the file records none)."""
        return None if self.run.recorded_reward is None else self.run.recorded_reward == self.reward

    def to_json(self) -> dict[str, Any]:
        return {"task_id": self.run.task_id, "trial": self.run.trial, "reward": self.reward,
                "db_match": self.db_match, "communicated": self.communicated, "errors": self.errors,
                "not_judged": self.not_judged, "recorded_reward": _whole(self.run.recorded_reward)}


@dataclass(frozen=True)
class _Criteria:
    gold: tuple[Call, ...]
    must_say: tuple[str, ...]
    basis: tuple[str, ...]
    compare_db: bool  # τ² skips the comparison (and passes it) for a task with no expected actions at all


class Replayer:
    """Replays runs of one domain on one app (a ``DomainApp``, or a ``DirectApp``)."""

    def __init__(self, domain: Domain, app: App) -> None:
        self.domain = domain
        self.app = app
        self._gold: dict[str, GoldResult] = {}

    def replay(self, run: RecordedRun) -> ReplayResult:
        criteria = self._criteria(run)
        gold = self.expected(criteria.gold) if criteria.compare_db else None
        self.app.load()
        errors = []
        for index, call in enumerate(run.calls):
            if call.name in NO_OP_TOOLS:
                continue
            outcome = self.app.call(call.name, call.arguments)
            if not outcome.ok:
                errors.append({"call": index, **outcome.error_json()})
        db_match = self.app.state().matches(gold.state) if gold is not None else True
        said = communicated(criteria.must_say, run.messages)
        reward = 1
        if "DB" in criteria.basis and not db_match:
            reward = 0
        if "COMMUNICATE" in criteria.basis and said is False:
            reward = 0
        not_judged = [b for b in criteria.basis if b not in JUDGED]
        return ReplayResult(run, reward, db_match, said, errors, not_judged)

    def expected(self, gold: tuple[Call, ...]) -> GoldResult:
        """The database ``gold`` leaves (computed once per list of gold actions)."""
        key = json.dumps([[c.name, c.arguments] for c in gold], sort_keys=True)
        if key not in self._gold:
            self._gold[key] = replay_gold(self.app, gold)
        return self._gold[key]

    def _criteria(self, run: RecordedRun) -> _Criteria:
        if run.gold is not None:  # τ-bench's file: the run's own task, scored as τ-bench scores
            return _Criteria(run.gold, run.outputs or (), ("DB", "COMMUNICATE"), True)
        try:
            task = self.domain.task(str(run.task_id))
        except DataError as error:
            raise DataError(f"{run.name}: {error}") from None
        criteria = task.evaluation_criteria
        return _Criteria(tuple(task.actions), tuple(task.communicate_info), tuple(task.reward_basis),
                         criteria is not None and criteria.actions is not None)


def replay_runs(replayer: Replayer, runs: Iterable[RecordedRun],
                progress: Callable[[int], None] | None = None) -> Iterator[ReplayResult]:
    for done, run in enumerate(runs, 1):
        yield replayer.replay(run)
        if progress:
            progress(done)


def _whole(value: float | None) -> int | float | None:
    return int(value) if value is not None and float(value).is_integer() else value
