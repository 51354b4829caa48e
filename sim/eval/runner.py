"""One case, one trial: set up the device, talk to the agent turn by turn, check the state.

The agent is the runtime's own (droid.agent): the suite's agent app discovers
the functions it may call, destructive ones are wrapped in the HITL
confirmation, and a case's scripted answer (``answer:``) is what the user
says when asked. Setup calls, state checks and probes run as the shell, so
they are not the agent's calls and never need its access.

A case that crashes the agent or its tools is failed with the error; only a
model server that cannot be reached (``ModelUnavailable``) stops the run.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any

from droid.agent import (
    Agent,
    AgentRunner,
    AppFunctionAgentTools,
    FunctionCall,
    FunctionResponse,
    MaxTurnsReached,
    TextMessage,
    current_tool_context,
    require_confirmation,
)
from droid.agent.console import DEFAULT_INSTRUCTIONS
from sim.eval.catalog import Catalog
from sim.eval.devices import EvalDevice
from sim.eval.models import TimedModel, case_model, server_down
from sim.eval.scoring import MadeCall, score_turn
from sim.eval.suite import Call, Case, Suite
from sim.eval.values import fit_arguments

MAX_TURNS = 5


class ModelUnavailable(RuntimeError):
    """The model server is down: the run stops, keeping the cases already done."""


@dataclass
class CaseResult:
    case_id: str
    category: str
    trial: int
    passed: bool
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    confusion: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    model_seconds: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["confusion"] = [list(p) for p in self.confusion]
        return data


@dataclass(frozen=True)
class RunSettings:
    model: str
    run_date: dt.date
    base_url: str | None = None
    api_key: str | None = None


def run_case(suite: Suite, case: Case, device: EvalDevice, settings: RunSettings, trial: int = 0) -> CaseResult:
    """Run one trial of ``case`` on a device that was just reset."""
    started = time.perf_counter()
    result = CaseResult(case.id, case.category, trial, passed=False)
    timed: TimedModel | None = None
    try:
        timed = asyncio.run(_converse(suite, case, device, settings, result))
    except Exception as error:  # noqa: BLE001 - a crash fails this case, and the run goes on
        if server_down(error):
            raise ModelUnavailable(str(error)) from error
        result.error = f"{type(error).__name__}: {error}"
        result.failures.append(f"the case crashed: {result.error}")
        result.turns.append({"traceback": traceback.format_exc(limit=6)})
    result.seconds = time.perf_counter() - started
    if timed is not None:
        result.model_seconds, result.tokens, result.warnings = timed.seconds, timed.tokens, timed.warnings
    result.passed = not result.failures
    return result


async def _converse(suite: Suite, case: Case, device: EvalDevice, settings: RunSettings, result: CaseResult) -> TimedModel:
    shell_tools = {t.function_id: t for t in AppFunctionAgentTools.discover(device.shell)}
    catalog = Catalog(shell_tools.values())
    for call in case.setup:
        try:
            await _shell_call(shell_tools, catalog, call)
        except Exception as error:  # noqa: BLE001 - the suite's own call failed: say which
            raise RuntimeError(f"setup call {call.function} {call.args} failed: {error}") from error
    before = await _snapshot(shell_tools, catalog, suite.probes) if case.unchanged else None

    tools = AppFunctionAgentTools.discover(device.agent)
    user = SimulatedUser(catalog, {t.name: t.function_id for t in tools})
    model = TimedModel(case_model(settings.model, case, catalog, {t.function_id: t.name for t in tools},
                                  settings.run_date, settings.base_url, settings.api_key))
    agent = Agent(name=suite.agent, instructions=DEFAULT_INSTRUCTIONS,
                  tools=require_confirmation(tools, user.confirm), max_turns=MAX_TURNS)
    runner = AgentRunner(agent, model)
    try:
        session = runner.create_session()
        for turn in case.turns:
            user.turn = turn
            calls, text, notes = await _turn(session, turn.user, user.answers)
            verdict = score_turn(turn, calls, text, catalog, settings.run_date)
            result.failures += verdict.failures
            result.confusion += verdict.confusion
            result.turns.append({"user": turn.user, "calls": [c.to_dict() for c in calls], "text": text,
                                 "notes": notes, "failures": verdict.failures})
    finally:
        await runner.aclose()

    for check in case.state:
        result.failures += await _state_check(shell_tools, catalog, check, settings.run_date)
    if before is not None:
        after = await _snapshot(shell_tools, catalog, suite.probes)
        checked = {_key(catalog, s.call()) for s in case.state}
        for key, value in before.items():
            if key not in checked and after[key] != value:
                function_id, args = key
                result.failures.append(f"something else changed: {catalog.short(function_id)} {args} was "
                                       f"{json.dumps(value, ensure_ascii=False)}, now "
                                       f"{json.dumps(after[key], ensure_ascii=False)}")
    return model


class SimulatedUser:
    """Answers the agent's confirmations as the case says: an expected call gets its ``answer``
    (yes unless the case says no); a call the turn does not expect gets no, as a person who
    never asked for it would answer. ``answers`` records each answer by call id."""

    def __init__(self, catalog: Catalog, function_ids: dict[str, str]) -> None:
        self.catalog = catalog
        self.function_ids = function_ids
        self.turn: Any = None
        self.answers: dict[str, bool] = {}

    def confirm(self, name: str, args: dict[str, Any]) -> bool:
        function_id = self.function_ids.get(name)
        answer = next((c.approves for c in self.turn.calls or []
                       if self.catalog.resolve(c.function).function_id == function_id), False)
        context = current_tool_context()
        self.answers[context.call_id if context else name] = answer
        return answer


async def _turn(session: Any, prompt: str, confirmations: dict[str, bool]) -> tuple[list[MadeCall], str, list[str]]:
    calls: dict[str, MadeCall] = {}
    texts: list[str] = []
    notes: list[str] = []
    async for event in session.run(prompt):
        if isinstance(event, FunctionCall):
            calls[event.id] = MadeCall(event.name, event.function_id, dict(event.args))
        elif isinstance(event, FunctionResponse) and event.id in calls:
            calls[event.id].response = event.response
            calls[event.id].confirmed = confirmations.get(event.id)
        elif isinstance(event, TextMessage) and not event.partial:
            texts.append(event.text)
        elif isinstance(event, MaxTurnsReached):
            notes.append(f"stopped at max_turns ({event.max_turns})")
    return list(calls.values()), "\n".join(texts), notes


async def _shell_call(tools: dict[str, Any], catalog: Catalog, call: Call) -> dict[str, Any]:
    function = catalog.resolve(call.function)
    return await tools[function.function_id].execute(fit_arguments(call.args, function.parameters))


def _key(catalog: Catalog, call: Call) -> tuple[str, str]:
    return (catalog.resolve(call.function).function_id, json.dumps(call.args, sort_keys=True, ensure_ascii=False))


async def _snapshot(tools: dict[str, Any], catalog: Catalog, probes: list[Call]) -> dict[tuple, Any]:
    state = {}
    for probe in probes:
        try:
            state[_key(catalog, probe)] = await _shell_call(tools, catalog, probe)
        except Exception as error:  # noqa: BLE001 - an error is a state too (the note is not there)
            state[_key(catalog, probe)] = {"error": type(error).__name__}
    return state


async def _state_check(tools: dict[str, Any], catalog: Catalog, check: Any, run_date: dt.date) -> list[str]:
    label = f"state {check.function} {check.args}"
    try:
        value = await _shell_call(tools, catalog, check.call())
    except Exception as error:  # noqa: BLE001 - an AppFunctionException, compared by code name
        name = getattr(error, "error_name", type(error).__name__)
        if check.error is not None and name == check.error:
            return []
        return [f"{label}: failed with {name}: {error}" + (f" (expected {check.error})" if check.error else "")]
    if check.error is not None:
        return [f"{label}: expected {check.error}, got {value}"]
    problem = check.expect.check(value, True, run_date)
    return [f"{label}: {problem}"] if problem else []
