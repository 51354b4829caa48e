"""AgentRunner: runs an Agent with a model, and owns its sessions.

::

    runner = AgentRunner(agent, model=OfflineModel(), context=context,
                         session_dir=app_data_dir / "agent_sessions")
    session = runner.create_session()
    async for event in session.run("Where is my order ORD-8492?"):
        ...
    runner.close()

Tools are resolved on the first run: the agent's own tools, plus, with
``app_functions_enabled``, the AppFunctions discovered through the context.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import Any

from droid.agent.agent import Agent
from droid.agent.appfunction_tools import AppFunctionAgentTools
from droid.agent.errors import AgentError, ToolsNotSupportedError
from droid.agent.models.base import Model
from droid.agent.session import AgentSession
from droid.agent.store import FileSessionStore, InMemorySessionStore, SessionStore, check_session_id
from droid.agent.tools import AgentTool, check_unique_names

log = logging.getLogger("droid.agent")


class AgentRunner:
    def __init__(
        self,
        agent: Agent,
        model: Model | None = None,
        *,
        context: Any = None,
        app_function_manager: Any = None,
        session_dir: str | os.PathLike[str] | None = None,
        store: SessionStore | None = None,
    ) -> None:
        """``model`` defaults to the offline model. ``context`` (or ``app_function_manager``)
        is how AppFunctions are discovered when the agent enables them. Sessions are kept in
        ``session_dir`` (JSON files; survives restarts) or ``store``, else in memory."""
        if model is None:
            from droid.agent.models.offline import OfflineModel

            model = OfflineModel()
        if agent.uses_tools and not model.supports_tools:
            count = f"{len(agent.tools)} tools" if agent.tools else "AppFunctions enabled"
            raise ToolsNotSupportedError(
                f"Model {model.name!r} does not support tool use, but tools were provided ({count})"
            )
        self.agent = agent
        self.model = model
        self._manager = app_function_manager
        if self._manager is None and context is not None:
            self._manager = context.app_function_manager
        # A context knows who it is, so discovery keeps only what the app may call (droid.agent.access).
        self._discovery_source = context if app_function_manager is None and context is not None else self._manager
        if agent.app_functions_enabled and self._manager is None:
            raise AgentError("app_functions_enabled needs a context (or an app_function_manager) to discover them")
        if store is None:
            store = FileSessionStore(session_dir) if session_dir is not None else InMemorySessionStore()
        self.store = store
        self._sessions: dict[str, AgentSession] = {}
        self._tools: list[AgentTool] | None = None
        self._closed = False

    # -- tools ------------------------------------------------------------------------------------

    def resolve_tools(self, refresh: bool = False) -> list[AgentTool]:
        """The tools declared to the model (discovering AppFunctions once, or again with ``refresh``)."""
        if self._tools is None or refresh:
            self._tools = self._build_tools()
        return list(self._tools)

    async def resolve_tools_async(self) -> list[AgentTool]:
        """``resolve_tools()`` without blocking the event loop while AppFunctions are discovered."""
        if self._tools is None:
            tools = await asyncio.to_thread(self._build_tools)
            if self._tools is None:
                self._tools = tools
        return list(self._tools)

    def _build_tools(self) -> list[AgentTool]:
        agent = self.agent
        discovered: list[AgentTool] = []
        if agent.app_functions_enabled:
            discovered = list(AppFunctionAgentTools.discover(self._discovery_source, agent.app_function_ids or None))
        tools: list[AgentTool] = []
        by_function: dict[str, AgentTool] = {}
        duplicates: list[str] = []
        for tool in list(agent.tools) + discovered:
            function_id = tool.function_id
            if function_id:
                if function_id in by_function:
                    duplicates.append(function_id)
                    continue
                by_function[function_id] = tool
            tools.append(tool)
        if duplicates:
            log.warning(
                "AppFunctions registered twice (app functions enabled and also added as tools): %s. "
                "Each is declared to the model once, as the tool you added. Use one way or the other.",
                ", ".join(dict.fromkeys(duplicates)),
            )
        check_unique_names(tools)
        return tools

    # -- sessions ---------------------------------------------------------------------------------

    def create_session(self, session_id: str | None = None) -> AgentSession:
        """A session; with the id of a stored one, that conversation carries on."""
        self._check_open()
        if session_id is None:
            session_id = uuid.uuid4().hex
        check_session_id(session_id)
        session = self._sessions.get(session_id)
        if session is None:
            session = AgentSession(self, session_id, self.store.load(session_id))
            self._sessions[session_id] = session
        return session

    def list_sessions(self) -> list[str]:
        """Ids of the stored sessions."""
        return self.store.list()

    def clear_sessions(self) -> None:
        """Erase every stored session (and close the open ones)."""
        for session in list(self._sessions.values()):
            session.delete()
        for session_id in self.store.list():
            self.store.delete(session_id)

    def forget_session(self, session: AgentSession) -> None:
        """Called by a session that closes or is deleted: the runner stops handing it out."""
        if self._sessions.get(session.session_id) is session:
            del self._sessions[session.session_id]

    def _check_open(self) -> None:
        if self._closed:
            raise AgentError("this AgentRunner is closed")

    def close(self) -> None:
        """Close every session (histories stay stored) and the runner."""
        for session in list(self._sessions.values()):
            session.close()
        self._closed = True

    async def aclose(self) -> None:
        """``close()``, and release the model's connections."""
        self.close()
        await self.model.aclose()

    def __enter__(self) -> "AgentRunner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> "AgentRunner":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
