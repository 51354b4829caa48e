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
import builtins
import inspect
import json
import logging
import sys
from typing import Any, Callable

import jsonschema
import pydantic

from droid.agent.tools import AgentTool, first_schema_error, invalid_arguments, tool_output
from droid.appfunctions import docstrings
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException
from droid.appfunctions.json_codec import close_names, did_you_mean


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
        strict: bool = True,
    ) -> None:
        docs = docstrings.function_docs(fn)
        self._arguments = _ArgumentsModel(fn, docs, name or fn.__name__, _defining_locals(fn))
        if description is None and not docs.description:
            log.warning("FunctionTool(%s) has no docstring: the model sees only its name; give it one (or "
                        "description=) that says what it does", name or fn.__name__)
        super().__init__(
            name=name or fn.__name__,
            description=description if description is not None else _description(docs),
            parameters=parameters if parameters is not None else self._arguments.schema(),
            destructive=destructive,
        )
        self.fn = fn
        self.strict = strict
        self._schema = jsonschema.Draft202012Validator(self.parameters) if strict else None

    def validate(self, args: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments ``fn`` is called with; AppFunctionInvalidArgumentException
        naming the parameter when ``args`` do not fit the declared schema (strict) or the signature."""
        return self._arguments.validate(args, self.name, self._schema)

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
        return tool_output(result, f"tool {self.name}")


def function_tool(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Decorator form of FunctionTool: ``@function_tool`` or ``@function_tool(name=...)``."""
    if fn is None:
        return lambda f: FunctionTool(f, **options)
    return FunctionTool(fn, **options)


def _description(docs: docstrings.Docs) -> str:
    if docs.returns and docs.returns not in docs.description:
        return f"{docs.description}\nReturns: {docs.returns}".strip()
    return docs.description


log = logging.getLogger("droid.agent")

# JSON Schema's type names, written as hints where the Python type was meant.
_PYTHON_TYPE_OF = {"integer": "int", "number": "float", "string": "str", "boolean": "bool", "array": "list",
                   "object": "dict", "null": "None"}
_FRAMES_TO_SEARCH = 16


def _defining_locals(fn: Callable[..., Any]) -> dict[str, Any]:
    """The names a hint of ``fn`` may use besides its module's: the variables it closes over and,
    while the function that defines ``fn`` is running (the tool is made inside it), that
    function's locals."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    names: dict[str, Any] = {}
    frame = sys._getframe(2)
    for _ in range(_FRAMES_TO_SEARCH):
        if frame is None or code is None:
            break
        if code in frame.f_code.co_consts:
            names.update(frame.f_locals)
            break
        frame = frame.f_back
    for name, cell in zip(getattr(code, "co_freevars", ()), getattr(fn, "__closure__", None) or ()):
        try:
            names[name] = cell.cell_contents
        except ValueError:  # a cell not filled yet
            pass
    return names


def _resolve_hint(fn: Callable[..., Any], tool_name: str, param: inspect.Parameter, local_names: dict[str, Any]) -> Any:
    """A parameter's hint as a type: a string hint evaluated as ``typing.get_type_hints`` would, in
    the module's globals and ``local_names``; TypeError naming the parameter when it does not resolve."""
    hint = param.annotation
    if hint is param.empty:
        return Any
    module_names = getattr(inspect.unwrap(fn), "__globals__", {})
    while isinstance(hint, str):  # a quoted hint under `from __future__ import annotations` is text twice
        try:
            hint = eval(hint, dict(module_names), dict(local_names))  # noqa: S307 - the app's own hint, as typing does
        except Exception as error:  # noqa: BLE001 - NameError, SyntaxError, AttributeError...: all say why
            raise TypeError(f"FunctionTool({tool_name}): the type hint of parameter {param.name!r}, {hint!r}, does "
                            f"not resolve: {type(error).__name__}: {error}"
                            f"{_hint_advice(hint, error, _type_names(module_names, local_names))}") from None
    return hint


def _type_names(*namespaces: dict[str, Any]) -> list[str]:
    """The names in ``namespaces`` that stand for types (what a misspelt hint may have meant)."""
    return [name for names in namespaces for name, value in names.items()
            if not name.startswith("_") and (isinstance(value, type) or hasattr(value, "__origin__"))]


def _hint_advice(hint: str, error: Exception, names: list[str]) -> str:
    """What to write instead: the Python type for a JSON Schema name, a close name, or where a
    name must be defined to be found."""
    if hint.strip() in _PYTHON_TYPE_OF:
        return f" (a type hint is a Python type: {_PYTHON_TYPE_OF[hint.strip()]}, not the JSON Schema name {hint!r})"
    missing = getattr(error, "name", None)
    if not isinstance(error, NameError) or not missing:
        return ""
    close = close_names(missing, [*_PYTHON_TYPE_OF, *names, *_type_names(vars(builtins))])
    if close:
        return f" (did you mean {_PYTHON_TYPE_OF.get(close[0], close[0])}?)"
    return (" (a hint under `from __future__ import annotations` is text, read in the function's module and in the "
            f"function that makes the tool: define {missing} at module level, or make the tool where it is defined)")


class _ArgumentsModel:
    """The signature as a Pydantic model. Fields are named ``p0, p1...`` with the parameter
    names as aliases, so a parameter may be called ``json`` or ``schema`` (BaseModel's own)."""

    def __init__(self, fn: Callable[..., Any], docs: docstrings.Docs, tool_name: str,
                 local_names: dict[str, Any]) -> None:
        signature = inspect.signature(fn)
        fields: dict[str, Any] = {}
        self._names: dict[str, str] = {}  # field -> parameter
        self._typed_text: set[str] = set()  # parameters that take a string as it is
        for index, param in enumerate(signature.parameters.values()):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                log.warning("FunctionTool(%s): %s%s is not offered to the model: a tool's parameters are named, "
                            "each with a type hint", tool_name, "*" if param.kind == param.VAR_POSITIONAL else "**",
                            param.name)
                continue
            if param.annotation is param.empty:
                log.warning("FunctionTool(%s): parameter %r has no type hint, so the model is told nothing of it and "
                            "any JSON value passes", tool_name, param.name)
            annotation = _resolve_hint(fn, tool_name, param, local_names)
            default = ... if param.default is param.empty else param.default
            description = docs.params.get(param.name) or None
            fields[f"p{index}"] = (annotation, pydantic.Field(default, alias=param.name, description=description))
            self._names[f"p{index}"] = param.name
            if annotation in (str, Any):
                self._typed_text.add(param.name)
        self._model = _model_of(tool_name, fields, self._names)

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

    def validate(self, args: dict[str, Any], tool_name: str,
                 schema: jsonschema.Validator | None = None) -> dict[str, Any]:
        """The keyword arguments for the function; with ``schema``, ``args`` must first be valid
        under it, as JSON (no coercion)."""
        if not isinstance(args, dict):
            raise AppFunctionInvalidArgumentException(f"{tool_name} takes a JSON object of arguments, not {args!r}")
        takes = ", ".join(self.parameter_names) or "nothing"
        unknown = sorted(set(args) - set(self.parameter_names))
        if unknown:
            raise AppFunctionInvalidArgumentException(
                f"Unknown parameter {unknown[0]!r}{did_you_mean(unknown[0], self.parameter_names)}; "
                f"{tool_name} takes: {takes}"
            )
        args = {k: self._read_json_text(k, v) for k, v in args.items()}
        if schema is not None and (problem := first_schema_error(schema, args)) is not None:
            raise invalid_arguments(problem)
        try:
            values = self._model.model_validate(args)
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


def _model_of(tool_name: str, fields: dict[str, Any], names: dict[str, str]) -> type[pydantic.BaseModel]:
    """The arguments model, with its JSON Schema made once: a type Pydantic cannot describe is a
    TypeError naming its parameter."""
    def made(some: dict[str, Any]) -> type[pydantic.BaseModel]:
        model = pydantic.create_model(f"{tool_name}_arguments", __config__=pydantic.ConfigDict(extra="forbid"), **some)
        model.model_json_schema(by_alias=True)
        return model

    try:
        return made(fields)
    except pydantic.PydanticUserError as error:
        for field, spec in fields.items():
            try:
                made({field: spec})
            except pydantic.PydanticUserError as own:
                raise TypeError(f"FunctionTool({tool_name}): parameter {names[field]!r} has type {spec[0]!r}, which "
                                f"has no JSON Schema: {str(own).splitlines()[0]} (use a JSON type, a dataclass, "
                                "a Pydantic model, an enum or a date or time)") from None
        raise TypeError(f"FunctionTool({tool_name}): {error}") from None


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
