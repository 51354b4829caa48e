"""The to-do app's tests, written as docs/testing.md says."""

from datetime import date

import pytest

from apps.todo.todo import Subtask
from droid.appfunctions import AppFunctionElementNotFoundException, SetField


@pytest.fixture
def todo(droid_device):
    return droid_device.install("apps/todo")


def test_a_none_function_returns_none(droid_device, todo):
    task = droid_device.call("create_task", title="Taxes", subtasks=[])
    assert droid_device.call("delete_task", task_id=task.task_id) is None
    with pytest.raises(AppFunctionElementNotFoundException):
        droid_device.call("delete_task", task_id=task.task_id)


def test_serializables_as_my_class_the_installed_type_a_dict_or_wire_names(droid_device, todo):
    task = droid_device.call("create_task", title="Taxes", due=date(2026, 4, 15), subtasks=[
        Subtask("Find the forms"),                    # the class this test imports
        todo.types.Subtask("Fill them in"),           # the installed app's class
        {"title": "Sign them", "done": False},        # a dict by Python name
    ])
    assert isinstance(task, todo.types.Task)
    assert [s.title for s in task.subtasks] == ["Find the forms", "Fill them in", "Sign them"]
    task = droid_device.call("add_subtask", taskId=task.task_id, subtask={"title": "Send them"})
    assert task.subtasks[-1] == todo.types.Subtask("Send them")


def test_optional_and_nullable_parameters_and_set_field(droid_device, todo):
    taxes = droid_device.call("create_task", title="Taxes", subtasks=[], due=date(2026, 4, 15))
    droid_device.call("create_task", title="Garden", subtasks=[])
    assert [t.title for t in droid_device.call("list_tasks", due_before=date(2026, 5, 1))] == ["Taxes"]
    assert len(droid_device.call("list_tasks", title_contains=None)) == 2
    renamed = droid_device.call("update_task", task_id=taxes.task_id, title=SetField("Tax return"),
                                due=SetField(None))
    assert (renamed.title, renamed.due) == ("Tax return", None)
    with pytest.raises(TypeError, match=r"title must be a SetField: SetField\(value\) or a dict"):
        droid_device.call("update_task", task_id=taxes.task_id, title="Tax return")
