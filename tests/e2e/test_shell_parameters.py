"""`execute-app-function --parameters` with a user's own app: a key the function does not
declare is refused with the declared names (the app would ignore it), a value in the wrong
form is refused by the device with the forms the shell accepts."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import REPO, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

TODO = REPO / "tests" / "e2e" / "user_project" / "apps"
SERVICE = "com.example.todo.TodoFunctionService"


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    apps = tmp_path_factory.mktemp("user-apps")
    shutil.copytree(TODO / "todo", apps / "todo")
    process = DeviceProcess(tmp_path_factory.mktemp("shell-parameters") / "data", apps)
    yield process
    process.stop()


def execute(device, function: str, parameters: dict):
    return droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", "com.example.todo",
                    "--function", f"{SERVICE}#{function}", "--parameters", json.dumps(parameters), data=device.data)


def history(device) -> list[str]:
    return droidsim("shell", "dumpsys", "app_function", data=device.data).stdout.split("Access history", 1)[1].splitlines()


@pytest.mark.parametrize(("function", "parameters", "error"), [
    ("list_tasks", {"titel": "Tax"},
     "Unknown parameter 'titel' (did you mean titleContains?); "
     f"{SERVICE}#list_tasks takes: titleContains, dueBefore"),
    ("list_tasks", {"due_before": "2026-05-01"},
     "Unknown parameter 'due_before' (did you mean dueBefore?); "
     f"{SERVICE}#list_tasks takes: titleContains, dueBefore"),
    ("update_task", {"taskId": "task-1", "titel": {"value": "Tax return"}},
     "Unknown parameter 'titel' (did you mean title?); "
     f"{SERVICE}#update_task takes: taskId, title, due"),
    ("create_task", {"title": "Taxes", "subtasks": [{"titel": "Find the forms"}]},
     "Parameter subtasks[0]: unknown field 'titel' (did you mean title?); its fields: title, done"),
])
def test_a_key_the_function_does_not_declare_is_named_and_nothing_runs(device, function, parameters, error) -> None:
    before = len(history(device))
    refused = execute(device, function, parameters)
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[0].startswith(f"Error: ERROR_INVALID_ARGUMENT (1001): {error}")
    assert len(history(device)) == before  # refused before it reached the device
    assert execute(device, "list_tasks", {}).stdout.strip() == "[]"


def test_a_value_in_the_wrong_form_is_refused_by_the_device_with_the_forms_accepted(device) -> None:
    refused = execute(device, "update_task", {"taskId": "task-1", "title": "Tax return"})
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[0].startswith("Error: ERROR_INVALID_ARGUMENT (1001): ")
    assert refused.stderr.splitlines()[1] == (
        'Parameter title: expected a SetField<String>, written {"value": ...} (a bare value is no SetField; '
        "leave the parameter out to keep the field as it is), got a string"
    )
    assert "ERROR_INVALID_ARGUMENT" in history(device)[-1]
    refused = execute(device, "list_tasks", {"dueBefore": 20260501})
    assert refused.stderr.splitlines()[1] == (
        "Parameter dueBefore: expected text (e.g. 2025-06-14) or an object {year, month, dayOfMonth}, "
        "got the number 20260501"
    )


def test_declared_names_with_iso_dates_work_and_a_none_function_prints_null(device) -> None:
    created = execute(device, "create_task", {"title": "Taxes", "subtasks": [{"title": "Find the forms"}],
                                              "due": "2026-04-15"})
    assert created.returncode == 0, created.stderr
    task = json.loads(created.stdout)
    assert task["due"] == {"year": 2026, "month": 4, "dayOfMonth": 15}
    deleted = execute(device, "delete_task", {"taskId": task["taskId"]})
    assert (deleted.returncode, deleted.stdout.strip()) == (0, "null")
