"""A task's expected database: its gold actions replayed on a fresh copy, as τ² computes it.

τ² runs every gold action (reads too) on a fresh environment and keeps going past one that
raises (it logs it); the database they leave is what the agent's must match. Never written by
hand: computed here, through the domain's app on the device, the same path an agent's calls take.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from sim.tau2.device import DomainApp
from sim.tau2.state import DbState
from sim.tau2.tasks import Call


@dataclass
class GoldResult:
    """The database the gold actions left, and the ones that raised (each with its index)."""

    state: DbState
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        """The gold actions change nothing: an agent that does nothing matches the database."""
        return not self.state.changed()


def replay_gold(app: DomainApp, actions: Sequence[Call]) -> GoldResult:
    """Load a fresh database into ``app``, run ``actions`` in order, read the database back."""
    app.load()
    errors = []
    for index, action in enumerate(actions):
        outcome = app.call(action.name, action.arguments)
        if not outcome.ok:
            errors.append({"call": index, **outcome.error_json()})
    return GoldResult(app.state(), errors)
