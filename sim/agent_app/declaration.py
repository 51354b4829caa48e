"""How an agent app declares its agent, and building it (in the app's own process).

The manifest names a function of the app's code, as it names its services::

    <application>
        <property android:name="droidsim.agent" android:value="agent:build_agent" />

``agent:build_agent`` is ``build_agent`` in the app folder's ``agent.py`` (``package.module``
names a module in a sub-package; ``:build_agent`` is the default function). The function
takes the app's ``Context`` and returns a ``droid.agent.Agent``: its instructions, tools,
limits and confirmations. An app that declares none is run as the stock console agent; a
property whose name is close to ``droidsim.agent`` is a mistake said as one, never the stock
agent run in silence.

The agent runs from the device's copy of the app, made at install. An agent that cannot be
built says so in the app's own terms: the file in the folder it was installed from (where its
developer edits it) beside the installed copy, the traceback of the app's own code, a close
name for a misspelt module or function, and, for a module the app does not ship, which
interpreter and folders the app's process imports from.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from lxml import etree

from droid.agent.agent import Agent
from droid.appfunctions.json_codec import did_you_mean
from droid.appfunctions.loader import ANDROID_NS, app_package_name, load_app_package

AGENT_PROPERTY = "droidsim.agent"
DEFAULT_FUNCTION = "build_agent"


class AgentDeclarationError(Exception):
    """The declared agent cannot be built; the message names the manifest or the module."""


def declared_agent(code_dir: Path, places: "Places | None" = None) -> str | None:
    """The ``droidsim.agent`` property's value in the app's manifest, or None; ``places`` names
    the manifest as its developer knows it."""
    manifest = code_dir / "AndroidManifest.xml"
    shown = places.shown(manifest) if places is not None else manifest
    try:
        root = etree.parse(str(manifest), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError) as error:
        raise AgentDeclarationError(f"{shown}: cannot read the manifest: {error}") from None
    for prop in root.iterfind("application/property"):
        name = prop.get(f"{{{ANDROID_NS}}}name") or ""
        if name != AGENT_PROPERTY and difflib.get_close_matches(name.lower(), [AGENT_PROPERTY], cutoff=0.8):
            raise AgentDeclarationError(
                f'{shown}: <property android:name="{name}"> is no droidsim property: did you mean '
                f'"{AGENT_PROPERTY}"? (an app without it runs droidsim\'s stock agent)')
        if name == AGENT_PROPERTY:
            value = (prop.get(f"{{{ANDROID_NS}}}value") or "").strip()
            if not value:
                raise AgentDeclarationError(f'{shown}: <property android:name="{AGENT_PROPERTY}"> needs '
                                            'android:value="module:function", e.g. "agent:build_agent"')
            return value
    return None


def build_app_agent(code_dir: Path, context: Any) -> Agent | None:
    """The app's own agent, built by the function its manifest declares; None when it declares none."""
    places = Places.of(code_dir, context)
    declared = declared_agent(code_dir, places)
    if declared is None:
        return None
    module_name, _, function_name = declared.partition(":")
    function_name = function_name or DEFAULT_FUNCTION
    source = code_dir / Path(*module_name.split(".")).with_suffix(".py")
    if not source.is_file():
        shipped = sorted(".".join(p.relative_to(code_dir).with_suffix("").parts) for p in code_dir.rglob("*.py"))
        raise AgentDeclarationError(
            f"{places.shown(source)}: no such module: the manifest's {AGENT_PROPERTY} is {declared!r}"
            f"{_colon_meant(code_dir, declared) or did_you_mean(module_name, shipped)}{places.copied}")
    try:
        module = importlib.import_module(f"{load_app_package(code_dir).__name__}.{module_name}")
    except Exception as error:  # noqa: BLE001 - the app's code: any failure is the app's to fix
        raise AgentDeclarationError(places.failure(source, f"importing the agent {declared!r} failed with", error)) from None
    build = getattr(module, function_name, None)
    if not callable(build):
        functions = [name for name, value in vars(module).items()
                     if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")]
        raise AgentDeclarationError(f"{places.shown(source)}: has no function {function_name}(context) (the manifest's "
                                    f"{AGENT_PROPERTY} is {declared!r}){did_you_mean(function_name, functions)}"
                                    f"{places.copied}")
    try:
        agent = build(context)
    except Exception as error:  # noqa: BLE001 - as above
        raise AgentDeclarationError(places.failure(source, f"{function_name}(context) raised", error)) from None
    if inspect.iscoroutine(agent):
        agent.close()
        raise AgentDeclarationError(f"{places.shown(source)}: {function_name}(context) is async def, so calling it "
                                    f"returned a coroutine, not an Agent: make it a plain def (it is called once, "
                                    f"before anything runs; a tool may be async){places.copied}")
    if not isinstance(agent, Agent):
        raise AgentDeclarationError(f"{places.shown(source)}: {function_name}(context) returned {agent!r}, not a "
                                    f"droid.agent.Agent{places.copied}")
    return agent


def _colon_meant(code_dir: Path, declared: str) -> str:
    """' (did you mean 'agent:build_agent'? ...)' for a value that names the function with a dot."""
    if ":" in declared or "." not in declared:
        return ""
    module_name, _, function_name = declared.rpartition(".")
    if not (code_dir / Path(*module_name.split("."))).with_suffix(".py").is_file():
        return ""
    return f" (did you mean '{module_name}:{function_name}'? the value is MODULE:FUNCTION)"


class Places:
    """Where the app's code is, for messages: the copy this process runs (``code_dir``, reached
    under another name once the process is the app), the device's name for it and the folder it
    was installed from."""

    def __init__(self, code_dir: Path, installed: str, folder: str) -> None:
        self.code_dir, self.installed, self.folder = str(code_dir), installed or str(code_dir), folder

    @classmethod
    def of(cls, code_dir: Path, context: Any) -> "Places":
        try:
            own = next((p for p in context.get_system_service("package").list_packages()
                        if p.package_name == context.package_name), None)
        except Exception:  # noqa: BLE001 - messages then name the copy alone
            own = None
        return cls(code_dir, own.code_path if own else "", own.installed_from.folder if own else "")

    def shown(self, path: Path | str) -> str:
        """A file of the app by the name its developer edits it under (else the installed copy's)."""
        return self._renamed(str(path), self.folder or self.installed)

    def _renamed(self, path: str, root: str) -> str:
        return root + path[len(self.code_dir):] if path.startswith(self.code_dir) else path

    @property
    def copied(self) -> str:
        """Where the running code is, and how to run an edited one."""
        if not self.folder:
            return f" (the app's code as installed: {self.installed})"
        return (f" (the app's code as installed from {self.folder} is the copy in {self.installed}: after an "
                f"edit, `droidsim install {self.folder}` again)")

    def failure(self, source: Path, what: str, error: BaseException) -> str:
        """``what`` failed with ``error``: the app's file, the error in the app's terms and the
        traceback of the app's own code."""
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(self.code_dir)]
        lines = [f"{self.shown(source)}: {what} {type(error).__name__}: {_in_app_terms(error, self)}{self.copied}"]
        if isinstance(error, ModuleNotFoundError) and not _is_the_apps(error, self):
            lines.append(_interpreter(error))
        if frames:
            lines.append("Traceback of the app's code (most recent call last):")
            for frame in frames:
                lines.append(f'  File "{self.shown(frame.filename)}", line {frame.lineno}, in {frame.name}')
                if frame.line:
                    lines.append(f"    {frame.line}")
        return "\n".join(lines)


def _is_the_apps(error: ModuleNotFoundError, places: Places) -> bool:
    return bool(error.name) and error.name.split(".")[0] == app_package_name(Path(places.code_dir))


def _in_app_terms(error: BaseException, places: Places) -> str:
    """The error's text, a module of the app named as the app names it (``helpers``), not by the
    package name droidsim gives the app's folder."""
    if isinstance(error, ModuleNotFoundError) and _is_the_apps(error, places):
        inner = error.name.split(".", 1)[1] if "." in error.name else ""
        return (f"the app has no module {inner!r} ({places.shown(Path(places.code_dir, *inner.split('.')))}.py)"
                if inner else str(error))
    return str(error)


def _interpreter(error: ModuleNotFoundError) -> str:
    """Where the agent's process looks for a module the app does not ship."""
    top = (error.name or "").split(".")[0]
    folders = [os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)]  # a code folder's /proc/self/fd/N too
    return (f"the app's agent runs in {sys.executable} (python -I: no PYTHONPATH, no user site-packages), which "
            f"imports from {', '.join(dict.fromkeys(folders))}; install {top} into that interpreter "
            f"(`{sys.executable} -m pip install {top}`), or ship it in the app's folder")
