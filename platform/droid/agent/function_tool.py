"""FunctionTool: a Python function as a local tool, held to the checks an AppFunction gets.

The schema comes from the signature through Pydantic, as the MCP SDK's ``@tool`` builds it;
the docstring's ``Args:`` section (Google, reST or NumPy style, read as the declaration layer
reads an AppFunction's) describes each parameter, and the text before it describes the tool.

Every call is validated before the function runs, as the MCP SDK's ``MCPServer`` and Genkit
validate a tool's input: Pydantic's lax mode, so ``"12"`` for a ``float`` is 12.0 and
``"twelve"`` is refused, and a parameter typed as a Pydantic model arrives as that model; an
object or list sent as a JSON string is read first, as the SDK reads it (some clients and
models send them so). Unlike the SDK, which ignores a key the function does not take, such a
key is refused, naming the closest one, as an AppFunction's unknown parameter is. A bad call is ``ERROR_INVALID_ARGUMENT`` for the model, never the app's
failure. A plain (sync) function runs on a worker thread, so the calls of one turn overlap
whether the tools are async or not.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Callable

import pydantic

from droid.agent.tools import AgentTool, as_output
from droid.appfunctions import docstrings
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException
from droid.appfunctions.json_codec import did_you_mean


class FunctionTool(AgentTool):
    """A local Python function as a tool (see the module docstring).

    ``description`` defaults to the docstring's text before its sections, with what its
    ``Returns:`` says; ``parameters`` (a JSON Schema) to the one built from the signature.
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
        docs = docstrings.function_docs(fn)
        self._arguments = _ArgumentsModel(fn, docs, name or fn.__name__)
        super().__init__(
            name=name or fn.__name__,
            description=description if description is not None else _description(docs),
            parameters=parameters if parameters is not None else self._arguments.schema(),
            destructive=destructive,
        )
        self.fn = fn

    def validate(self, args: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments ``fn`` is called with; AppFunctionInvalidArgumentException
        naming the parameter when ``args`` do not fit the signature."""
        return self._arguments.validate(args, self.name)

    def argument_error(self, args: Any) -> AppFunctionException | None:
        try:
            self.validate(args)
        except AppFunctionInvalidArgumentException as error:
            return error
        return None

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        kwargs = self.validate(args)
        if inspect.iscoroutinefunction(self.fn):
            result = await self.fn(**kwargs)
        else:
            result = await asyncio.to_thread(self.fn, **kwargs)  # the context (current_tool_context) goes along
            if inspect.isawaitable(result):
                result = await result
        return as_output(result)


def function_tool(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Decorator form of FunctionTool: ``@function_tool`` or ``@function_tool(name=...)``."""
    if fn is None:
        return lambda f: FunctionTool(f, **options)
    return FunctionTool(fn, **options)


def _description(docs: docstrings.Docs) -> str:
    if docs.returns and docs.returns not in docs.description:
        return f"{docs.description}\nReturns: {docs.returns}".strip()
    return docs.description


class _ArgumentsModel:
    """The signature as a Pydantic model. Fields are named ``p0, p1...`` with the parameter
    names as aliases, so a parameter may be called ``json`` or ``schema`` (BaseModel's own)."""

    def __init__(self, fn: Callable[..., Any], docs: docstrings.Docs, tool_name: str) -> None:
        try:
            signature = inspect.signature(fn, eval_str=True)
        except (NameError, TypeError):
            signature = inspect.signature(fn)
        fields: dict[str, Any] = {}
        self._names: dict[str, str] = {}  # field -> parameter
        self._typed_text: set[str] = set()  # parameters that take a string as it is
        for index, param in enumerate(signature.parameters.values()):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            annotation = Any if param.annotation is param.empty or isinstance(param.annotation, str) else param.annotation
            default = ... if param.default is param.empty else param.default
            description = docs.params.get(param.name) or None
            fields[f"p{index}"] = (annotation, pydantic.Field(default, alias=param.name, description=description))
            self._names[f"p{index}"] = param.name
            if annotation in (str, Any):
                self._typed_text.add(param.name)
        self._model = pydantic.create_model(f"{tool_name}_arguments", __config__=pydantic.ConfigDict(extra="forbid"),
                                            **fields)

    @property
    def parameter_names(self) -> list[str]:
        return list(self._names.values())

    def schema(self) -> dict[str, Any]:
        schema = self._model.model_json_schema(by_alias=True)
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        schema["additionalProperties"] = False
        return schema

    def validate(self, args: dict[str, Any], tool_name: str) -> dict[str, Any]:
        if not isinstance(args, dict):
            raise AppFunctionInvalidArgumentException(f"{tool_name} takes a JSON object of arguments, not {args!r}")
        takes = ", ".join(self.parameter_names) or "nothing"
        unknown = sorted(set(args) - set(self.parameter_names))
        if unknown:
            raise AppFunctionInvalidArgumentException(
                f"Unknown parameter {unknown[0]!r}{did_you_mean(unknown[0], self.parameter_names)}; "
                f"{tool_name} takes: {takes}"
            )
        try:
            values = self._model.model_validate({k: self._read_json_text(k, v) for k, v in args.items()})
        except pydantic.ValidationError as error:
            raise AppFunctionInvalidArgumentException(_first_problem(error)) from None
        return {self._names[field]: getattr(values, field) for field in self._names}

    def _read_json_text(self, name: str, value: Any) -> Any:
        """An object or list sent as JSON text, read (the MCP SDK's ``pre_parse_json``)."""
        if not isinstance(value, str) or name in self._typed_text:
            return value
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return value
        return parsed if isinstance(parsed, (dict, list)) else value


def _first_problem(error: pydantic.ValidationError) -> str:
    """``Parameter amount: Input should be a valid number, ...`` for the first problem, with
    how many more there are (the model fixes one and asks again)."""
    problems = error.errors(include_url=False)
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] == "missing":
        text = f"Parameter {where} is required"
    else:
        text = f"Parameter {where}: {first['msg']} (got {first['input']!r})"
    more = len(problems) - 1
    return text + (f"; and {more} more problem{'s' if more > 1 else ''}" if more else "")
