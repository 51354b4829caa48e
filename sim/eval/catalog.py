"""The functions on the device, by full and short id: how a suite's names are resolved.

A suite may name a function by its full id
(``com.example.orders.OrderFunctionService#cancel_order``) or its short one
(``cancel_order``) when only one app has it. ``check_suite`` resolves every
name up front, so a case naming a function no installed app has is refused
before any model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from sim.eval.suite import Suite, SuiteError


@dataclass(frozen=True)
class CatalogFunction:
    function_id: str
    short_id: str
    package_name: str
    parameters: dict[str, Any]
    description: str = ""
    response: dict[str, Any] = field(default_factory=dict)  # the result's JSON Schema, where the metadata has one


class Catalog:
    def __init__(self, tools: Iterable[Any]) -> None:
        self.functions = {
            t.function_id: CatalogFunction(t.function_id, t.short_id, t.package_name, t.parameters,
                                           getattr(t, "description", ""), _response(t)) for t in tools
        }

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
        raise LookupError(f"no installed app has a function {name!r}")

    def short(self, function_id: str | None) -> str:
        found = self.functions.get(function_id or "")
        return found.short_id if found else (function_id or "?")


def _response(tool: Any) -> dict[str, Any]:
    metadata = getattr(tool, "metadata", None)
    if metadata is None:
        return {}
    from droid.agent.schema import response_schema

    return response_schema(metadata, getattr(tool, "components", None)) or {}


def check_suite(suite: Suite, catalog: Catalog) -> None:
    """Every function the suite names exists on the device, else SuiteError at its line."""
    places: list[tuple[tuple, str]] = [(("probes", i, "function"), c.function) for i, c in enumerate(suite.probes)]
    for n, case in enumerate(suite.cases):
        places += [(("cases", n, "setup", i, "function"), c.function) for i, c in enumerate(case.setup)]
        places += [(("cases", n, "state", i, "function"), c.function) for i, c in enumerate(case.state)]
        for t, turn in enumerate(case.turns):
            prefix = ("cases", n, "turns", t)
            places += [((*prefix, "calls", i, "function"), c.function) for i, c in enumerate(turn.calls or [])]
            places += [((*prefix, "allow", i), name) for i, name in enumerate(turn.allow)]
    for loc, name in places:
        try:
            catalog.resolve(name)
        except LookupError as error:
            line, field = suite.locate(loc)
            raise SuiteError(suite.path or "suite", line, field, str(error)) from None
    for n, case in enumerate(suite.cases):
        for t, turn in enumerate(case.turns):
            for i, call in enumerate(turn.calls or []):
                fields = set(_field_names(catalog.resolve(call.function).response))
                for j, name in enumerate(call.tell):
                    if name not in fields:
                        line, field = suite.locate(("cases", n, "turns", t, "calls", i, "tell", j))
                        raise SuiteError(suite.path or "suite", line, field,
                                         f"{call.function} answers no field {name!r}; it answers "
                                         f"{', '.join(sorted(fields)) or 'nothing'}")


def _field_names(schema: Any) -> list[str]:
    """Every property name of a result schema, at any depth."""
    if not isinstance(schema, dict):
        return []
    names = []
    for key, sub in (schema.get("properties") or {}).items():
        names += [key, *_field_names(sub)]
    return names + _field_names(schema.get("items"))
