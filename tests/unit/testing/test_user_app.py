"""The fixture with an app of a user's own (tests/e2e/user_project/apps/todo, a to-do list):
a ``-> None`` destructive function, serializables in a parameter and in a list, optional and
nullable parameters, a SetField. Each call goes as a test outside this repository writes it."""

from __future__ import annotations

import shutil
from datetime import date
from importlib import import_module

import pytest

from droid.appfunctions import SetField
from droid.appfunctions.loader import load_app_package
from sim.testing import Confirmation, model_call
from tests.helpers import REPO

SERVICE = "com.example.todo.TodoFunctionService"
TODO = REPO / "tests" / "e2e" / "user_project" / "apps" / "todo"


@pytest.fixture
def todo(droid_device, tmp_path):
    app = tmp_path / "todo"
    shutil.copytree(TODO, app)
    return droid_device.install(app)


def test_a_function_declared_none_returns_none(droid_device, todo) -> None:
    task = droid_device.call("create_task", title="Taxes", subtasks=[])
    assert droid_device.call("delete_task", task_id=task.task_id) is None
    assert droid_device.call("list_tasks") == []


def test_serializables_go_as_the_apps_class_a_dict_or_wire_names(droid_device, todo) -> None:
    types = todo.types
    task = droid_device.call("create_task", title="Taxes", due=date(2026, 4, 15), subtasks=[
        types.Subtask("Find the forms"),              # installed.types
        {"title": "Fill them in", "done": True},      # a dict by Python name
    ])
    assert isinstance(task, types.Task)
    assert task.subtasks == [types.Subtask("Find the forms"), types.Subtask("Fill them in", True)]
    task = droid_device.call("add_subtask", taskId=task.task_id, subtask={"title": "Send them"})  # wire names
    assert [s.title for s in task.subtasks][-1] == "Send them"


def test_the_class_from_the_tests_own_import_of_the_app_works(droid_device, todo, tmp_path) -> None:
    """A test that imports the app itself (another module, so another class of the same name)."""
    own_copy = tmp_path / "own" / "todo"
    shutil.copytree(TODO, own_copy)
    subtask_class = import_module(f"{load_app_package(own_copy).__name__}.todo").Subtask
    assert subtask_class is not todo.types.Subtask
    task = droid_device.call("create_task", title="Taxes", subtasks=[subtask_class("Find the forms")])
    assert task.subtasks == [todo.types.Subtask("Find the forms")]


def test_optional_nullable_and_set_field_parameters(droid_device, todo) -> None:
    first = droid_device.call("create_task", title="Taxes", subtasks=[], due=date(2026, 4, 15))
    droid_device.call("create_task", title="Garden", subtasks=[])           # due omitted: None
    assert [t.task_id for t in droid_device.call("list_tasks", due_before=date(2026, 5, 1))] == [first.task_id]
    assert len(droid_device.call("list_tasks", title_contains=None)) == 2
    renamed = droid_device.call("update_task", task_id=first.task_id, title=SetField("Tax return"),
                                due={"value": None})
    assert (renamed.title, renamed.due) == ("Tax return", None)


@pytest.mark.parametrize(("parameters", "message"), [
    ({"task_id": "task-1", "title": "Tax return"},
     "title must be a SetField: SetField(value) or a dict with those keys (Python or wire names); not str 'Tax return'"),
    ({"title_contains": "Tax", "due_before": "2026-05-01"},
     "due_before must be a datetime.date, for example datetime.date(2025, 6, 14); not str '2026-05-01'"),
    ({"titel": "Taxes"},
     "'titel' is not a parameter of com.example.todo.TodoFunctionService#list_tasks; did you mean title_contains?"),
])
def test_a_value_in_the_wrong_form_names_the_forms_accepted(droid_device, todo, parameters, message) -> None:
    function = "update_task" if "task_id" in parameters else "list_tasks"
    with pytest.raises(TypeError) as raised:
        droid_device.call(function, **parameters)
    assert str(raised.value).startswith(message)


def test_a_misspelled_field_of_a_serializable_is_named(droid_device, todo) -> None:
    with pytest.raises(TypeError) as raised:
        droid_device.call("create_task", title="Taxes", subtasks=[{"titel": "Find the forms"}])
    assert str(raised.value) == (
        "subtasks[0].titel is not a property of Subtask; did you mean title? (its names: title, done)"
    )


AGENT = "com.example.assistant"


@pytest.fixture
def agent_device(droid_device, todo):
    droid_device.install(REPO / "apps" / "system" / "assistant", system=True)
    droid_device.pregrant_agent(AGENT)
    droid_device.types = todo.types
    droid_device.task = droid_device.call("create_task", title="Taxes", subtasks=[], due=date(2026, 4, 15))
    return droid_device


@pytest.mark.parametrize("approved", [True, False])
def test_a_destructive_call_asks_the_user_and_the_test_scripts_the_answer(agent_device, approved) -> None:
    task_id = agent_device.task.task_id
    run = agent_device.run_agent(AGENT, "Delete my taxes task", [
        model_call("delete_task", task_id=task_id), "Done.",
    ], confirm=[approved])
    assert run.confirmations == [Confirmation(f"{SERVICE}#delete_task", {"taskId": task_id}, approved)]
    remaining = [t.task_id for t in agent_device.call("list_tasks")]
    assert remaining == ([] if approved else [task_id])
    if not approved:
        assert run.responses[0].response == {"status": "CANCELLED_BY_USER", "message": "Action was declined by the user."}


def test_a_confirmation_the_test_did_not_script_fails_it_and_nothing_runs(agent_device) -> None:
    with pytest.raises(AssertionError, match=r"asked the user to allow .*#delete_task with \{'taskId': 'task-1'\}, "
                                             r"and the test scripted no answer: pass confirm=\[True\]"):
        agent_device.run_agent(AGENT, "Delete it", [model_call("delete_task", task_id="task-1"), "Done."])
    assert len(agent_device.call("list_tasks")) == 1
    with pytest.raises(AssertionError, match=r"confirm= scripted 1 answer\(s\) more than the agent asked for"):
        agent_device.run_agent(AGENT, "List", [model_call("list_tasks"), "Done."], confirm=[True])


def test_model_call_takes_python_values_as_call_does(agent_device) -> None:
    run = agent_device.run_agent(AGENT, "What is due before May?", [
        model_call("list_tasks", due_before=date(2026, 5, 1)), "Your taxes.",
    ])
    call = run.assert_called("list_tasks", due_before=date(2026, 5, 1))
    assert call.args == {"dueBefore": {"year": 2026, "month": 5, "dayOfMonth": 1}}
    assert [t["taskId"] for t in run.responses[0].response["result"]] == ["task-1"]
    run = agent_device.run_agent(AGENT, "Add a step", [
        model_call("add_subtask", task_id="task-1", subtask=agent_device.types.Subtask("Find the forms")), "Added.",
    ])
    assert run.responses[0].response["subtasks"] == [{"title": "Find the forms", "done": False}]
