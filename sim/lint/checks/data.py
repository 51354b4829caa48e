"""What crosses between agent and app: parameters and results (D2, D3, P2, P3, P5, P6, P7).

Decided from names and types in the metadata (so hand-written XML is covered),
plus, for P6, the code that builds a PendingIntent.
"""

from __future__ import annotations

import ast
import re
from typing import Iterator

from droid.appfunctions.metadata import FORMAT_URI, AppFunctionDataTypeMetadata, DataType
from sim.lint.findings import Issue
from sim.lint.model import App, Function, Scope, TypeInfo
from sim.lint.source import CodeModule, body_nodes, reachable
from sim.lint.words import INTENT_OF, OPEN_VERBS, name_words

#: A result type with more properties than this returns more than an answer needs (P7).
MAX_RESULT_FIELDS = 20

_SENSITIVE_WORDS = frozenset({
    "password", "passwd", "passphrase", "passcode", "pin", "cvv", "cvc", "cvv2", "ssn", "secret", "token", "otp",
})
_SENSITIVE_PAIRS = frozenset({
    ("card", "number"), ("credit", "card"), ("private", "key"), ("api", "key"), ("security", "code"),
    ("social", "security"), ("account", "number"), ("routing", "number"),
})
_PAGING = frozenset({"page", "next", "continuation", "cursor", "sync", "pagination"})

_SYSTEM_WORDS = frozenset({"sql", "shell", "cmd", "command", "script", "eval", "exec", "filesystem"})
_PATH_NAMES = frozenset({"path", "file_path", "filepath", "directory", "dir", "folder", "file"})

_CONTEXT_CORE = frozenset({"context", "history", "messages", "prompt", "transcript", "conversation", "memory", "memories"})
_CONTEXT_MODIFIERS = frozenset({
    "full", "entire", "whole", "all", "raw", "complete", "chat", "agent", "user", "system", "previous",
    "past", "prior", "session", "assistant",
})

_DATE_WORDS = frozenset({"date", "time", "datetime", "timestamp", "deadline", "birthday", "birthdate", "dob"})
_LINK_WORDS = frozenset({"url", "uri", "link", "href", "website"})
_DATE_FORMAT = re.compile(r"\b(yyyy|yy-mm|iso[ -]?8601|rfc\s*3339|hh:mm|mm/dd|dd/mm|epoch|unix\s+time)\b", re.I)

_RAW_WORDS = frozenset({"raw", "dump", "payload", "html", "json"})
_RAW_NAMES = frozenset({"response_body", "all_fields", "everything", "row", "rows"})
_PENDING_INTENT_FACTORIES = frozenset({"get_activity", "get_service", "get_broadcast"})


def check_data(app: App) -> Iterator[Issue]:
    for function in app.functions:
        for parameter in function.parameters:
            name, dt, line = parameter.name, parameter.metadata.data_type, parameter.line
            what = f"Parameter '{name}' of {function.name}"
            yield from _sensitive(function.scope, what, name, line)
            yield from _system_access(function.scope, what, name, dt, line)
            yield from _context_name(function.scope, what, name, line)
            yield from _string_dates(app, function.scope, what, name, dt, parameter.metadata.description, line)
        yield from _sensitive(function.scope, f"The result of {function.name}", function.name, None)
        yield from _broad_function(function)
        yield from _null_or_unchanged(app, function)
        yield from _screen(app, function)
    result_types = {t.name for f in app.functions if f.metadata.HasField("response")
                    for t in app.reachable_types(f.metadata.response.value_type)}
    for info in app.types.values():
        if not info.defined_by_app:
            continue
        for prop in info.metadata.properties:
            what = f"Property '{info.simple_name}.{prop.name}'"
            line = info.property_lines.get(prop.name, info.scope.line)
            yield from _sensitive(info.scope, what, prop.name, line)
            yield from _string_dates(app, info.scope, what, prop.name, prop.data_type, prop.data_type.description, line)
        if info.name in result_types:
            yield from _oversized(info)


