"""A case judged by its outcome, as τ-bench and τ²-bench judge one.

The expected end state is never written by hand: it is what the task's gold actions leave when
replayed on a fresh copy of the database (the caller computes it on the apps' own code). The
verdict combines, as τ² does, the checks named in the task's reward basis:

- ``DB``: the database the agent left equals the gold one, record for record;
- ``COMMUNICATE``: every required string appears in something the agent told the user
  (τ²'s test: the string, lower-cased, inside a message lower-cased with its commas removed);
- ``NL_ASSERTION``: a judge model says each natural-language assertion holds; without a
  judge they are *not judged*, and a trial whose other checks pass has no verdict rather
  than a pass;
- ``ACTION``: every gold action was called (τ²'s matching, below).

The reward is 1 when every check of the basis holds, 0 when one fails, None when none fails
and one was not judged. A conversation that ended on a limit (too many steps or errors)
rather than by the user or the agent earns 0, as in τ².

Beside it, the path and the diff say why: which gold actions the agent's calls matched (a call
matches when its name is the action's and its arguments equal the action's on the action's
``compare_args``, or on every argument the call gave), which writes it made that no gold action
asks for, and what changed in the database that should not have (sim/eval/state_diff.py).

A task whose gold actions change nothing (and that needs nothing told) is passed by an agent
that does nothing: such tasks are marked, and there droidsim also reads the agent's words, so
a reply that claims a change that did not happen fails (``words``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from sim.eval.state_diff import StateDiff, changes, diff_states

DB, COMMUNICATE, NL_ASSERTION, ACTION = "DB", "COMMUNICATE", "NL_ASSERTION", "ACTION"
BASES = (DB, COMMUNICATE, NL_ASSERTION, ACTION)
# How a conversation may end and still be judged (τ²: the user or the agent stopped it).
JUDGED_ENDINGS = ("user_stop", "transfer", "out_of_scope", "agent_stop")
PASSED, FAILED, NOT_JUDGED = "passed", "failed", "not judged"


@dataclass(frozen=True)
class GoldAction:
    name: str
    arguments: dict[str, Any]
    compare_args: tuple[str, ...] | None = None  # None: every argument the call gave

    def matches(self, call: "MadeCall") -> bool:
        if call.name != self.name:
            return False
        keys = self.compare_args if self.compare_args is not None else tuple(call.arguments)
        return ({k: v for k, v in call.arguments.items() if k in keys}
                == {k: v for k, v in self.arguments.items() if k in keys})

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class Criteria:
    actions: tuple[GoldAction, ...] = ()
    communicate_info: tuple[str, ...] = ()
    nl_assertions: tuple[str, ...] = ()
    reward_basis: tuple[str, ...] = (DB,)


@dataclass(frozen=True)
class MadeCall:
    """One call the agent made, in the benchmark's names: the tool and its arguments."""

    name: str
    arguments: dict[str, Any]
    writes: bool  # the function changes the database (its metadata says so)
    failed: bool = False  # the app answered with an error


@dataclass
class Outcome:
    reward: float | None
    verdict: str  # passed | failed | not judged
    checks: dict[str, bool | None]  # per basis
    ending: str
    communicated: list[dict[str, Any]] = field(default_factory=list)
    assertions: list[dict[str, Any]] = field(default_factory=list)
    gold: list[dict[str, Any]] = field(default_factory=list)  # each gold action, matched or not
    extra_writes: list[dict[str, Any]] = field(default_factory=list)
    failed_calls: int = 0
    diff: StateDiff = field(default_factory=StateDiff)
    do_nothing_passes: bool = False
    false_claims: list[str] = field(default_factory=list)  # on a do-nothing task: claims of a change

    @property
    def passed(self) -> bool:
        return self.verdict == PASSED

    def reasons(self) -> list[str]:
        """Why it did not pass, in words: each failed check, what changed that should not have."""
        out = []
        if self.ending not in JUDGED_ENDINGS:
            out.append(f"the conversation ended on {self.ending.replace('_', ' ')}, not by the user or the agent")
        if self.checks.get(DB) is False:
            out += [f"database: {finding.text()}" for finding in self.diff.findings]
        out += [f"not communicated: {c['info']!r}" for c in self.communicated if not c["met"]]
        out += [f"assertion not met: {a['assertion']}" + (f" ({a['reason']})" if a.get("reason") else "")
                for a in self.assertions if a["met"] is False]
        if self.checks.get(ACTION) is False:
            out += [f"gold action not called: {g['name']} {g['arguments']}" for g in self.gold if not g["matched"]]
        out += [f"a change claimed where none happened: {claim!r}" for claim in self.false_claims]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "verdict": self.verdict, "checks": self.checks, "ending": self.ending,
                "communicated": self.communicated, "assertions": self.assertions,
                "path": {"gold": self.gold, "extra_writes": self.extra_writes, "failed_calls": self.failed_calls},
                "diff": self.diff.to_dict(), "do_nothing_passes": self.do_nothing_passes,
                "false_claims": self.false_claims}


