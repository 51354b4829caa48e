"""Rules only the code can decide (P1, P4, E1, S2), read from the syntax tree.

A function is analysed together with the helpers it calls in its own module
(``self._helper()``, module functions); what happens behind other objects or
modules is not followed.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any, Iterator

from droid.appfunctions.metadata import AppFunctionDataTypeMetadata, DataType
from sim.lint.findings import Issue
from sim.lint.model import App, Function, Parameter
from sim.lint.source import CodeModule, body_nodes, reachable

_BUILTIN_EXCEPTIONS = frozenset(
    name for name in dir(builtins)
    if isinstance(getattr(builtins, name), type) and issubclass(getattr(builtins, name), BaseException)
)
# Calls that block the thread they run on (network, files, processes, sleeping).
_BLOCKING = frozenset({
    "time.sleep", "open", "input", "os.system", "os.popen", "os.wait", "sqlite3.connect",
    "socket.create_connection", "urllib.request.urlopen", "subprocess.run", "subprocess.call",
    "subprocess.check_call", "subprocess.check_output", "subprocess.Popen", "shutil.copy", "shutil.copyfile",
    "shutil.copytree", "shutil.move", "shutil.rmtree",
})
_BLOCKING_PREFIXES = ("requests.", "httpx.Client", "http.client.", "urllib3.")
_BLOCKING_METHODS = frozenset({"read_text", "write_text", "read_bytes", "write_bytes"})


def check_code(app: App) -> Iterator[Issue]:
    exception_bases = _exception_bases(app)
    for function in app.functions:
        if function.code is None:
            continue
        yield from _unused_parameters(function)
        for parameter in function.parameters:
            yield from _default(function, parameter)
        yield from _exceptions(function, exception_bases)
        yield from _blocking(function)


# ---------------------------------------------------------------------- P1
def _unused_parameters(function: Function) -> Iterator[Issue]:
    node = function.code.node  # type: ignore[union-attr]
    if _is_stub(node):
        return
    used = {
        n.id for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    if used & {"locals", "vars"}:
        return
    for parameter in function.parameters:
        if parameter.py_name and parameter.py_name not in used:
            yield Issue(
                "P1", function.scope,
                f"{function.name} declares parameter '{parameter.name}' but never uses it; agents will still "
                f"collect and send it.",
                "Remove the parameter, or use it.",
                line=parameter.line,
            )


def _is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    return all(
        isinstance(s, ast.Pass)
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is Ellipsis)
        or (isinstance(s, ast.Raise) and "NotImplementedError" in ast.unparse(s))
        for s in body
    )


# ---------------------------------------------------------------------- P4
def _default(function: Function, parameter: Parameter) -> Iterator[Issue]:
    if parameter.default is None:
        return
    expected = omitted_value(parameter.metadata.data_type)
    written = ast.unparse(parameter.default)
    try:
        value = ast.literal_eval(parameter.default)
    except ValueError:
        value = _NOT_LITERAL
    if value is not _NOT_LITERAL and _same(value, expected):
        return
    yield Issue(
        "P4", function.scope,
        f"Parameter '{parameter.name}' of {function.name} declares the default {written}, but when an agent "
        f"omits it the function receives {expected!r} (the type's default), never {written}.",
        f"Declare it with the type's default ({'None' if expected is None else repr(expected)}) and resolve the "
        f"real default in the body, e.g. `{parameter.py_name} = {parameter.py_name} or {written}`.",
        line=parameter.line,
    )


_NOT_LITERAL = object()


def omitted_value(data_type: AppFunctionDataTypeMetadata) -> Any:
    """What an omitted optional parameter becomes: null, 0, false or empty."""
    if data_type.is_nullable:
        return None
    return {
        DataType.BOOLEAN: False,
        DataType.INT: 0,
        DataType.LONG: 0,
        DataType.FLOAT: 0.0,
        DataType.DOUBLE: 0.0,
        DataType.BYTES: b"",
        DataType.ARRAY: [],
    }.get(data_type.type)


def _same(value: Any, expected: Any) -> bool:
    if expected is None or isinstance(expected, bool):
        return value is expected
    if isinstance(expected, (int, float)):
        return type(value) in (int, float) and value == 0
    if isinstance(expected, list):
        return isinstance(value, (list, tuple)) and not value
    return value == expected


# ---------------------------------------------------------------------- E1
def _exception_bases(app: App) -> dict[str, list[str]]:
    """Every class the app defines -> the names of its bases."""
    return {
        node.name: [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
        for module in app.modules
        for node in ast.walk(module.tree)
        if isinstance(node, ast.ClassDef)
    }


def _is_app_function_exception(name: str, bases: dict[str, list[str]], seen: frozenset[str] = frozenset()) -> bool | None:
    """True / False, or None when the class comes from elsewhere and cannot be told."""
    if name.startswith("AppFunction"):
        return True
    if name in bases and name not in seen:
        answers = [_is_app_function_exception(b, bases, seen | {name}) for b in bases[name]]
        return True if True in answers else (False if False in answers else None)
    return False if name in _BUILTIN_EXCEPTIONS else None


def _exceptions(function: Function, bases: dict[str, list[str]]) -> Iterator[Issue]:
    code = function.code
    for reached in reachable(code.module, code.node, code.cls):  # type: ignore[union-attr]
        for node in body_nodes(reached):
            raised = _raised(node, code.module)  # type: ignore[union-attr]
            if raised and _is_app_function_exception(raised, bases) is False:
                what = "asserts" if raised == "AssertionError" and isinstance(node, ast.Assert) else f"raises {raised}"
                yield Issue(
                    "E1", function.scope,
                    f"{function.name} {what}, which reaches the agent as AppFunctionAppUnknownException and "
                    f"says nothing about the failure.",
                    "Raise the matching AppFunctionException subclass with a plain message "
                    "(AppFunctionInvalidArgumentException for a bad argument, "
                    "AppFunctionElementNotFoundException for a missing item, ...).",
                    line=node.lineno,  # type: ignore[attr-defined]
                )
                return


def _raised(node: ast.AST, module: CodeModule) -> str | None:
    if isinstance(node, ast.Assert):
        return "AssertionError"
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        dotted = module.dotted(exc)
        return dotted.rsplit(".", 1)[-1] if dotted else None
    return None


# ---------------------------------------------------------------------- S2
def _blocking(function: Function) -> Iterator[Issue]:
    code = function.code
    if not isinstance(code.node, ast.AsyncFunctionDef):  # type: ignore[union-attr]
        return
    for reached in reachable(code.module, code.node, code.cls):  # type: ignore[union-attr]
        for node in body_nodes(reached):
            if isinstance(node, ast.Call) and (call := _blocking_call(node, code.module)):  # type: ignore[union-attr]
                yield Issue(
                    "S2", function.scope,
                    f"async {function.name} calls {call}, which blocks the app's event loop and every other "
                    f"call waiting on it.",
                    f"Run it off the loop (`await asyncio.to_thread(...)`), use a non-blocking API, or declare "
                    f"{function.name} with plain `def` (it then runs in a worker thread).",
                    line=node.lineno,
                )
                return


def _blocking_call(call: ast.Call, module: CodeModule) -> str | None:
    dotted = module.dotted(call.func)
    if dotted in _BLOCKING or dotted.startswith(_BLOCKING_PREFIXES):
        return f"{dotted}()"
    if isinstance(call.func, ast.Attribute) and call.func.attr in _BLOCKING_METHODS:
        return f"{call.func.attr}()"
    return None
