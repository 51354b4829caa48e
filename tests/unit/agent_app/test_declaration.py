"""How an agent app declares its agent, and every way a declaration can be wrong, each named
with the file (sim/agent_app/declaration.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from droid.agent import Agent
from sim.agent_app.declaration import AgentDeclarationError, build_app_agent, declared_agent

MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.{name}">
    <application>{property}</application>
</manifest>
"""


def app(root: Path, value: str | None, code: str = "") -> Path:
    folder = root / "app"
    folder.mkdir()
    prop = "" if value is None else f'<property android:name="droidsim.agent" android:value="{value}" />'
    (folder / "AndroidManifest.xml").write_text(MANIFEST.format(name="x", property=prop))
    (folder / "__init__.py").write_text("")
    (folder / "agent.py").write_text(textwrap.dedent(code))
    return folder


def test_an_app_without_the_property_has_no_agent(tmp_path):
    assert build_app_agent(app(tmp_path, None), context=None) is None


def test_the_declared_function_builds_the_agent_with_the_context(tmp_path):
    folder = app(tmp_path, "agent:build_agent", """
        from droid.agent import Agent

        def build_agent(context):
            return Agent(name=f"built for {context}")
    """)
    assert declared_agent(folder) == "agent:build_agent"
    agent = build_app_agent(folder, "ctx")
    assert isinstance(agent, Agent) and agent.name == "built for ctx"


@pytest.mark.parametrize("value, code, message", [
    ("", "", 'needs android:value="module:function"'),
    ("nowhere:build_agent", "", "nowhere.py: importing the agent 'nowhere:build_agent' failed: ModuleNotFoundError"),
    ("agent:build_agent", "def other(context): pass", "agent.py: has no function build_agent(context)"),
    ("agent", "def build_agent(context): raise RuntimeError('no model here')",
     "agent.py: build_agent(context) raised RuntimeError: no model here"),
    ("agent:make", "def make(context): return 'an agent'", "agent.py: make(context) returned 'an agent', not a droid.agent.Agent"),
])
def test_a_wrong_declaration_is_named_with_its_file(tmp_path, value, code, message):
    with pytest.raises(AgentDeclarationError, match=None) as raised:
        build_app_agent(app(tmp_path, value, code), context=None)
    assert message in str(raised.value)
