"""One case, one trial: set up the device, talk to the agent turn by turn, check the state.

The agent is the runtime's own (droid.agent): the suite's agent app discovers
the functions it may call. Confirmation mode ``runtime`` wraps destructive ones
in the HITL confirmation, and the simulated user answers it; mode ``model``
gives the model the bare tools, so it must ask in words, and the simulated user
answers in the next message. Either way the user says yes only to a call the
case expects, with the arguments it expects, and then what the case says
(``answer:``). Setup calls, state checks and probes run as the shell, so they
are not the agent's calls and never need its access.

Each reply is heard by ``Ears``: the phrase rules read what it says, and what the
conversation has returned so far is what its values are held to (sim/eval/telling.py);
with a judge model, the judge is sent the conversation and its calls and reads it too,
and its reading decides. Each trial then has two verdicts (sim/eval/verdicts.py): the
task's (calls, the device's answers, state) and the words' (what the agent told the
user, named by its reader, with the failures of checks measured above 2 % error kept as
doubtful), and a combined one. Before the conversation, retrieval ranks each expected
function among all the agent may call (sim/eval/retrieval.py).

A case that crashes (the model server's errors after its retries, a timeout,
a crash of the agent or its tools) gets an ``infra_error`` instead of a
verdict; only a model server that cannot be reached (``ModelUnavailable``)
stops the run. A context overflow of the model's own output is a verdict on
the model (``context_overflow``), not an error.
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
from droid.agent.errors import ContextLengthExceededError
from sim.eval.catalog import Catalog
from sim.eval.claim_list import Reading
from sim.eval.claims import Reader, Words
from sim.eval.devices import EvalDevice
from sim.eval.facts import Known, told_of
from sim.eval.judge import Judge
from sim.eval.matchers import resolve_dates
from sim.eval.measured_error import RULES, doubtful_checks
from sim.eval.models import TimedModel, case_model, server_down
from sim.eval.bounded_regex import PatternTimeout
from sim.eval.phrases import Cues, reply_language
from sim.eval.retrieval import rank_expected
from sim.eval.scoring import NO_CALL, MadeCall, TurnVerdict, matcher_problems, score_turn
from sim.eval.suite import Call, Case, Suite, Turn
from sim.eval.taxonomy import Failure, infra_error
from sim.eval.telling import Facts, action_of
from sim.eval.values import fit_arguments
from sim.eval.verdicts import FAIL, PASS, combine, split_turns

MAX_TURNS = 5
CONFIRMATION_MODES = ("runtime", "model")


class ModelUnavailable(RuntimeError):
    """The model server is down: the run stops, keeping the cases already done."""


@dataclass
class CaseResult:
    case_id: str
    category: str
    trial: int
    passed: bool  # the combined verdict is a pass
    confirmation_mode: str = "runtime"
    verdict: str = FAIL  # combined: pass, fail or doubtful (sim/eval/verdicts.py)
    task: dict[str, Any] | None = None  # the task verdict: passed, failures, by
    words: dict[str, Any] | None = None  # the words verdict: verdict, reader, failures, doubtful
    failures: list[str] = field(default_factory=list)  # every reason, in words
    state_failures: list[str] = field(default_factory=list)
    recovered: bool = False  # the final state is right, whatever the strict verdict
    infra_error: dict[str, str] | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    confusion: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    model_seconds: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    retrieval: list[dict[str, Any]] | None = None  # each expected function's BM25 rank (sim/eval/retrieval.py)

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
    confirmation_mode: str = "runtime"
    model_options: dict[str, Any] = field(default_factory=dict)  # for openai:NAME (stream, read_timeout...)
    agent_options: dict[str, Any] = field(default_factory=dict)  # Agent fields (tool_choice...)
    judge_model: str | None = None  # reads the replies instead of the phrase rules (sim/eval/judge.py)

    @property
    def reader(self) -> str:
        """Who reads the agent's words: the phrase rules, or the judge model."""
        return f"judge {self.judge_model}" if self.judge_model else RULES


