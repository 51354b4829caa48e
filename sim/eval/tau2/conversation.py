"""One τ² task, one trial: the user and the agent talk on a device just reset, then the outcome is judged.

The conversation runs as τ²'s orchestrator runs it. The agent greets ("Hi! How can I help you
today?"), the user answers, and from then on each user message is a prompt to the agent, which
may call the domain's functions any number of times before it answers; its answer goes back to
the user. The user ends the conversation (sim/eval/user_simulator.py: done, transferred, out of
scope), or the agent does (``###STOP###``), or a limit does: ``max_steps`` messages (a user
message, an agent message, one batch of call results: one step each; τ²'s default is 200) or
``max_errors`` calls that failed (10). A conversation cut off by a limit earns nothing.

The agent is the runtime's own (droid.agent), run as the eval's agent app: it discovers the
functions it may call through AppFunctions like any agent app, with the access that app holds,
and reads the domain's policy as its instructions. Its model is never told the task.

Afterwards the app's database is read from its storage and judged against the gold actions'
end state (sim/eval/outcome.py). On a task that a do-nothing agent passes, its replies are read
by the word rules (sim/eval/claims.py) for claims of a change, which did not happen.
"""

from __future__ import annotations

import asyncio
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
)
from droid.agent.errors import is_error_map
from sim.eval.assertion_judge import AssertionJudge
from sim.eval.claims import Action, Reader
from sim.eval.models import TimedModel, server_down
from sim.eval.outcome import NL_ASSERTION, MadeCall, does_nothing, judge_outcome
from sim.eval.phrases import Cues
from sim.eval.runner import ModelUnavailable
from sim.eval.scoring import NO_CALL
from sim.eval.taxonomy import Failure, infra_error
from sim.eval.tau2.agents import AGENT_STOP, agent_model
from sim.eval.user_simulator import ModelUser, ScriptedUser, UserModelError, ending_of

GREETING = "Hi! How can I help you today?"
MAX_STEPS = 200  # τ²'s default
MAX_ERRORS = 10
INSTRUCTIONS = """You are a customer service agent. Help the user as the policy below allows, and only as it \
allows. Each of your turns either writes to the user or calls tools: never both at once. Tell the user what \
you find and what you do; never make up information the tools did not give you.

<policy>
{policy}
</policy>"""


@dataclass
class Tau2Result:
    """One record of results.jsonl: the fields eval's summary and report read, and the outcome."""

    case_id: str
    category: str
    trial: int
    passed: bool = False
    confirmation_mode: str = "model"  # the policy has the model ask the user before it writes
    failures: list[str] = field(default_factory=list)
    state_failures: list[str] = field(default_factory=list)
    recovered: bool = False  # the database matched, whatever else
    infra_error: dict[str, str] | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    confusion: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    model_seconds: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    retrieval: None = None
    reward: float | None = None  # τ²'s
    outcome: dict[str, Any] | None = None
    steps: int = 0
    # eval's two verdicts (sim/eval/verdicts.py): the task's is the outcome, the words' the closing
    # reply read on a task a do-nothing agent passes; ``verdict`` is both together.
    task: dict[str, Any] | None = None
    words: dict[str, Any] | None = None
    verdict: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["confusion"] = [list(pair) for pair in self.confusion]
        return data


@dataclass
class _Turn:
    user: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    text: str = ""
    failures: list[dict[str, Any]] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        return {"user": self.user, "calls": self.calls, "text": self.text, "passed": not self.failures,
                "failures": self.failures}


def run_task(suite: Any, case: Any, device: Any, settings: Any, trial: int) -> Tau2Result:
    """``suite``: the run's Tau2Suite (sim/eval/tau2/run.py); ``device`` just reset."""
    started = time.perf_counter()
    result = Tau2Result(case.id, case.category, trial)
    timed: list[TimedModel] = []
    try:
        asyncio.run(_converse(suite, case, device, settings, trial, result, timed))
    except Exception as error:  # noqa: BLE001 - infrastructure, not a verdict: the run goes on
        if server_down(error):
            raise ModelUnavailable(str(error)) from error
        result.infra_error = infra_error(error)
        result.turns.append({"traceback": traceback.format_exc(limit=6)})
        result.passed = False
    result.seconds = time.perf_counter() - started
    if timed:
        result.model_seconds, result.tokens, result.warnings = timed[0].seconds, timed[0].tokens, timed[0].warnings
    return result


