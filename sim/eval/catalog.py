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

import difflib
from dataclasses import dataclass, field
from typing import Any, Iterable

from droid.appfunctions.json_codec import close_names
from sim.eval.suite import Case, Suite, SuiteError, ForSdks
from sim.pm.unindexed import Unindexed, not_indexed_words


@dataclass(frozen=True)
class CatalogFunction:
    function_id: str
    short_id: str
    package_name: str
    parameters: dict[str, Any]
    description: str = ""
    response: dict[str, Any] = field(default_factory=dict)  # the result's JSON Schema, where the metadata has one


class Catalog:
    """``unindexed``: what the apps declare that the device does not index (sim/pm/unindexed.py);
    ``sdk``: the device's SDK, for what a suite writes for some SDKs only (None: every SDK)."""

    def __init__(self, tools: Iterable[Any], unindexed: Iterable[Unindexed] = (), sdk: int | None = None) -> None:
        self.functions = {
            t.function_id: CatalogFunction(t.function_id, t.short_id, t.package_name, t.parameters,
                                           getattr(t, "description", ""), _response(t)) for t in tools
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
