"""AgentTool: something the model can call, and the delegate pattern for wrapping one.

``AgentTool(delegate)`` copies the delegate's name, description and schema, so a
decorator only overrides ``execute``::

    class Audited(AgentTool):
        async def execute(self, args):
            log(self.name, args)
            return await self.delegate.execute(args)

``execute`` takes the model's arguments (a JSON object) and returns a JSON
object. It may be ``async`` (preferred) or plain (it then runs on a worker thread,
so it never holds up the other calls of a turn); it may raise: the runtime turns
exceptions into an error map for the model, and ``Interrupt`` pauses the loop.
What it returns is made JSON as Pydantic writes JSON (dates and times as ISO 8601,
dataclasses and Pydantic models as objects, enums as their values); anything else (an
object of a class of your own) is refused, naming the tool and the type, never
stringified. A value that is not an object reaches the model as ``{"result": value}``.

A tool is called as Genkit's are: ``await tool({"city": "Paris"})`` (or ``await
tool(city="Paris")``) checks the arguments as the loop does and returns what the model
would get.

Before ``execute`` runs (and before a confirmation wrapper asks anyone), the runtime
checks the arguments with ``argument_error``: against the declared JSON Schema for a
tool of your own, by the function's metadata for an AppFunction, by the signature for
a ``FunctionTool``. A bad call is answered ``ERROR_INVALID_ARGUMENT``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

import jsonschema
import pydantic_core

from droid.agent.errors import AgentError, ToolResultError
from droid.agent.messages import ToolDeclaration
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException

EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


class AgentTool:
    def __init__(
        self,
        delegate: "AgentTool | None" = None,
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
        destructive: bool | None = None,
    ) -> None:
        self.delegate = delegate
        self.name = name or (delegate.name if delegate else None) or type(self).__name__
        self.description = description if description is not None else (delegate.description if delegate else "")
        if parameters is None:
            parameters = delegate.parameters if delegate else dict(EMPTY_SCHEMA)
        self.parameters = parameters
        # None: let the confirmation policy decide (see droid.agent.confirmation).
        self.destructive = destructive

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        if self.delegate is None:
            raise NotImplementedError(
                f"{type(self).__name__} {self.name!r} has no delegate and no execute() of its own: subclass "
                "AgentTool and define `async def execute(self, args) -> dict`, or wrap a tool "
                "(AgentTool(delegate)), or make a function a tool with FunctionTool(fn)")
        return await call_tool(self.delegate, args)

    async def __call__(self, args: dict[str, Any] | None = None, /, **kwargs: Any) -> dict[str, Any]:
        """Run the tool as the loop runs it, as a Genkit tool is called: the arguments (a dict, or
        keywords) are checked first (AppFunctionInvalidArgumentException names the problem), and
        the result is what the model would get."""
        if args is not None and kwargs:
            raise TypeError(f"{self.name}: give the arguments as one dict or as keywords, not both")
        args = dict(kwargs) if args is None else args
        invalid = self.argument_error(args)
        if invalid is not None:
            raise invalid
        return await call_tool(self, dict(args))

    def resume_problem(self, resumed_metadata: dict[str, Any]) -> str | None:
        """Why ``resumed_metadata`` cannot restart this tool after its interrupt, or None; the
        session asks before anything runs. A wrapper answers as its delegate does."""
        return self.delegate.resume_problem(resumed_metadata) if self.delegate else None

    def argument_error(self, args: Any) -> AppFunctionException | None:
        """Why ``args`` cannot be this tool's arguments, or None. A wrapper that declares its
        delegate's schema leaves the check to the delegate; any other tool is checked against
        the JSON Schema it declares (2020-12, no coercion: ``"12"`` is no number)."""
        if self.delegate is not None and self.parameters == self.delegate.parameters:
            return self.delegate.argument_error(args)
        error = first_schema_error(jsonschema.Draft202012Validator(self.parameters), args)
        return None if error is None else invalid_arguments(error)

    @property
    def function_id(self) -> str | None:
        """The full AppFunction id behind this tool, through any wrappers; None for a local tool."""
        return self.delegate.function_id if self.delegate else None

    @property
    def package_name(self) -> str | None:
        return self.delegate.package_name if self.delegate else None

    @property
    def metadata(self) -> Any:
        """The AppFunctionMetadata behind this tool, through any wrappers; None for a local tool."""
        return self.delegate.metadata if self.delegate else None

    def innermost(self) -> "AgentTool":
        tool = self
        while tool.delegate is not None:
            tool = tool.delegate
        return tool

    def declaration(self) -> ToolDeclaration:
        return ToolDeclaration(self.name, self.description, self.parameters)

    def __repr__(self) -> str:
        target = f" -> {self.function_id}" if self.function_id else ""
        return f"<{type(self).__name__} {self.name}{target}>"


async def call_tool(tool: AgentTool, args: dict[str, Any]) -> dict[str, Any]:
    """Run ``tool.execute`` (a plain one on a worker thread); its result made a JSON object."""
    if inspect.iscoroutinefunction(tool.execute):
        result = await tool.execute(args)
    else:
        result = await asyncio.to_thread(tool.execute, args)
        if inspect.isawaitable(result):
            result = await result
    return tool_output(result, f"tool {tool.name}")


def first_schema_error(validator: jsonschema.Validator, args: Any) -> jsonschema.ValidationError | None:
    """The problem to name when ``args`` break the validator's schema: ``best_match`` looks
    inside ``anyOf`` (a nullable ``$ref``), so the deepest real problem is named rather than
    "not valid under any of the given schemas"."""
    return jsonschema.exceptions.best_match(validator.iter_errors(args))


def invalid_arguments(error: jsonschema.ValidationError) -> AppFunctionInvalidArgumentException:
    """``Invalid arguments at orderId: 5 is not of type 'string'``."""
    where = "/".join(str(p) for p in error.absolute_path)
    return AppFunctionInvalidArgumentException(f"Invalid arguments{f' at {where}' if where else ''}: {error.message}")


def check_unique_names(tools: list[AgentTool]) -> None:
    """A model calls tools by name: two tools with one name would make one unreachable."""
    names: dict[str, AgentTool] = {}
    for tool in tools:
        if tool.name in names:
            raise AgentError(
                f"two tools are named {tool.name!r} ({names[tool.name]!r} and {tool!r}); "
                "tool names must be unique: rename one"
            )
        names[tool.name] = tool


def tool_output(result: Any, who: str) -> dict[str, Any]:
    """``result`` as the JSON object the model gets (see the module docstring); ``ToolResultError``
    naming ``who`` and the type that has no JSON form."""
    try:
        value = pydantic_core.to_jsonable_python(result, bytes_mode="base64")
        text = json.dumps(value, allow_nan=False)
    except (pydantic_core.PydanticSerializationError, TypeError, ValueError) as error:
        raise ToolResultError(
            f"{who} returned {_kind(result)}, which has no JSON form ({error}): return a dict, a list, a "
            "str, a number, a bool, None, a date or time, an enum, a dataclass or a Pydantic model, or "
            "convert the value yourself") from None
    value = json.loads(text)
    return value if isinstance(value, dict) else {"result": value}


def _kind(value: Any) -> str:
    kind = type(value)
    return f"a {kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else f"a {kind.__name__}"
