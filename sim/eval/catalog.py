"""The functions on the device, by full and short id: how a suite's names are resolved.

A suite may name a function by its full id
(``com.example.orders.OrderFunctionService#cancel_order``) or its short one
(``cancel_order``) when only one app has it. ``check_suite`` resolves every
name up front, and every argument name against the function's parameters, so a
case naming a function no installed app has, or an argument it does not take, is
refused before any model call. A case naming a function an app declares but this
device's SDK does not index is skipped, saying why (``sdk:`` says it beforehand).
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass, field
from typing import Any, Iterable

from droid.appfunctions.exceptions import AppFunctionInvalidArgumentException
from droid.appfunctions.json_codec import close_names, did_you_mean, parts_of, value_from_json
from sim.eval.matchers import Matcher, plain_value, resolve_dates
from sim.eval.suite import Case, Suite, SuiteError, ForSdks, StateCheck
from sim.pm.unindexed import Unindexed, not_indexed_words


@dataclass(frozen=True)
class CatalogFunction:
    function_id: str
    short_id: str
    package_name: str
    parameters: dict[str, Any]
    description: str = ""
    response: dict[str, Any] = field(default_factory=dict)  # the result's JSON Schema, where the metadata has one
    # The function's typed metadata and the app's components, where the tool has them: what a written value is checked against.
    metadata: Any = field(default=None, compare=False, repr=False)
    components: Any = field(default=None, compare=False, repr=False)


class Catalog:
    """``unindexed``: what the apps declare that the device does not index (sim/pm/unindexed.py);
    ``sdk``: the device's SDK, for what a suite writes for some SDKs only (None: every SDK)."""

    def __init__(self, tools: Iterable[Any], unindexed: Iterable[Unindexed] = (), sdk: int | None = None) -> None:
        self.functions = {
            t.function_id: CatalogFunction(t.function_id, t.short_id, t.package_name, t.parameters,
                                           getattr(t, "description", ""), _response(t), getattr(t, "metadata", None),
                                           getattr(t, "components", None)) for t in tools
        }
        self.unindexed = list(unindexed)
        self.sdk = sdk

    def resolve(self, name: str) -> CatalogFunction:
        """The function a suite means by ``name``; LookupError says why there is none."""
        if name in self.functions:
            return self.functions[name]
        matches = [f for f in self.functions.values() if f.short_id == name]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise LookupError(f"{name!r} is ambiguous: {', '.join(sorted(f.function_id for f in matches))}; "
                              "write the full id")
        declared = not_indexed_words(self.unindexed, name)
        if declared is not None:
            raise LookupError(f"no function {name!r} on this device: {declared}")
        names = sorted({n for f in self.functions.values() for n in (f.short_id, f.function_id)})
        close = difflib.get_close_matches(name, names, n=3)
        raise LookupError(f"no installed app has a function {name!r}" + (f"; did you mean {' or '.join(close)}?" if close else ""))

    def short(self, function_id: str | None) -> str:
        found = self.functions.get(function_id or "")
        return found.short_id if found else (function_id or "?")


def _response(tool: Any) -> dict[str, Any]:
    metadata = getattr(tool, "metadata", None)
    if metadata is None:
        return {}
    from droid.agent.schema import response_schema

    return response_schema(metadata, getattr(tool, "components", None)) or {}


def check_suite(suite: Suite, catalog: Catalog, arguments: bool = True) -> dict[str, str]:
    """Every function the suite names exists on the device, and (with ``arguments``) takes every
    argument named for it, else SuiteError at its line. Returns the cases to skip, and why: those
    naming a function an app declares but this device does not index (where the name is written
    for this SDK)."""
    skipped: dict[str, str] = {}
    places: list[tuple[tuple, Any, Case | None]] = [(("probes", i), c, None) for i, c in enumerate(suite.probes)]
    for n, case in enumerate(suite.cases):
        places += [(("cases", n, "setup", i), c, case) for i, c in enumerate(case.setup)]
        places += [(("cases", n, "state", i), c, case) for i, c in enumerate(case.state)]
        for t, turn in enumerate(case.turns):
            prefix = ("cases", n, "turns", t)
            places += [((*prefix, "calls", i), c, case) for i, c in enumerate(turn.calls or [])]
            places += [((*prefix, "allow", i), name, case) for i, name in enumerate(turn.allow)]
    for loc, item, case in places:
        name = item if isinstance(item, str) else item.function
        applies = catalog.sdk is None or all(o.applies(catalog.sdk) for o in (item, case) if isinstance(o, ForSdks))
        case_id = case.id if case is not None else None
        try:
            function = catalog.resolve(name)
        except LookupError as error:
            declared = not_indexed_words(catalog.unindexed, name)
            if declared is not None and not applies:
                continue  # written for the SDKs that index it
            if declared is not None and case_id is not None:
                skipped.setdefault(case_id, f"{declared} (sdk: on the case or the call says which SDKs it is for)")
                continue
            _refuse(suite, loc if isinstance(item, str) else (*loc, "function"), str(error)
                    + (" (sdk: on the probe says which SDKs it is for)" if declared else ""))
        if arguments and not isinstance(item, str):
            _check_arguments(suite, loc, item.args, function)
        if isinstance(item, StateCheck) and item.expect is not None:
            _check_expected(suite, loc, item.expect, function)
    for n, case in enumerate(suite.cases):
        for t, turn in enumerate(case.turns):
            for i, call in enumerate(turn.calls or []):
                if case.id in skipped:
                    continue
                fields = set(_field_names(catalog.resolve(call.function).response)) if _resolves(catalog, call.function) else None
                for j, name in enumerate(call.tell if fields is not None else ()):
                    if name not in fields:
                        _refuse(suite, ("cases", n, "turns", t, "calls", i, "tell", j),
                                f"{call.function} answers no field {name!r}; it answers "
                                f"{', '.join(sorted(fields)) or 'nothing'}")
    return skipped