def communicated(info: Iterable[str], told: Iterable[str]) -> list[dict[str, Any]]:
    """τ²'s test of each required string against the agent's messages to the user (sim/tau2/verdict.py)."""
    from sim.tau2.verdict import said

    told = [text for text in told if text]
    return [{"info": item, "met": said(item, told)} for item in info]


def path(actions: Iterable[GoldAction], calls: list[MadeCall]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(each gold action with whether a call matched it, the writes that matched no gold action)."""
    actions = list(actions)
    gold = [{**action.to_dict(), "matched": any(action.matches(call) for call in calls)} for action in actions]
    extra = [{"name": c.name, "arguments": c.arguments} for c in calls
             if c.writes and not c.failed and not any(a.matches(c) for a in actions)]
    return gold, extra


def does_nothing(criteria: Criteria, start: dict[str, Any], gold_state: dict[str, Any]) -> bool:
    """An agent that says and does nothing would pass the checks that need no judge."""
    return (not changes(start, gold_state) and not (COMMUNICATE in criteria.reward_basis and criteria.communicate_info)
            and not (ACTION in criteria.reward_basis and criteria.actions))


def judge_outcome(criteria: Criteria, ending: str, start: dict[str, Any], gold_state: dict[str, Any],
                  run_state: dict[str, Any], calls: list[MadeCall], told: list[str],
                  assertions: list[dict[str, Any]] | None, claims: list[str] = ()) -> Outcome:
    """``assertions``: the judge's reading of each NL assertion ({assertion, met, reason}), or
    None without a judge; ``claims``: the parts of the agent's replies the word reading takes
    for claims of a change (sim/eval/claims.py), held against a do-nothing task."""
    diff = diff_states(start, gold_state, run_state)
    said = communicated(criteria.communicate_info, told)
    gold, extra = path(criteria.actions, calls)
    if NL_ASSERTION not in criteria.reward_basis:
        assertions = []  # τ² does not judge them (airline's tasks carry some, outside their basis)
    elif assertions is None:
        assertions = [{"assertion": a, "met": None, "reason": "not judged: no --judge-model"}
                      for a in criteria.nl_assertions]
    checks: dict[str, bool | None] = {DB: diff.matches, COMMUNICATE: all(c["met"] for c in said),
                                      ACTION: all(g["matched"] for g in gold),
                                      NL_ASSERTION: _all_met([a["met"] for a in assertions])}
    checks = {basis: checks[basis] for basis in criteria.reward_basis}
    reward = _reward(checks) if ending in JUDGED_ENDINGS else 0.0
    idle = does_nothing(criteria, start, gold_state)
    wrote = any(c.writes and not c.failed for c in calls)
    false_claims = list(claims) if idle and not diff.changed and not wrote else []
    if reward == 0.0 or false_claims:
        verdict = FAILED
    else:
        verdict = PASSED if reward == 1.0 else NOT_JUDGED
    return Outcome(reward, verdict, checks, ending, said, assertions, gold, extra,
                   sum(c.failed for c in calls), diff, idle, false_claims)


def _all_met(met: list[bool | None]) -> bool | None:
    if any(m is False for m in met):
        return False
    return None if any(m is None for m in met) else True


def _reward(checks: dict[str, bool | None]) -> float | None:
    if any(v is False for v in checks.values()):
        return 0.0
    return None if any(v is None for v in checks.values()) else 1.0
