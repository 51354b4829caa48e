"""Scoring one turn: the calls against the case (BFCL's AST checker), the device's answers, the words.

Calls. The calls made pair up one to one with the expected ones, in any order,
by the pairing of least cost (sim/eval/pairing.py): same function, every
required argument present, every argument of the declared JSON type and known
to the function, every listed matcher satisfied; optional arguments the case
does not mention are tolerated. Arguments that are not JSON at all are one
failure that says so. Calls to functions the turn ``allow``s (a lookup before
the action) are ignored, in ``abstain`` and ``ask`` turns too; any other extra
call fails.

The device. An expected call the device answered with an error fails, unless
the case expects that error (``error:``).

The words: the rules' claim list (sim/eval/telling.py), or a judge model's
(sim/eval/judge.py), each claim held to what happened, and the words verdict computed
from it (sim/eval/words_verdict.py); the rules' list is kept beside a judge's. Actions
are the calls that change the device (``is_read``); lookups are not claimed. An
``ask`` turn needs a question, about one of the ``about`` words when the case lists them.
A failure of the words names its check; the others are the task's.

Confirmations: ``required`` means the agent must have asked before the call,
``not-required`` that it must not have.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field, replace
from typing import Any

from droid.agent.errors import is_error_map
from sim.eval.catalog import Catalog
from sim.eval.claim_list import Reading
from sim.eval.claims import Words
from sim.eval.pairing import UNPAIRABLE, min_cost_pairing
from sim.eval.suite import ExpectedCall, Turn, is_read
from sim.eval.taxonomy import Failure
from sim.eval.telling import Facts, Outcome, read_about_calls, read_question, read_without_calls
from sim.eval.words_verdict import Situation, words_failures

NO_CALL = "(no call)"
_JSON_TYPES = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "array": (list,), "object": (dict,), "null": (type(None),),
}
# Pairing costs: a perfect pair, the right call the device refused, wrong arguments, another function.
_EXACT, _REJECTED, _WRONG_ARGS, _WRONG_FUNCTION, _UNPAIRED = 0, 1, 2, 3, 4


@dataclass
class MadeCall:
    name: str
    function_id: str | None
    args: dict[str, Any]
    response: dict[str, Any] | None = None
    confirmed: bool | None = None  # None: not asked; else the user's answer

    @property
    def error_name(self) -> str | None:
        """The device's error code name when it refused the call."""
        return self.response["error"].get("code_name") if is_error_map(self.response) else None

    @property
    def happened(self) -> bool:
        return self.response is not None and self.confirmed is not False and self.error_name is None

    @property
    def unreadable_arguments(self) -> str | None:
        """Why the model's arguments could not be read as JSON, when they could not (the runtime
        then answered with an error instead of calling)."""
        if is_error_map(self.response) and self.response["error"].get("type") == "InvalidToolArguments":
            return self.response["error"].get("message") or "not JSON"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "function_id": self.function_id, "args": self.args,
                "response": self.response, "confirmation": self.confirmed}


@dataclass
class TurnVerdict:
    failures: list[Failure] = field(default_factory=list)
    confusion: list[tuple[str, str]] = field(default_factory=list)
    reading: Reading | None = None  # the claim list the words verdict was computed from
    rules: Reading | None = None  # the rules' own, where a judge's decided
    rules_failures: list[Failure] = field(default_factory=list)  # what the rules' list alone would fail

    @property
    def passed(self) -> bool:
        return not self.failures

    def hear(self, rules: Reading, judged: Reading | None, situation: Situation, text: str) -> None:
        """The words verdict, from the judge's list where there is one, else the rules'."""
        if judged is not None:
            self.reading, self.rules = judged, rules
            self.rules_failures = words_failures(rules, situation, text)
        else:
            self.reading = rules
        self.failures += words_failures(self.reading, situation, text)


def score_turn(turn: Turn, calls: list[MadeCall], text: str, catalog: Catalog, run_date: dt.date,
               words: Words, asked: bool | None = None, facts: Facts | None = None,
               judged: Reading | None = None) -> TurnVerdict:
    """``text`` is the agent's last reply of the turn, ``words`` what the phrase rules read in it
    (sim/eval/claims.py), ``judged`` a judge model's claim list, which decides where given
    (sim/eval/judge.py), ``facts`` what the conversation returned, for the values the reply states
    (None: not checked). ``asked``: None when the runtime's HITL wrapper confirms destructive
    calls; in confirmation mode ``model``, whether the agent asked the user in words before acting
    (the simulated user's answer then marks the calls)."""
    verdict = TurnVerdict()
    allowed = {catalog.resolve(name).function_id for name in turn.allow}
    if turn.expects in ("abstain", "ask"):
        _score_no_action(turn, [c for c in calls if c.function_id not in allowed], text, catalog, words, facts,
                         judged, verdict)
    elif turn.expects == "calls":
        _score_calls(turn, calls, text, catalog, run_date, allowed, words, asked, facts, judged, verdict)
    return verdict