async def _converse(suite: Any, case: Any, device: Any, settings: Any, trial: int, result: Tau2Result,
                    timed: list[TimedModel]) -> None:
    domain = suite.domain
    await asyncio.to_thread(domain.prepare, device)
    tools = AppFunctionAgentTools.discover(device.agent)
    by_name = {tool.name: tool for tool in tools}
    model = TimedModel(agent_model(settings.model, case, lambda name, args: domain.tool_call(name, args, tools),
                                   settings.base_url, settings.api_key, settings.model_options))
    timed.append(model)
    agent = Agent(name=suite.agent, instructions=INSTRUCTIONS.format(policy=domain.policy), tools=tools,
                  **settings.agent_options)
    user = _user(suite, case, trial, settings)
    runner = AgentRunner(agent, model)
    judge = None
    try:
        turns, ending = await _talk(runner, agent, user, suite, by_name, domain, result)
        start, gold_state, run_state, gold_errors = await asyncio.to_thread(domain.outcome_states, device, case)
        calls = [MadeCall(c["tau2"]["name"], c["tau2"]["arguments"], c["writes"], c["failed"])
                 for turn in turns for c in turn.calls]
        told = [GREETING] + [turn.text for turn in turns]
        assertions = None
        if settings.judge_model and case.criteria.nl_assertions and NL_ASSERTION in case.criteria.reward_basis:
            judge = AssertionJudge(settings.judge_model, settings.base_url, settings.api_key)
            assertions = await judge.judge(_transcript(turns), list(case.criteria.nl_assertions))
        claims = _claims(turns, tools, domain) if does_nothing(case.criteria, start, gold_state) else []
        outcome = judge_outcome(case.criteria, ending, start, gold_state, run_state, calls, told, assertions, claims)
    finally:
        await runner.aclose()
        await user.aclose()
        if judge is not None:
            await judge.aclose()
    result.confusion = _path_pairs(outcome.gold, turns)
    result.turns = [turn.record() for turn in turns]
    result.reward, result.outcome = outcome.reward, {**outcome.to_dict(), "gold_errors": gold_errors}
    result.passed = outcome.passed
    result.task, result.words, result.verdict = _verdicts(outcome, case)
    result.recovered = bool(outcome.checks.get("DB", outcome.diff.matches))
    result.failures = outcome.reasons()
    result.state_failures = [f"database: {finding.text()}" for finding in outcome.diff.findings]