def run_case(suite: Suite, case: Case, device: EvalDevice, settings: RunSettings, trial: int = 0) -> CaseResult:
    """Run one trial of ``case`` on a device that was just reset."""
    started = time.perf_counter()
    result = CaseResult(case.id, case.category, trial, passed=False, confirmation_mode=settings.confirmation_mode)
    timed: TimedModel | None = None
    try:
        timed = asyncio.run(_converse(suite, case, device, settings, result))
    except PatternTimeout:  # the suite's own pattern, in every case alike: the run stops naming it
        raise
    except Exception as error:  # noqa: BLE001 - infrastructure, not a verdict: the run goes on
        if server_down(error):
            raise ModelUnavailable(str(error)) from error
        result.infra_error = infra_error(error)
        result.turns.append({"traceback": traceback.format_exc(limit=6)})
    result.seconds = time.perf_counter() - started
    if timed is not None:
        result.model_seconds, result.tokens, result.warnings = timed.seconds, timed.tokens, timed.warnings
    if result.infra_error is None:
        task, words = split_turns(result.turns, result.state_failures, settings.reader, doubtful_checks(settings.reader))
        result.task, result.words, result.verdict = task.to_dict(), words.to_dict(), combine(task, words)
    result.passed = result.infra_error is None and result.verdict == PASS
    result.recovered = result.infra_error is None and (
        not result.state_failures if (case.state or case.unchanged) else result.passed)
    return result


async def _converse(suite: Suite, case: Case, device: EvalDevice, settings: RunSettings, result: CaseResult) -> TimedModel:
    shell_tools = {t.function_id: t for t in AppFunctionAgentTools.discover(device.shell)}
    catalog = Catalog(shell_tools.values())
    for call in case.setup:
        try:
            await _shell_call(shell_tools, catalog, call, settings.run_date)
        except Exception as error:  # noqa: BLE001 - the suite's own call failed: say which
            raise RuntimeError(f"setup call {call.function} {call.args} failed: {error}") from error
    before = await _snapshot(shell_tools, catalog, suite.probes, settings.run_date) if case.unchanged else None

    tools = AppFunctionAgentTools.discover(device.agent)
    result.retrieval = rank_expected(case, tools, catalog)
    user = SimulatedUser(catalog, {t.name: t.function_id for t in tools}, settings.run_date)
    model_mode = settings.confirmation_mode == "model"
    model = TimedModel(case_model(settings.model, case, catalog, {t.function_id: t.name for t in tools},
                                  settings.run_date, settings.base_url, settings.api_key,
                                  model_mode=model_mode, options=settings.model_options))
    agent = Agent(name=suite.agent, instructions=DEFAULT_INSTRUCTIONS,
                  tools=tools if model_mode else require_confirmation(tools, user.confirm), max_turns=MAX_TURNS,
                  **settings.agent_options)
    languages = ["en", case.language or "en"]
    judge = Judge(settings.judge_model, settings.base_url, settings.api_key) if settings.judge_model else None
    ears = Ears(Reader(Cues.of(languages, suite.phrase_cues()), languages), judge,
                Known(settings.run_date, told=told_of(tools)), case.language or "en")
    runner = AgentRunner(agent, model)
    try:
        session = runner.create_session()
        for turn in case.turns:
            try:
                record, verdict = await _play_turn(session, turn, user, ears, model_mode, catalog, settings.run_date)
            except ContextLengthExceededError as overflow:
                if model.own_overflow is None:
                    raise  # the suite's conversation or tools do not fit: no verdict on the model
                record, verdict = _overflowed(turn, model.own_overflow, settings.model, catalog,
                                              getattr(overflow, "calls_before", []))
            result.failures += [f.detail for f in verdict.failures]
            result.confusion += verdict.confusion
            result.turns.append(record)
            if not record["passed"] and record.get("overflowed"):
                break  # the conversation cannot go on
    finally:
        await runner.aclose()
        if judge is not None:
            await judge.aclose()

    for check in case.state:
        result.state_failures += await _state_check(shell_tools, catalog, check, settings.run_date)
    if before is not None:
        after = await _snapshot(shell_tools, catalog, suite.probes, settings.run_date)
        checked = {_key(catalog, s.call()) for s in case.state}
        for key, value in before.items():
            if key not in checked and after[key] != value:
                function_id, args = key
                result.state_failures.append(f"something else changed: {catalog.short(function_id)} {args} was "
                                             f"{json.dumps(value, ensure_ascii=False)}, now "
                                             f"{json.dumps(after[key], ensure_ascii=False)}")
    result.failures += result.state_failures
    return model