def answered_no(call: MadeCall) -> bool:
    """An action whose whole answer is ``false`` ("whether the order was cancelled": no) did not
    take effect, as a careful reader of that answer takes it; so a reply saying it was not done
    is true, and one saying it was is a false claim."""
    return call.response == {"result": False}


def _score_no_action(turn: Turn, acted: list[MadeCall], text: str, catalog: Catalog, words: Words,
                     facts: Facts | None, judged: Reading | None, verdict: TurnVerdict) -> None:
    # A read-only lookup the case allows (``list_lights`` before asking which light) is no action.
    kind = "no_question" if turn.ask else "extra_call"
    for call in acted:
        short = catalog.short(call.function_id)
        verdict.failures.append(Failure(kind, f"expected {'a question back' if turn.ask else 'no call'}, but "
                                        f"{call.name} was called", function=short, got=call.args))
        verdict.confusion.append((NO_CALL, short))
    if not acted:
        verdict.confusion.append((NO_CALL, NO_CALL))
    if turn.ask:
        verdict.hear(read_question(text, words), judged, Situation(ask_about=tuple(turn.about)), text)
    elif not acted:
        verdict.hear(read_without_calls(turn.user, text, words, facts), judged, Situation(no_app=True), text)


def _score_calls(turn: Turn, calls: list[MadeCall], text: str, catalog: Catalog, run_date: dt.date,
                 allowed: set[str], words: Words, asked: bool | None, facts: Facts | None, judged: Reading | None,
                 verdict: TurnVerdict) -> None:
    expected = [(e, catalog.resolve(e.function).function_id) for e in turn.calls or []]
    outcome = Outcome([], [], [])
    refused_in_words = set()  # declined in words, in confirmation mode model: no call at all
    if asked is not None:  # asked in words: a "no" means the call must not be made at all
        for wanted, function_id in [x for x in expected if x[0].confirmation == "required" and not x[0].approves]:
            expected.remove((wanted, function_id))
            outcome.undone.append((catalog.short(function_id), None))
            refused_in_words.add(catalog.short(function_id))
            if not asked:
                verdict.failures.append(Failure("no_question", f"{outcome.undone[-1][0]} needs the user's yes, but "
                                                "the agent did not ask", function=outcome.undone[-1][0]))
    costs = [[_pair_cost(wanted, function_id, call, catalog, run_date, allowed) for call in calls]
             for wanted, function_id in expected]
    extra = [0 if c.function_id in allowed else _UNPAIRED for c in calls]
    pairing = min_cost_pairing(costs, _UNPAIRED, extra)
    for (wanted, function_id), index in zip(expected, pairing):
        short = catalog.short(function_id)
        call = calls[index] if index is not None else None
        verdict.confusion.append((short, catalog.short(call.function_id) if call else NO_CALL))
        if call is None:
            verdict.failures.append(Failure("missing_call", f"{short} was not called", function=short))
            outcome.undone.append((short, None))
            continue
        if call.function_id != function_id:
            verdict.failures.append(Failure("wrong_function", f"expected {short}, but {call.name} was called",
                                            function=short, expected=short, got=catalog.short(call.function_id)))
            outcome.undone.append((short, None))
            continue
        verdict.failures += argument_problems(wanted, call, catalog, run_date, short)
        verdict.failures += confirmation_problems(wanted, call, short)
        verdict.failures += device_problems(wanted, call, short)
        if is_read(short):
            if call.happened and not wanted.error:
                outcome.reads.append((wanted, call))
            else:
                outcome.unanswered.append((short, call))
        elif call.happened and wanted.done and not answered_no(call):
            outcome.done.append((short, call))
        else:
            outcome.undone.append((short, call))
    paired = {i for i in pairing if i is not None}
    for i, call in enumerate(calls):
        if i not in paired and call.function_id not in allowed:
            verdict.failures.append(Failure("extra_call", f"unexpected call {call.name} {call.args}",
                                            function=catalog.short(call.function_id), got=call.args))
    # Only actions can be falsely claimed: a lookup that failed is a missing or refused call, no more.
    outcome.undone[:] = [(name, call) for name, call in outcome.undone if not is_read(name)]
    declined = [name for name, call in outcome.undone if call is None and name in refused_in_words
                or call is not None and call.confirmed is False]
    situation = Situation(tuple(name for name, _ in outcome.done), tuple(name for name, _ in outcome.undone),
                          bool(outcome.undone) and len(declined) == len(outcome.undone))
    made = [(call.function_id, json.dumps(call.args, sort_keys=True, default=str)) for call in calls]
    outcome = replace(outcome, tried_again=len(set(made)) < len(made))  # a failure or a retry told may be true
    verdict.hear(read_about_calls(outcome, text, words, facts), judged, situation, text)


