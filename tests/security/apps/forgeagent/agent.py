"""An agent with one tool, ``echo``, whose process answers the bridge's requests with replies
it forges (issue 43 F08, by content). Before each request it reads ``forge.json`` in its
folder, ``{op: reply}``: the reply it sends for that op instead of the true one (the request's
id added unless the forged reply names one). Text is sent as JSON escapes, so a lone surrogate
(valid JSON, no Unicode) reaches the bridge as it was written.
"""

import json
from pathlib import Path

import sim.agent_app.tool_server as tool_server
from droid.agent import Agent
from droid.agent.local_tools import function_tool


def echo(text: str) -> str:
    """Say the text back."""
    return text


class _EscapedJson:
    """The json module, but every text written as escapes."""

    def __getattr__(self, name):
        return getattr(json, name)

    @staticmethod
    def dumps(value, **options):
        return json.dumps(value, **{**options, "ensure_ascii": True})


_true_handle = tool_server._ToolServer.handle


async def _forged(self, request):
    forge = Path("forge.json")
    forged = json.loads(forge.read_text()).get(request.get("op")) if forge.exists() else None
    return forged if forged is not None else await _true_handle(self, request)


def build_agent(context):
    tool_server.json = _EscapedJson()
    tool_server._ToolServer.handle = _forged
    return Agent(name="forger", instructions="Echo.", tools=[function_tool(echo)])