def _sensitive(scope: Scope, what: str, name: str, line: int | None) -> Iterator[Issue]:
    term = _sensitive_term(name)
    if term:
        yield Issue(
            "D2", scope, f"{what} carries a {term}: highly sensitive data must not pass through agents.",
            "Keep secrets, credentials and payment data inside the app: let the user enter them in the app's UI "
            "(return a PendingIntent to that screen) and pass only a reference.",
            line=line,
        )


def _sensitive_term(name: str) -> str | None:
    """The sensitive thing a name says it holds (a paging ``page_token`` is not one)."""
    words = name_words(name)
    previous = [None, *words]
    for word, before in zip(words, previous):
        if word in _SENSITIVE_WORDS and not (word == "token" and before in _PAGING):
            return word
    return next((f"{a} {b}" for a, b in zip(words, words[1:]) if (a, b) in _SENSITIVE_PAIRS), None)


def _system_access(scope: Scope, what: str, name: str, dt: AppFunctionDataTypeMetadata, line: int) -> Iterator[Issue]:
    words = name_words(name)
    if dt.type == DataType.STRING and (set(words) & _SYSTEM_WORDS or "_".join(words) in _PATH_NAMES):
        yield Issue(
            "D3", scope, f"{what} takes a raw {' '.join(words)}, which gives the agent broad access to data or "
            f"system resources.",
            "Take the specific item the task needs (an ID, a search query) and do the query, path or command "
            "inside the app.",
            line=line,
        )


def _broad_function(function: Function) -> Iterator[Issue]:
    words = set(name_words(function.name))
    if "dump" in words or "everything" in words or ("all" in words and words & {"data", "export"}):
        yield Issue(
            "D3", function.scope, f"{function.name} hands over data wholesale instead of what one task needs.",
            "Expose focused functions that return the items a request asks for.",
        )


def _context_name(scope: Scope, what: str, name: str, line: int) -> Iterator[Issue]:
    words = set(name_words(name))
    if words & _CONTEXT_CORE and words <= _CONTEXT_CORE | _CONTEXT_MODIFIERS:
        yield Issue(
            "P2", scope, f"{what} has a name agents read as a place for their own context or conversation; "
            f"they may send all of it, leaking data.",
            "Name the input the function expects (searchQuery, noteText, recipientEmail).",
            line=line,
        )


def _string_dates(
    app: App, scope: Scope, what: str, name: str, dt: AppFunctionDataTypeMetadata, description: str, line: int
) -> Iterator[Issue]:
    if dt.type != DataType.STRING or dt.enum_values or dt.format == FORMAT_URI:
        return  # a uri-formatted STRING is the platform Uri (androidx AppFunctionUriValueConstraint)
    words = name_words(name)
    if set(words) & _LINK_WORDS:
        kind, use = "a link", "android.net.Uri" if app.kotlin else "Uri (droid.net.Uri)"
    elif set(words) & _DATE_WORDS or words[-1:] == ["at"] or _DATE_FORMAT.search(description):
        kind, use = "a date or time", ("java.time's LocalDate, LocalTime, LocalDateTime or Instant" if app.kotlin else
                                       "date, time, datetime or Instant (LocalDate, LocalTime, LocalDateTime, Instant)")
    else:
        return
    where = " in the Kotlin declaration" if app.kotlin else ""
    yield Issue(
        "P3", scope, f"{what} is {kind} passed as a string in a format of the app's own.",
        f"Use the platform type{where}: {use}, so every agent sends the same format.",
        line=line,
    )


def _null_or_unchanged(app: App, function: Function) -> Iterator[Issue]:
    words = name_words(function.name)
    if not words or INTENT_OF.get(words[0]) != "update":
        return
    for parameter in function.parameters:
        dt = parameter.metadata.data_type
        if parameter.metadata.is_required or not dt.is_nullable or _is_set_field(dt):
            continue
        yield Issue(
            "P5", function.scope,
            f"Parameter '{parameter.name}' of {function.name} is a plain nullable value, so null cannot say both "
            f"'leave unchanged' and 'set to null'.",
            "Declare it `SetField<T>? = null` (androidx.appfunctions.schema.types; null: unchanged; SetField(null): "
            "set to null)." if app.kotlin else
            "Declare it `SetField[T] | None = None` (absent: unchanged; SetField(None): set to null).",
            line=parameter.line,
        )