@dataclass
class Ears:
    """How a case's replies are read: the phrase rules (and a judge model, which is sent the
    conversation) and what the conversation has returned so far, in the case's language."""

    reader: Reader
    judge: Judge | None
    known: Known
    language: str  # the case's

    async def hear(self, turn: Turn, calls: list[MadeCall], text: str, catalog: Catalog, said: list[str],
                   asked: str | None = None) -> tuple[Words, Facts, Reading | None]:
        """What the rules read in the reply, the facts it is held to, and the judge's claim list (on
        a turn the case checks, with a judge); the conversation so far learns this turn. ``asked``:
        the agent's question before acting, in confirmation mode ``model``."""
        self.known.said += said
        for call in calls:
            if call.happened:
                self.known.add_result(catalog.functions[call.function_id].response, call.response, call.args)
        action = action_of(turn, calls, catalog)
        words = self.reader.read(text, action, turn.user)
        judged = None
        if self.judge is not None and turn.expects is not None:
            judged = await self.judge.read(said, calls, text, asked)
        elif self.judge is not None:
            self.judge.remember(said, calls, text, asked)
        language = reply_language(text, self.language)
        return words, Facts(self.known, self.reader.cues, language, tuple(action.with_request(turn.user).words())), judged


async def _play_turn(session: Any, turn: Turn, user: "SimulatedUser", ears: Ears, model_mode: bool, catalog: Catalog,
                     run_date: dt.date) -> tuple[dict[str, Any], TurnVerdict]:
    """The user's message, the agent's answer (and, in confirmation mode ``model``, the user's
    reply when the agent asked first), and the turn's verdict; the turn's record."""
    user.turn = turn
    calls, text, notes = await _turn(session, turn.user, user.answers)
    record: dict[str, Any] = {"user": turn.user}
    said = [turn.user]
    asked, question = None, None
    if model_mode:
        asked, reply = user.answer_in_words(calls, text, ears.reader.cues)
        if reply is not None:
            question = text
            more, text_after, more_notes = await _turn(session, reply.reply_text, {})
            for call in more:  # asked first: a yes confirms what follows; after a no, nothing was confirmed
                call.confirmed = True if reply.approves else None
            record["reply"] = {"user": reply.reply_text, "text_before": text}
            said.append(reply.reply_text)
            calls, text, notes = calls + more, text_after, notes + more_notes
    words, facts, judged = await ears.hear(turn, calls, text, catalog, said, question)
    verdict = score_turn(turn, calls, text, catalog, run_date, words, asked, facts, judged)
    record.update({"calls": [c.to_dict() for c in calls], "text": text, "notes": notes,
                   "words": verdict.reading.to_dict() if verdict.reading else None,
                   "passed": verdict.passed, "failures": [f.to_dict() for f in verdict.failures]})
    if verdict.rules is not None:  # the rules' reading beside the judge's, and what it alone would fail
        record["rules"] = {**verdict.rules.to_dict(), "failures": [f.to_dict() for f in verdict.rules_failures]}
    return record, verdict


def _overflowed(turn: Turn, why: str, model: str, catalog: Catalog,
                calls: list[MadeCall]) -> tuple[dict[str, Any], TurnVerdict]:
    """A turn the model could not finish because its own output filled its context: the model's
    failure, counted in the rates and never retried (a model that runs on would run on again);
    its record keeps the calls it made before (they ran on the device)."""
    failure = Failure("context_overflow", f"{model}: {why}; the conversation could not go on")
    expected = [catalog.short(catalog.resolve(c.function).function_id) for c in turn.calls or []]
    verdict = TurnVerdict([failure], [(name, NO_CALL) for name in expected] or [(NO_CALL, NO_CALL)])
    return {"user": turn.user, "calls": [c.to_dict() for c in calls], "text": "", "passed": False,
            "overflowed": True, "failures": [failure.to_dict()]}, verdict


