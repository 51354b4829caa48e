"""The project's agent against the to-do app, its model scripted, the user's answers too."""

from datetime import date

import pytest

from sim.testing import STOCK_ASSISTANT, model_call

AGENT = "com.example.todoagent"


@pytest.fixture
def device(droid_device):
    droid_device.install("apps/todo")
    droid_device.install("apps/agent", system=True)
    droid_device.allowlist_agents(AGENT)
    droid_device.grant_access(AGENT, "com.example.todo")
    droid_device.call("create_task", title="Taxes", subtasks=[], due=date(2026, 4, 15))
    return droid_device


@pytest.mark.parametrize("answer, left", [(True, []), (False, ["Taxes"])])
def test_deleting_asks_the_user_first(device, answer, left):
    run = device.run_agent(AGENT, "Delete my taxes task", [
        model_call("delete_task", task_id="task-1"), "Done.",
    ], confirm=[answer])
    assert [c.approved for c in run.confirmations] == [answer]
    assert [t.title for t in device.call("list_tasks")] == left


def test_the_model_may_send_dates(device):
    run = device.run_agent(AGENT, "What is due before May?", [
        model_call("list_tasks", due_before=date(2026, 5, 1)), "Your taxes.",
    ])
    run.assert_called("list_tasks", due_before=date(2026, 5, 1))
    assert [t["title"] for t in run.responses[0].response["result"]] == ["Taxes"]


def test_the_stock_assistant_of_an_installed_droidsim_runs_too(droid_device):
    droid_device.install("apps/todo")
    droid_device.install(STOCK_ASSISTANT, system=True)
    droid_device.pregrant_agent("com.example.assistant")
    run = droid_device.run_agent("com.example.assistant", "What is on my list?", [
        model_call("list_tasks"), "Nothing yet.",
    ])
    assert run.responses[0].response == {"result": []}
