"""BFCL-style AST matching of what the agent did in a turn against what the case expects.

A turn that expects calls passes when the calls made pair up one to one with
the expected ones (in any order: parallel calls have none): same function,
every required argument present, every argument of the declared JSON type and
known to the function, every listed matcher satisfied; optional arguments the
case does not mention are tolerated. Calls to functions the turn ``allow``s
(say, a lookup before the action) are ignored, in ``abstain`` and ``ask`` turns
too; any other extra call fails. ``abstain`` passes when no other call was made;
``ask`` when no other call was made and the agent said something (its question). Confirmations: ``required`` means the
agent must have asked before the call, ``not-required`` that it must not have.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sim.eval.catalog import Catalog
from sim.eval.suite import ExpectedCall, Turn

NO_CALL = "(no call)"
_JSON_TYPES = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "array": (list,), "object": (dict,), "null": (type(None),),
}


@dataclass
class MadeCall:
    name: str
    function_id: str | None
    args: dict[str, Any]
    response: dict[str, Any] | None = None
    confirmed: bool | None = None  # None: not asked; else the user's answer

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "function_id": self.function_id, "args": self.args,
                "response": self.response, "confirmation": self.confirmed}


@dataclass
class TurnVerdict:
    failures: list[str] = field(default_factory=list)
    confusion: list[tuple[str, str]] = field(default_factory=list)


def score_turn(turn: Turn, calls: list[MadeCall], text: str, catalog: Catalog, run_date: dt.date) -> TurnVerdict:
    verdict = TurnVerdict()
    allowed = {catalog.resolve(name).function_id for name in turn.allow}
    if turn.expects in ("abstain", "ask"):
        # A read-only lookup the case allows (``list_lights`` before asking which light) is no action.
        acted = [c for c in calls if c.function_id not in allowed]
        for call in acted:
            verdict.failures.append(f"expected {'a question back' if turn.ask else 'no call'}, "
                                    f"but {call.name} was called")
            verdict.confusion.append((NO_CALL, catalog.short(call.function_id)))
        if not acted:
            verdict.confusion.append((NO_CALL, NO_CALL))
        if turn.ask and not acted and not text.strip():
            verdict.failures.append("expected a question back, but the agent said nothing")
        return verdict
    if turn.expects is None:
        return verdict
    expected = [(e, catalog.resolve(e.function).function_id) for e in turn.calls or []]
    free = list(calls)
    pairs: list[tuple[ExpectedCall, str, MadeCall | None]] = []
    unpaired: list[tuple[ExpectedCall, str]] = []
    for wanted, function_id in expected:  # first the calls that match outright
        hit = next((c for c in free if c.function_id == function_id
                    and not argument_problems(wanted, c, catalog, run_date)), None)
        if hit is None:
            unpaired.append((wanted, function_id))
        else:
            free.remove(hit)
            pairs.append((wanted, function_id, hit))
    for wanted, function_id in unpaired:  # then the nearest miss, to say what was wrong
        hit = next((c for c in free if c.function_id == function_id), None)
        hit = hit or next((c for c in free if c.function_id not in allowed), None)
        if hit is not None:
            free.remove(hit)
        pairs.append((wanted, function_id, hit))
    for wanted, function_id, call in pairs:
        short = catalog.short(function_id)
        verdict.confusion.append((short, catalog.short(call.function_id) if call else NO_CALL))
        if call is None:
            verdict.failures.append(f"{short} was not called")
            continue
        if call.function_id != function_id:
            verdict.failures.append(f"expected {short}, but {call.name} was called")
            continue
        verdict.failures += [f"{short}: {p}" for p in argument_problems(wanted, call, catalog, run_date)]
        verdict.failures += confirmation_problems(wanted, call, short)
    for call in free:
        if call.function_id not in allowed:
            verdict.failures.append(f"unexpected call {call.name} {call.args}")
    return verdict


def argument_problems(wanted: ExpectedCall, call: MadeCall, catalog: Catalog, run_date: dt.date) -> list[str]:
    schema = catalog.functions[call.function_id].parameters if call.function_id in catalog.functions else {}
    properties = schema.get("properties", {}) or {}
    problems = [f"required argument {name} is missing" for name in schema.get("required", []) or []
                if name not in call.args and not (name in wanted.args and wanted.args[name].kind == "absent")]
    for name, value in call.args.items():
        if name not in properties:
            problems.append(f"unknown argument {name}")
        elif not type_matches(value, properties[name]):
            problems.append(f"{name}: {value!r} is not of type {properties[name].get('type')}")
    for name, matcher in wanted.args.items():
        problem = matcher.check(call.args.get(name), name in call.args, run_date)
        if problem:
            problems.append(f"{name}: {problem}")
    return problems


def confirmation_problems(wanted: ExpectedCall, call: MadeCall, short: str) -> list[str]:
    if wanted.confirmation == "required" and call.confirmed is None:
        return [f"{short} ran without asking the user first"]
    if wanted.confirmation == "not-required" and call.confirmed is not None:
        return [f"{short} asked for a confirmation it does not need"]
    return []


def type_matches(value: Any, schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds is None:
        return True
    kinds = kinds if isinstance(kinds, list) else [kinds]
    for kind in kinds:
        types = _JSON_TYPES.get(kind)
        if types is None:
            return True
        if isinstance(value, bool) and kind not in ("boolean",):
            continue
        if isinstance(value, types):
            if kind == "string" and "enum" in schema and value not in schema["enum"]:
                return False
            return True
    return False
