"""AppFunctions as agent tools: discovery, declaration and execution.

``AppFunctionAgentTools.discover(context_or_manager, enabled_app_function_ids)``
asks the device which functions the calling app may see and returns one
``AppFunctionAgentTool`` per function, ready to inspect (``name``,
``description``, ``parameters``, ``function_id``, ``metadata``), filter or wrap
before it is given to an ``Agent``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Iterable

from droid.agent.schema import parameters_schema, tool_description
from droid.agent.tools import AgentTool, as_output
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
    ) -> None:
        super().__init__(
            name=name or tool_name(function_name(metadata)),
            description=tool_description(metadata),
            parameters=parameters_schema(metadata, components),
        )
        self.manager = manager
        self._metadata = metadata
        self._components = components

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
        return as_output(await self.return_value_json(args))

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
        enabled_app_function_ids: Iterable[str] | None = None,
        *,
        package_names: Iterable[str] | None = None,
        include_disabled: bool = False,
    ) -> list[AppFunctionAgentTool]:
        """Tools for the functions the caller can see on the device.

        ``source`` is a ``Context`` or an ``AppFunctionManager``.
        ``enabled_app_function_ids`` keeps only the listed functions; each entry
        is a full id (``com.example.orders.OrderFunctionService#cancel_order``)
        or a short one (``cancel_order``, which matches that name in every
        package). Disabled functions are left out unless ``include_disabled``.
        Tool names are the short ids; where two packages share a short id, the
        package is prefixed so that every name is unique.
        """
        manager = getattr(source, "app_function_manager", source)
        spec = AppFunctionSearchSpec(package_names=frozenset(package_names)) if package_names else None
        wanted = None if enabled_app_function_ids is None else list(dict.fromkeys(enabled_app_function_ids))
        found: list[tuple[AppFunctionMetadata, AppFunctionComponentsMetadata]] = []
        matched: set[str] = set()
        for function in manager.search_app_functions(spec):
            if not include_disabled and not function.is_enabled:
                continue
            if wanted is not None:
                hits = {function.id, function_name(function)} & set(wanted)
                if not hits:
                    continue
                matched |= hits
            found.append((function, function.package_metadata.components))
        for missing in [i for i in wanted or [] if i not in matched]:
            log.warning("AppFunction id %r matches no enabled function visible to this app", missing)
        names = _unique_names([f for f, _ in found])
        return [
            AppFunctionAgentTool(manager, function, components, name=name)
            for (function, components), name in zip(found, names)
        ]


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
