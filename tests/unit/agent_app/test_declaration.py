"""How an agent app declares its agent, and every way a declaration can be wrong, each named
with the file (sim/agent_app/declaration.py)."""

from __future__ import annotations

import sys
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
    folder.mkdir(parents=True)
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
    ("nowhere:build_agent", "", "nowhere.py: no such module: the manifest's droidsim.agent is 'nowhere:build_agent'"),
    ("agent:build_agent", "def other(context): pass", "agent.py: has no function build_agent(context)"),
    ("agent", "def build_agent(context): raise RuntimeError('no model here')",
     "agent.py: build_agent(context) raised RuntimeError: no model here"),
    ("agent:make", "def make(context): return 'an agent'", "agent.py: make(context) returned 'an agent', not a droid.agent.Agent"),
])
def test_a_wrong_declaration_is_named_with_its_file(tmp_path, value, code, message):
    with pytest.raises(AgentDeclarationError, match=None) as raised:
        build_app_agent(app(tmp_path, value, code), context=None)
    assert message in str(raised.value)


class Own:
    """The app's own PackageInfo as the device tells it: its installed copy and its source folder."""

    def __init__(self, code_path: str, folder: str) -> None:
        from droidsim.v1.metadata_pb2 import InstalledFrom
        from droidsim.v1.package_manager_pb2 import PackageInfo

        self.package_name = "com.example.x"
        self.info = PackageInfo(package_name=self.package_name, code_path=code_path,
                                installed_from=InstalledFrom(kind="folder", folder=folder))

    def get_system_service(self, name: str):
        assert name == "package"
        return self

    def list_packages(self):
        return [self.info]


def failure(tmp_path, value: str, code: str, **files: str) -> str:
    folder = app(tmp_path, value, code)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    with pytest.raises(AgentDeclarationError) as raised:
        build_app_agent(folder, Own("/data/app/com.example.x-1", "/home/dev/myagent"))
    return str(raised.value)


COPIED = (" (the app's code as installed from /home/dev/myagent is the copy in /data/app/com.example.x-1: after an "
          "edit, `droidsim install /home/dev/myagent` again)")


def test_an_exception_in_the_apps_code_names_its_source_file_with_the_apps_traceback(tmp_path):
    said = failure(tmp_path, "agent:build_agent", """
        def settings():
            raise RuntimeError("settings file missing")

        def build_agent(context):
            return settings()
    """)
    assert said.splitlines() == [
        "/home/dev/myagent/agent.py: build_agent(context) raised RuntimeError: settings file missing" + COPIED,
        "Traceback of the app's code (most recent call last):",
        '  File "/home/dev/myagent/agent.py", line 6, in build_agent',
        "    return settings()",
        '  File "/home/dev/myagent/agent.py", line 3, in settings',
        '    raise RuntimeError("settings file missing")',
    ]


@pytest.mark.parametrize("value, code, said", [
    ("agent:build_agent", "def build_agnet(context): pass\nclass Helper: pass",
     "/home/dev/myagent/agent.py: has no function build_agent(context) (the manifest's droidsim.agent is "
     "'agent:build_agent') (did you mean build_agnet?)"),
    ("agnet:build_agent", "",
     "/home/dev/myagent/agnet.py: no such module: the manifest's droidsim.agent is 'agnet:build_agent' (did you "
     "mean agent?)"),
    ("agent.build_agent", "def build_agent(context): pass",
     "/home/dev/myagent/agent/build_agent.py: no such module: the manifest's droidsim.agent is 'agent.build_agent' "
     "(did you mean 'agent:build_agent'? the value is MODULE:FUNCTION)"),
    ("agent:build_agent", "async def build_agent(context): pass",
     "/home/dev/myagent/agent.py: build_agent(context) is async def, so calling it returned a coroutine, not an "
     "Agent: make it a plain def (it is called once, before anything runs; a tool may be async)"),
])
def test_a_misspelt_function_or_module_a_dot_for_the_colon_or_an_async_builder_gets_what_it_meant(
        tmp_path, value, code, said):
    assert failure(tmp_path, value, code) == said + COPIED


def test_a_misspelt_property_gets_the_name_it_meant(tmp_path):
    folder = tmp_path / "p" / "app"
    folder.mkdir(parents=True)
    (folder / "AndroidManifest.xml").write_text(MANIFEST.format(
        name="x", property='<property android:name="droidsim.agents" android:value="agent:build_agent" />'))
    with pytest.raises(AgentDeclarationError) as raised:
        build_app_agent(folder, Own(str(folder), "/home/dev/myagent"))
    assert str(raised.value) == ('/home/dev/myagent/AndroidManifest.xml: <property android:name="droidsim.agents"> is '
                                 'no droidsim property: did you mean "droidsim.agent"? (an app without it runs '
                                 "droidsim's stock agent)")


def test_a_module_the_app_lacks_is_named_as_the_app_names_it_and_one_it_does_not_ship_names_the_interpreter(tmp_path):
    own = failure(tmp_path / "a", "agent:build_agent", "from .helpers import settings")
    assert own.startswith("/home/dev/myagent/agent.py: importing the agent 'agent:build_agent' failed with "
                          "ModuleNotFoundError: the app has no module 'helpers' (/home/dev/myagent/helpers.py)")
    assert "_droidsim_app_" not in own, "not the package name droidsim gives the folder"
    third = failure(tmp_path / "b", "agent:build_agent", "import yaml_not_installed_here")
    assert "failed with ModuleNotFoundError: No module named 'yaml_not_installed_here'" in third
    assert (f"the app's agent runs in {sys.executable} (python -I: no PYTHONPATH, no user site-packages), which "
            "imports from ") in third
    assert f"install yaml_not_installed_here into that interpreter (`{sys.executable} -m pip install " in third
