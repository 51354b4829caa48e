"""What a function says it does against what it does (F7, D1).

A function whose name or description says read-only must not write or delete,
as far as the metadata and the code can tell; a function that cancels, deletes
or pays must be marked destructive so that agents ask the user first.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import Iterator

from droid.agent.confirmation import says_destructive
from droid.appfunctions.metadata import DROIDSIM_XML_NAMESPACE
from sim.lint.checks.texts import where_to_write
from sim.lint.findings import Issue
from sim.lint.model import App, Code, Function
from sim.lint.source import CodeModule, body_nodes, local_names, reachable, root_name
from sim.lint.words import DESTRUCTIVE_VERBS, READ_VERBS, WRITE_VERBS, first_word, name_words, verb

_READ_ONLY_CLAIM = re.compile(
    r"\bread[- ]only\b|\bdoes\s+not\s+(change|modify|write|delete|alter)\b|\bwithout\s+(changing|modifying)\b",
    re.IGNORECASE,
)
_BUILTINS = frozenset(dir(builtins))


def check_actions(app: App) -> Iterator[Issue]:
    for function in app.functions:
        yield from _destructive_marked(app, function)
        yield from _read_only_honest(app, function)


def _destructive_marked(app: App, function: Function) -> Iterator[Issue]:
    words = name_words(function.name)
    # The name's verbs: its first word, and any word after "and"/"or" (fetch_and_delete_...).
    verbs = words[:1] + [after for before, after in zip(words, words[1:]) if before in ("and", "or")]
    action = next((v for v in verbs if v in DESTRUCTIVE_VERBS), None) or verb(
        first_word(function.description), DESTRUCTIVE_VERBS
    )
    if action is None or function.metadata.is_destructive or says_destructive(function.description):
        return
    yield Issue(
        "D1", function.scope,
        f"{function.name} performs a '{action}' action but is not marked destructive, so an agent may run it "
        f"without asking the user.",
        _how_to_mark_destructive(app, function),
    )


def _how_to_mark_destructive(app: App, function: Function) -> str:
    """The platform's metadata has no destructive field: a Kotlin app can only say it in words
    (which agents read; droidsim's asks on DESTRUCTIVE_MARKERS), or suppress the finding."""
    if app.kotlin:
        return (f"The platform has no field that marks a function destructive, so say it in "
                f"{where_to_write(app, function, 'description', written=True)}: that it is destructive or cannot "
                f"be undone (end it with \"This cannot be undone.\"); agents then ask the user first. Or, if the "
                f"app asks the user itself, suppress D1 with the reason in a suppressions file, which "
                f"`droidsim lint --suppressions` reads (docs/lint-rules.md).")
    how = (
        "declare it with @app_function(..., destructive=True)"
        if function.code is not None
        else f'add <droidsim:isDestructive xmlns:droidsim="{DROIDSIM_XML_NAMESPACE}">true</droidsim:isDestructive> '
        f"to its <appfunction>"
    )
    return f"Mark it destructive ({how}) so agents confirm with the user first."


def _read_only_honest(app: App, function: Function) -> Iterator[Issue]:
    words = name_words(function.name)
    opening = first_word(function.description)
    if words and words[0] in READ_VERBS:
        claim, by_name = f"its name starts with '{words[0]}'", True
    elif verb(opening, READ_VERBS):
        claim, by_name = f"its description starts with '{opening}'", False
    elif m := _READ_ONLY_CLAIM.search(function.description):
        claim, by_name = f"its description says '{m.group(0)}'", False
    else:
        return
    line = None
    if function.metadata.is_destructive:
        evidence = "it is marked destructive"
    elif by_name and verb(opening, WRITE_VERBS):
        evidence = f"its description says it {opening}"
    elif function.code is not None and (write := first_write(function.code)) is not None:
        line, what = write
        evidence = f"its code {what}"
    else:
        return
    yield Issue(
        "F7", function.scope,
        f"{function.name} looks read-only ({claim}) but {evidence}; agents call read-only functions freely.",
        f"Name and describe it by what it does ({'deleteNote, updateNote' if app.kotlin else 'delete_..., update_...'}) "
        f"and {'say in its KDoc if it' if app.kotlin else 'mark it destructive if it'} cannot be undone; or make it "
        f"read-only.",
        line=line,
    )


def first_write(code: Code) -> tuple[int, str] | None:
    """The first place the function (or a helper it calls) writes or deletes
    state outside itself: a write-verb call on ``self``/module state, an
    assignment or ``del`` on it, or a file opened for writing."""
    for reached in reachable(code.module, code.node, code.cls):
        local = local_names(reached)
        for node in sorted(body_nodes(reached), key=lambda n: getattr(n, "lineno", 0)):
            what = _write(node, local, code.module)
            if what:
                return node.lineno, what  # type: ignore[attr-defined]
    return None


def _write(node: ast.AST, local: set[str], module: CodeModule) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            if func.id == "open" and _write_mode(node):
                return "opens a file for writing"
            name, root = func.id, func.id
            if name in _BUILTINS or name[:1].isupper():
                return None
        elif isinstance(func, ast.Attribute):
            name, root = func.attr, root_name(func.value)
        else:
            return None
        words = name_words(name)
        if words and words[0] in WRITE_VERBS and root not in local:
            return f"calls {module.dotted(func) or name}()"
    elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and root_name(target) not in local:
                verb_ = "deletes" if isinstance(node, ast.Delete) else "assigns"
                return f"{verb_} {ast.unparse(target)}"
    return None


def _write_mode(call: ast.Call) -> bool:
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wax+"))