class SimulatedUser:
    """Answers the agent as the case says. Asked to confirm a call, it says the case's ``answer``
    (yes unless the case says no) only to a call the turn expects, with arguments the case's
    matchers accept; any other call gets no, as a person who never asked for it would answer.
    ``answers`` records each answer by call id."""

    def __init__(self, catalog: Catalog, function_ids: dict[str, str], run_date: dt.date) -> None:
        self.catalog = catalog
        self.function_ids = function_ids
        self.run_date = run_date
        self.turn: Any = None
        self.answers: dict[str, bool] = {}

    def confirm(self, name: str, args: dict[str, Any]) -> bool:
        function_id = self.function_ids.get(name)
        answer = next((c.approves for c in self.turn.calls or []
                       if self.catalog.resolve(c.function).function_id == function_id
                       and not matcher_problems(c, dict(args), self.run_date, "")), False)
        context = current_tool_context()
        self.answers[context.call_id if context else name] = answer
        return answer

    def answer_in_words(self, calls: list[MadeCall], text: str, cues: Cues) -> tuple[bool, Any]:
        """Confirmation mode ``model``: did the agent ask before a call that needs the user's yes,
        and which expected call's ``reply`` the user now gives (None: no reply is due)."""
        needing = [c for c in self.turn.calls or [] if c.confirmation == "required"]
        if not needing:
            return False, None
        ids = {self.catalog.resolve(c.function).function_id for c in needing}
        if any(call.function_id in ids for call in calls) or not cues.asks(text):
            return False, None
        return True, needing[0]


async def _turn(session: Any, prompt: str, confirmations: dict[str, bool]) -> tuple[list[MadeCall], str, list[str]]:
    calls: dict[str, MadeCall] = {}
    texts: list[str] = []
    notes: list[str] = []
    try:
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
    except ContextLengthExceededError as overflow:
        overflow.calls_before = list(calls.values())  # they ran: the turn's record keeps them
        raise
    return list(calls.values()), "\n".join(texts), notes


async def _shell_call(tools: dict[str, Any], catalog: Catalog, call: Call, run_date: dt.date) -> dict[str, Any]:
    function = catalog.resolve(call.function)
    return await tools[function.function_id].execute(fit_arguments(resolve_dates(call.args, run_date),
                                                                   function.parameters))


def _key(catalog: Catalog, call: Call) -> tuple[str, str]:
    return (catalog.resolve(call.function).function_id, json.dumps(call.args, sort_keys=True, ensure_ascii=False))


async def _snapshot(tools: dict[str, Any], catalog: Catalog, probes: list[Call], run_date: dt.date) -> dict[tuple, Any]:
    state = {}
    for probe in probes:
        try:
            state[_key(catalog, probe)] = await _shell_call(tools, catalog, probe, run_date)
        except Exception as error:  # noqa: BLE001 - an error is a state too (the note is not there)
            state[_key(catalog, probe)] = {"error": type(error).__name__}
    return state


async def _state_check(tools: dict[str, Any], catalog: Catalog, check: Any, run_date: dt.date) -> list[str]:
    label = f"state {check.function} {check.args}"
    try:
        value = await _shell_call(tools, catalog, check.call(), run_date)
    except Exception as error:  # noqa: BLE001 - an AppFunctionException, compared by code name
        name = getattr(error, "error_name", type(error).__name__)
        if check.error is not None and name == check.error:
            return []
        return [f"{label}: failed with {name}: {error}" + (f" (expected {check.error})" if check.error else "")]
    if check.error is not None:
        return [f"{label}: expected {check.error}, got {value}"]
    problem = check.expect.check(value, True, run_date)
    return [f"{label}: {problem}"] if problem else []
