"""How an agent app declares its agent, and building it (in the app's own process).

The manifest names a function of the app's code, as it names its services::

    <application>
        <property android:name="droidsim.agent" android:value="agent:build_agent" />

``agent:build_agent`` is ``build_agent`` in the app folder's ``agent.py`` (``package.module``
names a module in a sub-package; ``:build_agent`` is the default function). The function
takes the app's ``Context`` and returns a ``droid.agent.Agent``: its instructions, tools,
limits and confirmations. An app that declares none is run as the stock console agent.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from lxml import etree

from droid.agent.agent import Agent
from droid.appfunctions.loader import ANDROID_NS, load_app_package

AGENT_PROPERTY = "droidsim.agent"
DEFAULT_FUNCTION = "build_agent"


class AgentDeclarationError(Exception):
    """The declared agent cannot be built; the message names the manifest or the module."""


def declared_agent(code_dir: Path) -> str | None:
    """The ``droidsim.agent`` property's value in the app's manifest, or None."""
    manifest = code_dir / "AndroidManifest.xml"
    try:
        root = etree.parse(str(manifest), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError) as error:
        raise AgentDeclarationError(f"{manifest}: cannot read the manifest: {error}") from None
    for prop in root.iterfind("application/property"):
        if prop.get(f"{{{ANDROID_NS}}}name") == AGENT_PROPERTY:
            value = (prop.get(f"{{{ANDROID_NS}}}value") or "").strip()
            if not value:
                raise AgentDeclarationError(f'{manifest}: <property android:name="{AGENT_PROPERTY}"> needs '
                                            'android:value="module:function", e.g. "agent:build_agent"')
            return value
    return None


def build_app_agent(code_dir: Path, context: Any) -> Agent | None:
    """The app's own agent, built by the function its manifest declares; None when it declares none."""
    declared = declared_agent(code_dir)
    if declared is None:
        return None
    module_name, _, function_name = declared.partition(":")
    function_name = function_name or DEFAULT_FUNCTION
    source = code_dir / Path(*module_name.split(".")).with_suffix(".py")
    try:
        module = importlib.import_module(f"{load_app_package(code_dir).__name__}.{module_name}")
    except Exception as error:  # noqa: BLE001 - the app's code: any failure is the app's to fix
        raise AgentDeclarationError(f"{source}: importing the agent {declared!r} failed: "
                                    f"{type(error).__name__}: {error}") from error
    build = getattr(module, function_name, None)
    if not callable(build):
        raise AgentDeclarationError(f"{source}: has no function {function_name}(context) (the manifest's "
                                    f"{AGENT_PROPERTY} is {declared!r})")
    try:
        agent = build(context)
    except Exception as error:  # noqa: BLE001 - as above
        raise AgentDeclarationError(f"{source}: {function_name}(context) raised {type(error).__name__}: {error}") from error
    if not isinstance(agent, Agent):
        raise AgentDeclarationError(f"{source}: {function_name}(context) returned {agent!r}, not a droid.agent.Agent")
    return agent
