"""τ²'s tasks as droidsim reads them: the user's scenario, the gold actions, what must be said.

Validated with pydantic before anything runs; a malformed task is a ``DataError`` that names
the file, the task's id and the field (``tasks.json: task '12': evaluation_criteria.actions[2].name:
Field required``). Fields τ² keeps for people (descriptions, issues, annotations) are read
as they are; what droidsim does not run (initial states, environment assertions, which
retail and airline never use) is refused by name rather than skipped.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

RewardBasis = Literal["DB", "ENV_ASSERTION", "NL_ASSERTION", "ACTION", "COMMUNICATE"]


class DataError(ValueError):
    """A data folder, task or recorded run droidsim cannot use; the message says which and why."""


class _Data(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Call(_Data):
    """A function call: a gold action, or a call a recorded run made."""

    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)


class Action(Call):
    """A gold action: a call and τ²'s id for it."""

    action_id: str = ""
    requestor: Literal["assistant"] = "assistant"


class EvaluationCriteria(_Data):
    actions: list[Action] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    env_assertions: None = None
    # τ²'s default, as in τ-bench: the database and what was said.
    reward_basis: list[RewardBasis] = Field(default_factory=lambda: ["DB", "COMMUNICATE"])

    @field_validator("env_assertions", mode="before")
    @classmethod
    def _no_assertions(cls, value: Any) -> Any:
        if value:
            raise ValueError("environment assertions are not run by droidsim (τ²'s retail and airline have none)")
        return None


class Task(_Data):
    """One τ² task. ``user_scenario`` is kept as the data gives it (for a user simulator)."""

    id: str
    user_scenario: dict[str, Any]
    description: dict[str, Any] | None = None
    initial_state: None = None
    evaluation_criteria: EvaluationCriteria | None = None

    @field_validator("initial_state", mode="before")
    @classmethod
    def _no_initial_state(cls, value: Any) -> Any:
        if value:
            raise ValueError("initial states are not run by droidsim (τ²'s retail and airline have none)")
        return None

    @property
    def actions(self) -> list[Action]:
        return list(self.evaluation_criteria.actions or []) if self.evaluation_criteria else []

    @property
    def communicate_info(self) -> list[str]:
        return list(self.evaluation_criteria.communicate_info or []) if self.evaluation_criteria else []

    @property
    def nl_assertions(self) -> list[str]:
        return list(self.evaluation_criteria.nl_assertions or []) if self.evaluation_criteria else []

    @property
    def reward_basis(self) -> list[str]:
        return list(self.evaluation_criteria.reward_basis) if self.evaluation_criteria else []


def parse_tasks(raw: Any, where: str) -> list[Task]:
    """Tasks from the parsed JSON of a tasks file; ``where`` names it in errors."""
    if not isinstance(raw, list):
        raise DataError(f"{where}: expected a list of tasks, found {type(raw).__name__}")
    tasks, seen = [], set()
    for index, entry in enumerate(raw):
        task_id = entry.get("id") if isinstance(entry, dict) else None
        named = f"task {task_id!r}" if isinstance(task_id, (str, int)) else f"task #{index} (no id)"
        try:
            task = Task.model_validate(entry)
        except ValidationError as error:
            raise DataError(f"{where}: {named}: {validation_message(error)}") from None
        if task.id in seen:
            raise DataError(f"{where}: {named}: the id is used by an earlier task too")
        seen.add(task.id)
        tasks.append(task)
    return tasks


def validation_message(error: ValidationError) -> str:
    """The first problem pydantic found, as ``path.to[2].field: message``."""
    first = error.errors()[0]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]).lstrip(".")
    return f"{path}: {first['msg']}" if path else first["msg"]