def _pair_cost(wanted: ExpectedCall, function_id: str, call: MadeCall, catalog: Catalog, run_date: dt.date,
               allowed: set[str]) -> float:
    if call.function_id != function_id:
        # An allowed lookup is never taken for a wrong answer to an expected call.
        return UNPAIRABLE if call.function_id in allowed else _WRONG_FUNCTION
    problems = argument_problems(wanted, call, catalog, run_date, "")
    if problems:  # the fewer problems, the nearer the miss (and the clearer the failures reported)
        return _WRONG_ARGS + len(problems) / 100
    return _REJECTED if device_problems(wanted, call, "") else _EXACT


def argument_problems(wanted: ExpectedCall, call: MadeCall, catalog: Catalog, run_date: dt.date,
                      short: str) -> list[Failure]:
    if call.unreadable_arguments:  # one failure that says so, not a missing argument for each
        return [Failure("wrong_type", f"{short}: the arguments are not JSON: {call.unreadable_arguments}",
                        function=short, got=call.unreadable_arguments)]
    schema = catalog.functions[call.function_id].parameters if call.function_id in catalog.functions else {}
    properties = schema.get("properties", {}) or {}
    problems = [Failure("wrong_value", f"{short}: required argument {name} is missing", function=short,
                        argument=name, expected="a value")
                for name in schema.get("required", []) or []
                if name not in call.args and not (name in wanted.args and wanted.args[name].kind == "absent")]
    for name, value in call.args.items():
        if name not in properties:
            problems.append(Failure("wrong_type", f"{short}: unknown argument {name}", function=short,
                                    argument=name, got=value))
        elif not type_matches(value, properties[name]):
            kind = properties[name].get("type")
            problems.append(Failure("wrong_type", f"{short}: {name}: {value!r} is not of type {kind}",
                                    function=short, argument=name, expected=kind, got=value))
        elif not enum_matches(value, properties[name]):
            allowed = properties[name]["enum"]
            problems.append(Failure("wrong_value", f"{short}: {name}: {value!r} is not one of the allowed values "
                                    f"{', '.join(map(str, allowed))}", function=short, argument=name,
                                    expected=allowed, got=value))
    return problems + matcher_problems(wanted, call.args, run_date, short)


def matcher_problems(wanted: ExpectedCall, args: dict[str, Any], run_date: dt.date, short: str) -> list[Failure]:
    """The arguments the case's matchers refuse (the schema aside)."""
    problems = []
    for name, matcher in wanted.args.items():
        problem = matcher.check(args.get(name), name in args, run_date)
        if problem:
            problems.append(Failure("wrong_value", f"{short}: {name}: {problem}", function=short, argument=name,
                                    expected=matcher.describe(), got=args.get(name)))
    return problems


def confirmation_problems(wanted: ExpectedCall, call: MadeCall, short: str) -> list[Failure]:
    if wanted.confirmation == "required" and call.confirmed is None:
        return [Failure("no_question", f"{short} ran without asking the user first", function=short)]
    if wanted.confirmation == "not-required" and call.confirmed is not None:
        return [Failure("extra_call", f"{short} asked for a confirmation it does not need", function=short)]
    return []


def device_problems(wanted: ExpectedCall, call: MadeCall, short: str) -> list[Failure]:
    """The device's answer against the case: an error only where the case expects that error."""
    got = call.error_name
    if call.confirmed is False or got == wanted.error or call.unreadable_arguments:
        return []
    if got is None:
        return [Failure("rejected_by_device", f"{short}: expected the device to answer {wanted.error}, but the "
                        "call succeeded", function=short, expected=wanted.error, got=call.response)]
    message = call.response["error"].get("message", "")
    return [Failure("rejected_by_device", f"{short}: the device answered {got}: {message}", function=short,
                    expected=wanted.error, got=got)]


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
            return True
    return False


def enum_matches(value: Any, schema: dict[str, Any]) -> bool:
    """A value of the right type that the parameter's ``enum`` (if any) allows."""
    return "enum" not in schema or value is None or value in schema["enum"]