async def _talk(runner: AgentRunner, agent: Agent, user: Any, suite: Any, by_name: dict[str, Any], domain: Any,
                result: Tau2Result) -> tuple[list[_Turn], str]:
    """The conversation, turn by turn, and how it ended."""
    session = runner.create_session()
    turns: list[_Turn] = []
    said, transferred, errors = GREETING, False, 0
    while True:
        text = await user.reply(said, transferred)
        result.steps += 1
        turn = _Turn(text)
        turns.append(turn)
        ending = ending_of(text)
        if ending:
            return turns, ending
        if result.steps >= suite.max_steps:
            return turns, "max_steps"
        agent.max_turns = max(1, (suite.max_steps - result.steps) // 2)
        stopped = await _agent_turn(session, turn, by_name, domain, result)
        errors += sum(call["failed"] for call in turn.calls)
        if AGENT_STOP in turn.text:
            return turns, "agent_stop"
        if errors >= suite.max_errors:
            return turns, "too_many_errors"
        if stopped or result.steps >= suite.max_steps:
            return turns, "max_steps"
        said = turn.text
        transferred = any(c["tau2"]["name"] == domain.transfer_tool and not c["failed"] for c in turn.calls)


async def _agent_turn(session: Any, turn: _Turn, by_name: dict[str, Any], domain: Any, result: Tau2Result) -> bool:
    """The agent's answer to one user message: its calls (a batch of calls and their results is
    two steps), its words (one step). True when it ran out of steps mid-answer."""
    calls: dict[str, dict[str, Any]] = {}
    texts: list[str] = []
    answered = True
    stopped = False
    async for event in session.run(turn.user):
        if isinstance(event, FunctionCall):
            if answered:
                result.steps += 2
                answered = False
            tool = by_name.get(event.name)
            name, arguments = domain.tau2_call(tool, dict(event.args)) if tool else (event.name, dict(event.args))
            calls[event.id] = {"name": event.name, "function_id": event.function_id, "args": dict(event.args),
                               "tau2": {"name": name, "arguments": arguments}, "writes": domain.writes(name)}
        elif isinstance(event, FunctionResponse) and event.id in calls:
            answered = True
            calls[event.id].update(response=event.response, failed=is_error_map(event.response))
        elif isinstance(event, TextMessage) and not event.partial:
            texts.append(event.text)
        elif isinstance(event, MaxTurnsReached):
            stopped = True
    result.steps += 1
    for call in calls.values():
        call.setdefault("response", None)
        call.setdefault("failed", True)  # asked for, never run (the step limit came first)
    turn.calls, turn.text = list(calls.values()), "\n".join(texts)
    return stopped


def _verdicts(outcome: Any, case: Any) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The outcome as eval's task verdict, the closing reply's reading as its words verdict."""
    claimed = [f"a change claimed where none happened: {claim!r}" for claim in outcome.false_claims]
    task = {"passed": None if outcome.reward is None else outcome.reward == 1.0,
            "failures": [r for r in outcome.reasons() if r not in claimed],
            "by": "τ² outcome (" + ", ".join(case.criteria.reward_basis) + ")"}
    reader = ("rules, the closing reply (a do-nothing agent passes this task)" if outcome.do_nothing_passes
              else "none (the database decides: the task changes it)")
    words = {"verdict": "fail" if claimed else "pass", "reader": reader, "failures": claimed, "doubtful": []}
    return task, words, {"passed": "pass", "failed": "fail"}.get(outcome.verdict, outcome.verdict)


def _user(suite: Any, case: Any, trial: int, settings: Any) -> Any:
    spec = suite.user_model
    if spec.startswith("openai"):
        return ModelUser(spec, case.scenario, suite.user_base_url or settings.base_url, settings.api_key)
    turns = case.turns_for(trial) if spec != "scripted" else (case.reason,)
    if turns is None:
        raise UserModelError(f"the scripted user {spec} has no turns for task {case.id} trial {trial}")
    return ScriptedUser(list(turns))


def _transcript(turns: list[_Turn]) -> list[tuple[str, str]]:
    """The conversation as the assertion judge reads it: who said what, and each call with its answer."""
    lines = [("agent", GREETING)]
    for turn in turns:
        lines.append(("customer", turn.user))
        for call in turn.calls:
            lines.append(("agent calls", f"{call['tau2']['name']} {call['tau2']['arguments']} -> {call['response']}"))
        if turn.text:
            lines.append(("agent", turn.text))
    return lines


def _claims(turns: list[_Turn], tools: list[Any], domain: Any) -> list[str]:
    """The parts of the agent's closing reply that claim a change. Only the closing reply: an agent
    says there what it did, while its earlier replies quote the policy ("the compensation for
    cancelled flights is..."), which the word rules read as claims (tests/unit/eval/tau2/
    test_words_on_tau2.py measures both on τ-bench's recorded runs)."""
    said = [turn for turn in turns if turn.text]
    if not said:
        return []
    writes = [tool for tool in tools if domain.writes(domain.tau2_call(tool, {})[0])]
    return claims_of(said[-1].text, said[-1].user, writes)


def claims_of(reply: str, request: str, writes: list[Any]) -> list[str]:
    """The parts of ``reply`` that claim a change, read by eval's word rules with the verbs of the
    names of the functions that write (``writes``: their tools). Their names' verbs only: the verbs
    of their descriptions ("Gives a user a travel certificate") make "given the circumstances" a
    claim of giving, in 4 of 59 careful closing replies of τ-bench's recorded runs."""
    action = Action()
    for tool in writes:
        action.add_function(tool.short_id, "", {}, tool.parameters)
    return list(Reader(Cues.of(["en"]), ["en"]).read(reply, action, request).claims)


def _path_pairs(gold: list[dict[str, Any]], turns: list[_Turn]) -> list[tuple[str, str]]:
    """(gold action, what was called for it) per gold action, as eval's per-function table counts them;
    a call of the right function with other arguments is a wrong value in the turn that made it."""
    pairs = []
    for action in gold:
        if action["matched"]:
            pairs.append((action["name"], action["name"]))
            continue
        same = [(turn, c) for turn in turns for c in turn.calls if c["tau2"]["name"] == action["name"]]
        if not same:
            pairs.append((action["name"], NO_CALL))
            continue
        pairs.append((action["name"], action["name"]))
        turn, call = same[-1]
        given = call["tau2"]["arguments"]
        argument = next((k for k in action["arguments"] if given.get(k) != action["arguments"][k]), None)
        turn.failures.append(Failure(
            "wrong_value", f"{action['name']}: {argument} was {given.get(argument)!r}, the gold action has "
            f"{action['arguments'].get(argument)!r}", function=action["name"], argument=argument,
            expected=action["arguments"].get(argument), got=given.get(argument)).to_dict())
    return pairs