def _check_arguments(suite: Suite, loc: tuple, args: dict[str, Any], function: CatalogFunction) -> None:
    """Each argument name is a parameter of the function; else SuiteError naming the declared ones and the closest."""
    declared = list((function.parameters or {}).get("properties") or {})
    for key in args:
        if key not in declared:
            close = close_names(key, declared)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            _refuse(suite, (*loc, "args", key), f"{function.short_id} has no parameter {key!r}{hint} (it takes: "
                                                f"{', '.join(declared) or 'nothing'})")
    parameters = {p.name: p.data_type for p in function.metadata.parameters} if function.metadata is not None else {}
    for key, written in args.items():
        if key in parameters:
            _check_written(suite, (*loc, "args", key), written, parameters[key], function,
                           f"{function.short_id} would refuse it")


def _check_expected(suite: Suite, loc: tuple, expect: Matcher, function: CatalogFunction) -> None:
    """A state check's fields are fields of the answer, as the check reads it: an object as it is, any other
    value as ``{result: value}`` (droid/agent/tools.py)."""
    if expect.kind != "fields" or function.metadata is None or not function.metadata.HasField("response"):
        return
    response = function.metadata.response.value_type
    what = f"no answer of {function.short_id} can match it"
    if parts_of(response, function.components)[0] is not None:
        _check_written(suite, (*loc, "expect"), expect, response, function, what)
        return
    for key, matcher in expect.spec.items():
        if key != "result":
            _refuse(suite, (*loc, "expect"), f"{what}: its answer is not an object, so a state check reads it as "
                                             f"{{result: ...}}, not {key!r}")
        _check_written(suite, (*loc, "expect", "result"), matcher, response, function, what)


def _check_written(suite: Suite, loc: tuple, written: Any, data_type: Any, function: CatalogFunction, what: str) -> None:
    """A value written in the suite (a call's plain argument, or the literal parts of a matcher) is one the
    function's typed reading takes, else SuiteError at its line in the shell's words: a bare value for a
    SetField, text for a Boolean, a field the object lacks can never be sent nor matched, so the case could
    never pass whatever the agent did. Matchers that take any value (any, regex, date...) are not checked."""
    path = _written_path(loc)

    def refuse(message: str) -> None:
        _refuse(suite, loc, f"{what}: {message.removeprefix('Parameter ')}")

    if not isinstance(written, Matcher) or written.kind in ("value", "exact", "one_of", "approx"):
        values = (written.spec if written.kind == "one_of" else [written.spec[0] if written.kind == "approx"
                  else written.spec]) if isinstance(written, Matcher) else [written]
        for value in values:
            try:
                value_from_json(resolve_dates(plain_value(value), dt.date.today()), data_type, function.components, path)
            except AppFunctionInvalidArgumentException as error:
                refuse(error.error_message)
        return
    if written.kind not in ("fields", "list", "contains"):
        return
    fields, item = parts_of(data_type, function.components, path)
    if written.kind == "fields" and fields is not None:
        for key, matcher in written.spec.items():
            if key not in fields:
                refuse(f"{path}: unknown field {key!r}{did_you_mean(key, list(fields))}; its fields: {', '.join(fields)}")
            _check_written(suite, (*loc, key), matcher, fields[key], function, what)
    elif written.kind in ("list", "contains") and item is not None:
        for i, matcher in enumerate(written.spec if written.kind == "list" else [written.spec]):
            _check_written(suite, (*loc, i) if written.kind == "list" else loc, matcher, item, function, what)
    else:  # an object or a list where the type is neither: the shell's words for it
        try:
            value_from_json(written.sample(dt.date.today()), data_type, function.components, path)
        except AppFunctionInvalidArgumentException as error:
            refuse(error.error_message)


def _written_path(loc: tuple) -> str:
    """``title.value`` for an argument's place, ``the answer.title`` for a state check's expect, ``tags[0]`` in a list."""
    start = max(i for i, part in enumerate(loc) if part in ("args", "expect"))
    parts = list(loc[start + 1:]) if loc[start] == "args" else ["the answer", *loc[start + 1:]]
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if n else str(p)) for n, p in enumerate(parts))


def _resolves(catalog: Catalog, name: str) -> bool:
    try:
        catalog.resolve(name)
    except LookupError:
        return False
    return True


def _refuse(suite: Suite, loc: tuple, message: str) -> None:
    line, field = suite.locate(loc)
    raise SuiteError(suite.path or "suite", line, field, message)


def _field_names(schema: Any) -> list[str]:
    """Every property name of a result schema, at any depth."""
    if not isinstance(schema, dict):
        return []
    names = []
    for key, sub in (schema.get("properties") or {}).items():
        names += [key, *_field_names(sub)]
    return names + _field_names(schema.get("items"))
