"""The agent's action space, and work nobody asked for (S1, D4).

S1 reads agent apps: an ``Agent`` or ``AppFunctionAgentTools.discover`` that
exposes every function on the device, or a long list of them, costs context
tokens and makes on-device models err; an app exposing very many functions
does the same to every agent. D4 flags work an app starts by itself, at import
or when its service is created, rather than because a user asked.
"""

from __future__ import annotations

import ast
from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App, Scope
from sim.lint.source import CodeModule, body_nodes

#: An agent configuration exposing more functions than this is too large (S1).
MAX_AGENT_FUNCTIONS = 10
#: An app exposing more functions than this crowds every agent's action space (S1).
MAX_APP_FUNCTIONS = 20

_STARTS_WORK = frozenset({
    "threading.Thread", "threading.Timer", "_thread.start_new_thread", "asyncio.create_task",
    "asyncio.ensure_future", "asyncio.run", "multiprocessing.Process", "subprocess.Popen", "sched.scheduler",
    "signal.setitimer", "signal.alarm",
})
_STARTS_WORK_METHODS = frozenset({"create_task", "call_later", "call_at", "ensure_future", "run_in_executor", "submit"})
_START_UP_METHODS = frozenset({"__init__", "on_create"})


def check_action_space(app: App) -> Iterator[Issue]:
    if len(app.functions) > MAX_APP_FUNCTIONS:
        yield Issue(
            "S1", app.scope, f"The app exposes {len(app.functions)} functions (more than {MAX_APP_FUNCTIONS}); "
            f"each one costs every agent context tokens.",
            "Expose the functions agents need for the app's main tasks; restrict the rest to the app "
            f"({'@AppFunctionAccessLevel(ACCESS_LEVEL_SELF)' if app.kotlin else 'ACCESS_LEVEL_SELF'}) or drop them.",
        )
    for module in app.modules:
        for call in (n for n in ast.walk(module.tree) if isinstance(n, ast.Call)):
            problem = _agent_configuration(call, module)
            if problem:
                yield Issue(
                    "S1", _site(module, call), f"This agent configuration {problem}.",
                    f"List only the functions the agent's task needs (at most {MAX_AGENT_FUNCTIONS}): "
                    f"Agent(app_function_ids=[...]) or AppFunctionAgentTools.discover(context, [...]).",
                    line=call.lineno,
                )


def _agent_configuration(call: ast.Call, module: CodeModule) -> str | None:
    dotted = module.dotted(call.func)
    keywords = {k.arg: k.value for k in call.keywords}
    if dotted.rsplit(".", 1)[-1] == "Agent":
        enabled = keywords.get("app_functions_enabled")
        ids = keywords.get("app_function_ids")
    elif dotted.endswith("AppFunctionAgentTools.discover"):
        enabled = ast.Constant(True)
        ids = call.args[1] if len(call.args) > 1 else keywords.get("enabled_app_function_ids")
    else:
        return None
    if isinstance(ids, (ast.List, ast.Tuple, ast.Set)) and len(ids.elts) > MAX_AGENT_FUNCTIONS:
        return f"exposes {len(ids.elts)} functions (more than {MAX_AGENT_FUNCTIONS})"
    no_ids = ids is None or (isinstance(ids, ast.Constant) and ids.value is None)
    if no_ids and isinstance(enabled, ast.Constant) and enabled.value is True:
        return "exposes every function on the device to the agent"
    return None


def check_self_started_work(app: App) -> Iterator[Issue]:
    for module in app.modules:
        for scope_node in _runs_by_itself(module):
            for node in body_nodes(scope_node):
                if isinstance(node, ast.Call) and (started := _starts_work(node, module)):
                    yield Issue(
                        "D4", _site(module, node), f"{started} starts work by itself when the app is loaded or "
                        f"its service is created, not because a user asked.",
                        "Do work only inside the function the user's request calls; schedule later work only "
                        "when the user asked for it (for example a message at a time they chose).",
                        line=node.lineno,
                    )


def _runs_by_itself(module: CodeModule) -> Iterator[ast.AST]:
    """Module-level statements (run at import) and every class's __init__ / on_create."""
    for stmt in module.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test):
            continue  # runs only as a script, never when the device loads the app
        yield stmt
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in _START_UP_METHODS:
                    yield item


def _starts_work(call: ast.Call, module: CodeModule) -> str | None:
    dotted = module.dotted(call.func)
    if dotted in _STARTS_WORK:
        return f"{dotted}()"
    if isinstance(call.func, ast.Attribute) and call.func.attr in _STARTS_WORK_METHODS:
        return f"{call.func.attr}()"
    return None


def _site(module: CodeModule, node: ast.AST) -> Scope:
    """A finding about one statement: silenced by a directive above it or above its function."""
    statement = module.statement_of(node)
    directives = module.directives_for(statement)
    function = module.enclosing_function(node)
    if function is not None:
        directives += module.directives_for(function)
    return Scope(str(module.path), statement.lineno, None, directives)