def _is_set_field(dt: AppFunctionDataTypeMetadata) -> bool:
    reference = dt.data_type_reference.split("<", 1)[0]
    return reference.rsplit(".", 1)[-1] == "SetField"


def _screen(app: App, function: Function) -> Iterator[Issue]:
    words = name_words(function.name)
    if words and words[0] in OPEN_VERBS and not (
        function.metadata.HasField("response") and _has_pending_intent(app, function.metadata.response.value_type)
    ):
        yield Issue(
            "P6", function.scope, f"{function.name} opens a screen but returns no PendingIntent for it.",
            "Return a PendingIntent built from an explicit Intent with PendingIntent.FLAG_IMMUTABLE; the agent "
            "launches it as it is.",
        )
    if function.code is None:
        return
    code = function.code
    for reached in reachable(code.module, code.node, code.cls):
        for node in body_nodes(reached):
            if isinstance(node, ast.Call) and (problem := _pending_intent_problem(node, reached, code.module)):
                yield Issue(
                    "P6", function.scope, f"{function.name} builds a PendingIntent {problem}, so the agent could "
                    f"redirect it.",
                    "Build it from an Intent with component=ComponentName(...) and pass "
                    "PendingIntent.FLAG_IMMUTABLE in its flags.",
                    line=node.lineno,
                )
                return


def _has_pending_intent(app: App, dt: AppFunctionDataTypeMetadata, seen: set[str] | None = None) -> bool:
    """Whether a value of this type holds a PendingIntent, at any depth."""
    seen = set() if seen is None else seen
    if dt.type == DataType.PARCELABLE:
        return True
    parts = [p.data_type for p in dt.properties] + list(dt.all_of) + list(dt.one_of)
    if dt.HasField("item_type"):
        parts.append(dt.item_type)
    reference = dt.data_type_reference
    if reference in app.types and reference not in seen:
        seen.add(reference)
        parts.append(app.types[reference].metadata)
    return any(_has_pending_intent(app, part, seen) for part in parts)


def _pending_intent_problem(call: ast.Call, body: ast.AST, module: CodeModule) -> str | None:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _PENDING_INTENT_FACTORIES:
        return None
    if "PendingIntent" not in module.dotted(func):
        return None
    flags = call.args[3] if len(call.args) > 3 else next((k.value for k in call.keywords if k.arg == "flags"), None)
    if flags is None or "FLAG_IMMUTABLE" not in ast.unparse(flags):
        return "without FLAG_IMMUTABLE"
    intent = call.args[2] if len(call.args) > 2 else next((k.value for k in call.keywords if k.arg == "intent"), None)
    if isinstance(intent, ast.Name):
        intent = next(
            (n.value for n in body_nodes(body) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == intent.id for t in n.targets)),
            intent,
        )
    if isinstance(intent, ast.Call) and module.dotted(intent.func).endswith("Intent"):
        if not any(k.arg == "component" for k in intent.keywords) and len(intent.args) < 2:
            return "from an implicit Intent (no component)"
    return None


def _oversized(info: TypeInfo) -> Iterator[Issue]:
    properties = info.metadata.properties
    if len(properties) > MAX_RESULT_FIELDS:
        yield Issue(
            "P7", info.scope, f"Result type {info.simple_name} has {len(properties)} properties (more than "
            f"{MAX_RESULT_FIELDS}); on-device models have small context windows.",
            "Return only the fields needed to answer, in a type made for the function.",
        )
        return
    for prop in properties:
        words = name_words(prop.name)
        if set(words) & _RAW_WORDS or "_".join(words) in _RAW_NAMES:
            yield Issue(
                "P7", info.scope, f"Result type {info.simple_name} returns '{prop.name}', a raw record or response "
                f"rather than the fields an answer needs.",
                "Map the data to the few fields the function's purpose needs.",
                line=info.property_lines.get(prop.name, info.scope.line),
            )
            return
