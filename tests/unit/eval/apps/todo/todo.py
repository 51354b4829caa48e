"""The to-do app's AppFunctions: add, list, finish, delete, remind, move and prioritise tasks."""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, replace
from typing import Literal

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionServiceEntryPoint,
    app_function,
    app_function_serializable,
)

Priority = Literal["LOW", "NORMAL", "HIGH"]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Task:
    """A task on a to-do list.

    Attributes:
        task_id: The task's ID, for example T-101.
        title: What is to be done.
        list_name: The list the task is on, for example Home or Work.
        due: The day the task is due, or null when it has no due date.
        done: Whether the task has been done.
        priority: How urgent the task is.
        remind_at: When the user will be reminded, or null.
    """

    task_id: str
    title: str
    list_name: str
    due: dt.date | None
    done: bool
    priority: Priority
    remind_at: dt.datetime | None


def _seed(today: dt.date) -> dict[str, Task]:
    tasks = [
        Task("T-101", "Buy stamps", "Errands", today, False, "NORMAL", None),
        Task("T-102", "Call the plumber", "Home", None, False, "NORMAL", None),
        Task("T-103", "Submit the expense report", "Work", today + dt.timedelta(days=1), False, "NORMAL", None),
        Task("T-104", "Book the car service", "Errands", None, True, "LOW", None),
    ]
    return {t.task_id: t for t in tasks}


class TaskFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.todo.TaskFunctionService"
    xml_file_name = "task_functions"

    def __init__(self) -> None:
        self.tasks = _seed(dt.date.today())
        self.ids = itertools.count(105)

    def _task(self, task_id: str) -> Task:
        task = self.tasks.get(task_id.strip().upper())
        if task is None:
            raise AppFunctionElementNotFoundException(f"No task with ID {task_id}")
        return task

    def _save(self, task: Task) -> Task:
        self.tasks[task.task_id] = task
        return task

    @app_function(described_by_docstring=True)
    def add_task(self, title: str, list_name: str | None = None, due: dt.date | None = None) -> Task:
        """Adds a new task to the user's to-do list: an errand, a chore, something to buy, call,
        fix or not forget.

        Args:
            title: What is to be done, in the user's words, for example Pick up the dry cleaning.
            list_name: The list to put it on, for example Groceries, Home or Work; Errands when omitted.
            due: The day it should be done by, if the user gave one.

        Returns:
            The new task.
        """
        task = Task(f"T-{next(self.ids)}", title, list_name or "Errands", due, False, "NORMAL", None)
        return self._save(task)

    @app_function(described_by_docstring=True)
    def list_tasks(self, list_name: str | None = None, due: dt.date | None = None,
                   include_done: bool | None = None) -> list[Task]:
        """Lists the tasks still to do: what is left, open or outstanding on the to-do lists.

        Args:
            list_name: Only the tasks of this list, for example Home, Work or Errands.
            due: Only the tasks due on this day, for example today.
            include_done: Also list the tasks already done (ticked off).

        Returns:
            The tasks, open ones first.
        """
        found = [t for t in self.tasks.values() if (include_done or not t.done)
                 and (list_name is None or t.list_name.lower() == list_name.strip().lower())
                 and (due is None or t.due == due)]
        return sorted(found, key=lambda t: (t.done, t.task_id))

    @app_function(described_by_docstring=True)
    def complete_task(self, task_id: str) -> Task:
        """Marks a task as done: ticks it off or checks it off once the user has finished it.

        Args:
            task_id: The task's ID, for example T-101.

        Returns:
            The task, now done.
        """
        return self._save(replace(self._task(task_id), done=True))

    @app_function(described_by_docstring=True, destructive=True)
    def delete_task(self, task_id: str) -> Task:
        """Deletes a task for good: removes it from its list and gets rid of it, unlike ticking it off.

        Args:
            task_id: The task's ID, for example T-102.

        Returns:
            The task that was deleted.
        """
        return self.tasks.pop(self._task(task_id).task_id)

    @app_function(described_by_docstring=True)
    def set_reminder(self, task_id: str, at: dt.time) -> Task:
        """Sets a reminder for a task: a notification that pings or alerts the user about it at a
        time of day, on the day the task is due (today when it has no due date).

        Args:
            task_id: The task's ID, for example T-103.
            at: The time of day, for example 17:00.

        Returns:
            The task with its reminder.
        """
        task = self._task(task_id)
        return self._save(replace(task, remind_at=dt.datetime.combine(task.due or dt.date.today(), at)))

    @app_function(described_by_docstring=True)
    def move_task(self, task_id: str, list_name: str) -> Task:
        """Moves a task to another to-do list, for example from Home to Weekend.

        Args:
            task_id: The task's ID, for example T-102.
            list_name: The list to move it to.

        Returns:
            The task on its new list.
        """
        return self._save(replace(self._task(task_id), list_name=list_name.strip()))

    @app_function(described_by_docstring=True)
    def set_priority(self, task_id: str, priority: Priority) -> Task:
        """Sets how urgent or important a task is: HIGH flags it as urgent, LOW lets it wait.

        Args:
            task_id: The task's ID, for example T-103.
            priority: LOW, NORMAL or HIGH.

        Returns:
            The task with its new priority.
        """
        return self._save(replace(self._task(task_id), priority=priority))
