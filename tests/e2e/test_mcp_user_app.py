"""The MCP bridge with a user's own app (tests/e2e/user_project/apps/todo): what docs/mcp.md
says of structuredContent, and a misspelled key named as the shell names it (one check:
json_codec.UnknownKeyError)."""

from __future__ import annotations

import asyncio
import json
import shutil

import pytest
from mcp import Client

from tests.e2e.mcp_support import stdio_server
from tests.helpers import COMMAND_BOUND, REPO, SAMPLE_APPS, DeviceProcess

pytestmark = pytest.mark.e2e

AGENT = "com.example.assistant"


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    apps = tmp_path_factory.mktemp("user-apps")
    shutil.copytree(REPO / "tests" / "e2e" / "user_project" / "apps" / "todo", apps / "todo")
    process = DeviceProcess(tmp_path_factory.mktemp("mcp-user") / "data", apps,
                            extra=("--system-apps", str(SAMPLE_APPS / "system"), "--pregrant-agent", AGENT))
    yield process
    process.stop()


def test_structured_content_is_under_result_for_a_serializable_and_a_none(device) -> None:
    async def scenario():
        async with Client(stdio_server(device.data, AGENT, "--confirm", "always-allow")) as client:
            created = await client.call_tool("create_task", {"title": "Taxes", "subtasks": [{"title": "Forms"}]})
            deleted = await client.call_tool("delete_task", {"taskId": created.structured_content["result"]["taskId"]})
            misspelled = await client.call_tool("list_tasks", {"titel": "Tax"})
            return created, deleted, misspelled

    created, deleted, misspelled = asyncio.run(asyncio.wait_for(scenario(), timeout=COMMAND_BOUND))
    assert created.structured_content == {"result": {"taskId": "task-1", "title": "Taxes", "due": None,
                                                     "subtasks": [{"title": "Forms", "done": False}]}}
    assert (deleted.is_error, deleted.structured_content, deleted.content[0].text) == (False, {"result": None}, "null")
    assert misspelled.is_error
    assert json.loads(misspelled.content[0].text)["error"]["message"] == (
        "Unknown parameter 'titel' (did you mean titleContains?); "
        "com.example.todo.TodoFunctionService#list_tasks takes: titleContains, dueBefore"
    )
