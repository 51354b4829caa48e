"""The to-do app's AppFunctions."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import date

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionServiceEntryPoint,
    SetField,
    app_function,
    app_function_serializable,
)


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Subtask:
    """One step of a task.

    Attributes:
        title: What the step is.
        done: Whether the step is done.
    """

    title: str
    done: bool = False


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Task:
    """A task on the list.

    Attributes:
        task_id: The task's ID.
        title: The task's title.
        due: The day the task is due, or null when it has no due date.
        subtasks: The task's steps.
    """

    task_id: str
    title: str
    due: date | None
    subtasks: list[Subtask]


class TodoFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.todo.TodoFunctionService"
    xml_file_name = "todo_functions"

    def __init__(self) -> None:
        self.tasks: dict[str, Task] = {}
        self.ids = itertools.count(1)

    @app_function(described_by_docstring=True)
    async def create_task(self, title: str, subtasks: list[Subtask], due: date | None = None) -> Task:
        """Creates a task.

        Args:
            title: The task's title.
            subtasks: The task's steps, in order.
            due: The day the task is due, if it has one.

        Returns:
            The new task, with its ID.
        """
        task = Task(f"task-{next(self.ids)}", title, due, list(subtasks))
        self.tasks[task.task_id] = task
        return task

    @app_function(described_by_docstring=True)
    async def add_subtask(self, task_id: str, subtask: Subtask) -> Task:
        """Adds a step to the end of a task.

        Args:
            task_id: The ID of the task, for example task-1.
            subtask: The step to add.

        Returns:
            The task with the step added.
        """
        task = self._task(task_id)
        self.tasks[task_id] = replace(task, subtasks=[*task.subtasks, subtask])
        return self.tasks[task_id]

    @app_function(described_by_docstring=True)
    async def list_tasks(self, title_contains: str | None = None, due_before: date | None = None) -> list[Task]:
        """Lists the tasks, oldest first.

        Args:
            title_contains: Only tasks whose title contains this text.
            due_before: Only tasks due before this day.

        Returns:
            The tasks that match, oldest first.
        """
        return [t for t in self.tasks.values()
                if (title_contains is None or title_contains in t.title)
                and (due_before is None or (t.due is not None and t.due < due_before))]

    @app_function(described_by_docstring=True)
    async def update_task(self, task_id: str, title: SetField[str] | None = None,
                          due: SetField[date | None] | None = None) -> Task:
        """Changes a task's title or due date; fields not given stay as they are.

        Args:
            task_id: The ID of the task, for example task-1.
            title: The new title.
            due: The new due day, or null to remove it.

        Returns:
            The task as it is now.
        """
        task = self._task(task_id)
        if title is not None:
            task = replace(task, title=title.value)
        if due is not None:
            task = replace(task, due=due.value)
        self.tasks[task_id] = task
        return task

    @app_function(described_by_docstring=True, destructive=True)
    async def delete_task(self, task_id: str) -> None:
        """Deletes a task. A deleted task cannot be restored.

        Args:
            task_id: The ID of the task, for example task-1.
        """
        self._task(task_id)
        del self.tasks[task_id]

    def _task(self, task_id: str) -> Task:
        task = self.tasks.get(task_id)
        if task is None:
            raise AppFunctionElementNotFoundException(f"No task with ID {task_id}")
        return task
