"""AppFunctions as agent tools: discovery, declaration and execution.

``AppFunctionAgentTools.discover(context_or_manager, enabled_app_function_ids)``
asks the device which functions the calling app may see, keeps those it may call
(droid.agent.access), and returns one ``AppFunctionAgentTool`` per function, ready to
inspect (``name``, ``description``, ``parameters``, ``function_id``, ``metadata``),
filter or wrap before it is given to an ``Agent``.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import re
from typing import Any, Iterable

from droid.agent.access import AgentAccess
from droid.agent.schema import parameters_schema, tool_description
from droid.agent.tools import AgentTool, tool_output
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import parameters_from_json, to_json
from droid.appfunctions.metadata import (
    AppFunctionComponentsMetadata,
    AppFunctionMetadata,
    function_name,
)
from droid.appfunctions.requests import AppFunctionSearchSpec, ExecuteAppFunctionRequest

log = logging.getLogger("droid.agent")

# Chat-completions APIs accept tool names of 1-64 characters from this set.
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class AppFunctionAgentTool(AgentTool):
    """One AppFunction: arguments are checked against its metadata, the call goes to the device."""

    def __init__(
        self,
        manager: Any,
        metadata: AppFunctionMetadata,
        components: AppFunctionComponentsMetadata | None = None,
        *,
        name: str | None = None,
        access_problem: str | None = None,
    ) -> None:
        super().__init__(
            name=name or tool_name(function_name(metadata)),
            description=tool_description(metadata),
            parameters=parameters_schema(metadata, components),
        )
        self.manager = manager
        self._metadata = metadata
        self._components = components
        # What keeps the app from calling it (discover(include_ungranted=True)); None: nothing known.
        self.access_problem = access_problem

    @property
    def function_id(self) -> str:
        return self._metadata.id

    @property
    def package_name(self) -> str:
        return self._metadata.package_name

    @property
    def metadata(self) -> AppFunctionMetadata:
        return self._metadata

    @property
    def components(self) -> AppFunctionComponentsMetadata | None:
        """The package's shared types, which the metadata's references point into."""
        return self._components

    @property
    def short_id(self) -> str:
        return function_name(self._metadata)

    def argument_error(self, args: Any) -> AppFunctionException | None:
        """What the device would refuse in ``args`` (``parameters_from_json`` types them by the
        metadata, naming an unknown key's closest declared one), found before anything runs."""
        try:
            parameters_from_json(self._metadata, args, self._components)
        except AppFunctionException as error:
            return error
        return None

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        """Convert the JSON arguments by the metadata, execute on the device, return JSON.

        Raises the device's AppFunctionException (invalid argument, not found,
        denied, ...); the runtime turns it into an error map for the model.
        """
        return tool_output(await self.return_value_json(args), f"tool {self.name}")

    async def return_value_json(self, args: dict[str, Any]) -> Any:
        """``execute`` without the wrapping of a non-object value (MCP's structured content
        wraps by the response's declared type instead)."""
        parameters = parameters_from_json(self._metadata, args or {}, self._components)
        request = ExecuteAppFunctionRequest(self.package_name, self.function_id, parameters)
        execute_async = getattr(self.manager, "execute_app_function_async", None)
        if execute_async is not None:
            response = await execute_async(request)
        else:
            response = await asyncio.to_thread(self.manager.execute_app_function, request)
        return to_json(response.return_value)


class AppFunctionAgentTools:
    """Discovery of AppFunctions as tools (ML Kit's ``AppFunctionAgentTools``)."""

    @staticmethod
    def discover(
        source: Any,
        enabled_app_function_ids: Iterable[str] | str | None = None,
        *,
        package_names: Iterable[str] | None = None,
        include_disabled: bool = False,
        include_ungranted: bool = False,
    ) -> list[AppFunctionAgentTool]:
        """Tools for the functions the caller may call on the device.

        ``source`` is a ``Context`` or an ``AppFunctionManager``.
        ``enabled_app_function_ids`` keeps only the listed functions: one id, or several;
        each is a full id (``com.example.orders.OrderFunctionService#cancel_order``) or a
        short one (``cancel_order``, which matches that name in every package). An id that
        matches nothing is logged with why (disabled, not callable) or the closest id.
        Disabled functions are left out unless ``include_disabled``.

        Given a ``Context``, a function the app sees but may not call (no access grant, not
        on the agent allowlist: droid.agent.access) is left out, as the MCP bridge leaves it
        out; ``include_ungranted`` keeps it, with ``access_problem`` saying what is missing
        and the command that fixes it. A bare ``AppFunctionManager`` cannot say who it is,
        so it gets every function it sees.

        Tool names are the short ids; where two packages share a short id, the
        package is prefixed so that every name is unique.
        """
        manager = getattr(source, "app_function_manager", source)
        access = AgentAccess(source) if hasattr(source, "get_system_service") else None
        spec = AppFunctionSearchSpec(package_names=frozenset(package_names)) if package_names else None
        if isinstance(enabled_app_function_ids, str):  # one id, not its characters
            enabled_app_function_ids = [enabled_app_function_ids]
        wanted = None if enabled_app_function_ids is None else list(dict.fromkeys(enabled_app_function_ids))
        seen = manager.search_app_functions(spec)
        found: list[tuple[AppFunctionMetadata, str | None]] = []
        matched: set[str] = set()
        for function in seen:
            if not include_disabled and not function.is_enabled:
                continue
            if wanted is not None and not {function.id, function_name(function)} & set(wanted):
                continue
            problem = access.problem(function.package_name) if access is not None else None
            if problem is not None and not include_ungranted:
                continue
            matched |= {function.id, function_name(function)}
            found.append((function, problem))
        for missing in [i for i in wanted or [] if i not in matched]:
            log.warning("%s", _unmatched(missing, seen, access))
        names = _unique_names([f for f, _ in found])
        return [
            AppFunctionAgentTool(manager, function, function.package_metadata.components, name=name,
                                 access_problem=problem)
            for (function, problem), name in zip(found, names)
        ]


def _unmatched(wanted: str, seen: list[AppFunctionMetadata], access: AgentAccess | None) -> str:
    """Why an id given to discover found no tool: the function is disabled, or the app may not
    call it (and what fixes that), or there is none, and which id is closest."""
    for function in seen:
        if wanted in (function.id, function_name(function)):
            problem = access.problem(function.package_name) if access is not None else None
            if problem is not None:
                return f"AppFunction id {wanted!r} is {function.id}, which this app may not call: {problem}"
            return f"AppFunction id {wanted!r} is {function.id}, which is disabled (include_disabled=True keeps it)"
    ids = sorted({i for f in seen for i in (f.id, function_name(f))})
    close = difflib.get_close_matches(wanted, ids, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"AppFunction id {wanted!r} matches no function visible to this app{hint}"


def tool_name(text: str) -> str:
    return _NAME_UNSAFE.sub("_", text)[:64] or "tool"


def _unique_names(functions: list[AppFunctionMetadata]) -> list[str]:
    short = [tool_name(function_name(f)) for f in functions]
    counts = {n: short.count(n) for n in short}
    names = []
    for function, name in zip(functions, short):
        if counts[name] > 1:
            name = tool_name(f"{function.package_name.rsplit('.', 1)[-1]}_{function_name(function)}")
        names.append(name)
    taken: set[str] = set()
    result = []
    for function, name in zip(functions, names):
        if name in taken:  # still ambiguous: the whole id, made safe
            name = tool_name(function.id)[-64:]
        taken.add(name)
        result.append(name)
    return result
