"""AgentTool: something the model can call, and the delegate pattern for wrapping one.

``AgentTool(delegate)`` copies the delegate's name, description and schema, so a
decorator only overrides ``execute``::

    class Audited(AgentTool):
        async def execute(self, args):
            log(self.name, args)
            return await self.delegate.execute(args)

``execute`` takes the model's arguments (a JSON object) and returns a JSON
object. It may be ``async`` (preferred) or plain; it may raise: the runtime
turns exceptions into an error map for the model, and ``Interrupt`` pauses the
loop.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from droid.agent.errors import AgentError
from droid.agent.messages import ToolDeclaration

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
            raise NotImplementedError(f"{type(self).__name__} must implement execute() or wrap a delegate")
        return await call_tool(self.delegate, args)

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
    """Run ``tool.execute`` whether it is async or plain, and insist on a JSON object back."""
    result = tool.execute(args)
    if inspect.isawaitable(result):
        result = await result
    return as_output(result)


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


def as_output(result: Any) -> dict[str, Any]:
    """Tool outputs are JSON objects; anything else is wrapped as ``{"result": value}``."""
    if isinstance(result, dict):
        return result
    return {"result": result}


class FunctionTool(AgentTool):
    """A local Python function as a tool; the schema comes from its signature (Pydantic).

    Useful in tests and for tools that are not AppFunctions. The description
    defaults to the docstring.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
        destructive: bool | None = None,
    ) -> None:
        super().__init__(
            name=name or fn.__name__,
            description=description if description is not None else inspect.getdoc(fn) or "",
            parameters=parameters if parameters is not None else _schema_from_signature(fn),
            destructive=destructive,
        )
        self.fn = fn

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        result = self.fn(**args)
        if inspect.isawaitable(result):
            result = await result
        return as_output(result)


def function_tool(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Decorator form of FunctionTool: ``@function_tool`` or ``@function_tool(name=...)``."""
    if fn is None:
        return lambda f: FunctionTool(f, **options)
    return FunctionTool(fn, **options)


def _schema_from_signature(fn: Callable[..., Any]) -> dict[str, Any]:
    import pydantic

    fields: dict[str, Any] = {}
    try:
        signature = inspect.signature(fn, eval_str=True)
    except (NameError, TypeError):
        signature = inspect.signature(fn)
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = param.annotation
        if annotation is param.empty or isinstance(annotation, str):
            annotation = Any
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (annotation, default)
    model = pydantic.create_model(f"{fn.__name__}_args", **fields)
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema
