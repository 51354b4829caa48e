"""Verdicts on misbehaving and careful models' words, over whole shipped suites, fast.

Every model here makes exactly the oracle's calls, so each case is run once, for real, with
the oracle (run_eval: a device, the agent loop, the apps' real answers), and its calls and
results are then told in other words: each turn's reply is read and scored by the runner's
own ``Ears`` and ``score_turn``, as a run with that reply would score it
(test_words.py checks that against real runs). A trial is one model on one case it
misbehaves on (or, for the careful model, any case); a wrong verdict is a misbehaving
trial that passes, or a careful one that fails.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from droid.agent import AppFunctionAgentTools
from sim.eval.catalog import Catalog
from sim.eval.claims import Reader
from sim.eval.devices import DeviceSpec
from sim.eval.execution import local_device
from sim.eval.facts import Known, told_of
from sim.eval.judge import Judge
from sim.eval.phrases import Cues
from sim.eval.run import EvalOptions, run_eval
from sim.eval.runner import Ears
from sim.eval.scoring import MadeCall, score_turn
from sim.eval.suite import Case, Suite, Turn, is_read
from sim.eval.taxonomy import Failure

from .replies import KINDS, TOPICS, facts_of, fill, joined, templates

KINDS_AND_CAREFUL = (*KINDS, "truthful")


@dataclass
class Trial:
    case_id: str
    kind: str
    model: int
    passed: bool
    replies: list[str]
    failures: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # the word checks that failed it
    misbehaving: list[bool] = field(default_factory=list)  # per turn: the reply misbehaves (else it is careful)

    def key(self) -> dict[str, str]:
        """What each of its replies' words do, as a careful reader would take them (chat_judge.py)."""
        return {text: self.kind if bad else "truthful" for text, bad in zip(self.replies, self.misbehaving)}

    @property
    def wrong(self) -> bool:
        return self.passed != (self.kind == "truthful")


@dataclass
class Played:
    """A suite played once by the oracle: its records by case, and the device's catalog."""

    suite: Suite
    records: dict[str, dict[str, Any]]
    catalog: Catalog
    run_date: Any
    told: str  # what the agent is told of its tools
    cues: dict[str, Cues] = field(default_factory=dict)  # by case language: built once, read by every trial

    def cues_of(self, language: str) -> Cues:
        if language not in self.cues:
            self.cues[language] = Cues.of(["en", language], self.suite.phrase_cues())
        return self.cues[language]


def play_oracle(suite: Suite, out: Path, run_date: Any) -> Played:
    run_eval(suite, EvalOptions(model="scripted", out=out, run_date=run_date))
    records = {r["case_id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    device = local_device(DeviceSpec(suite.app_sources(), suite.agent))
    return Played(suite, records, Catalog(AppFunctionAgentTools.discover(device.shell)), run_date,
                  told_of(AppFunctionAgentTools.discover(device.agent)))


def trials(played: Played, replies: dict[str, Any], kind: str, judge: Callable[[], Judge] | None = None,
           every: int = 1, cases: set[str] | None = None) -> list[Trial]:
    """Every model of ``kind`` (one per template) on every case it applies to (or every ``every``-th
    of those, a fixed sample; or on ``cases`` only); read by the rules, or by the judge ``judge``
    makes (one client, a conversation per case)."""
    found = ((model, case, said) for model in range(_models(replies, kind)) for case in played.suite.cases
             if cases is None or case.id in cases
             for said in [_played(case, played.records[case.id], replies, kind, model)] if said is not None)
    return asyncio.run(_trials(played, kind, [f for i, f in enumerate(found) if i % every == 0], judge))


async def _trials(played: Played, kind: str, found: list[Any], judge: Callable[[], Judge] | None) -> list[Trial]:
    reader = judge() if judge else None
    out = []
    try:
        for model, case, (texts, misbehaving) in found:
            failures = await _score(played, case, texts, reader.fresh() if reader else None)
            passed = not failures and not played.records[case.id]["state_failures"]
            out.append(Trial(case.id, kind, model, passed, texts, [f"{f.kind}: {f.detail}" for f in failures],
                             list(dict.fromkeys(f.check for f in failures if f.check)), misbehaving))
    finally:
        if reader is not None:
            await reader.aclose()
    return out


def _models(replies: dict[str, Any], kind: str) -> int:
    table = replies.get(kind) or {}
    counts = [len(v) for per_language in table.values()
              for v in (per_language.values() if isinstance(per_language, dict) else [per_language])]
    return max(counts, default=0)


def _replies(case: Case, record: dict[str, Any], replies: dict[str, Any], kind: str, model: int) -> list[str] | None:
    """Each turn's reply by this model, or None when the model misbehaves on no turn of the case."""
    played = _played(case, record, replies, kind, model)
    return played[0] if played is not None else None


def _played(case: Case, record: dict[str, Any], replies: dict[str, Any], kind: str,
            model: int) -> tuple[list[str], list[bool]] | None:
    """Each turn's reply by this model and whether it misbehaves, or None when the model misbehaves
    on no turn of the case."""
    language = case.language or "en"
    texts, misbehaving = [], []
    for turn, said in zip(case.turns, record["turns"]):
        calls = _calls(said)
        text = None if kind == "truthful" else _misbehaving(kind, turn, calls, replies, language, model)
        misbehaving.append(text is not None)
        texts.append(text if text is not None else _truthful(turn, said, calls, replies, language, model))
    return (texts, misbehaving) if any(misbehaving) or kind == "truthful" else None


def _calls(said: dict[str, Any]) -> list[MadeCall]:
    return [MadeCall(c["name"], c["function_id"], c["args"], c["response"], c["confirmation"]) for c in said["calls"]]


def _pick(found: list[dict[str, Any]], model: int, facts: dict[str, Any]) -> str | None:
    """The model's template (the model-th, wrapping round) among those these facts can fill."""
    usable = [text for text in (fill(t, facts) for t in found) if text is not None]
    return usable[model % len(usable)] if usable else None


def _choose(replies: dict[str, Any], kind: str, language: str, topic: str | None, model: int,
            facts: Any) -> str | None:
    """The model's template in the case's language, else in English (as models often answer);
    ``facts(language)`` fills it in the language it is written in."""
    facts_in = facts if callable(facts) else (lambda _: facts)
    return _pick(templates(replies, kind, language, topic), model, facts_in(language)) or \
        _pick(templates(replies, kind, "en", topic), model, facts_in("en"))


def _misbehaving(kind: str, turn: Turn, calls: list[MadeCall], replies: dict[str, Any], language: str,
                 model: int) -> str | None:
    asked = turn.user
    if turn.abstain and kind in ("made_up", "claim"):
        return _choose(replies, kind, language, "any" if kind == "claim" else None, model, {"asked": asked})
    if not turn.calls:
        return None
    pairs = _paired(turn, calls)
    all_done = all(c.approves and c.done and not c.error and call is not None and call.happened for c, call in pairs)
    if kind == "denial" and all_done:
        return _choose(replies, kind, language, None, model, {"asked": asked})
    if kind in ("misstatement", "invented_failure") and all_done:
        return _instead(kind, pairs, range(len(pairs)), replies, language, model, asked)
    if kind == "act_then_ask":
        acted = [i for i, (w, c) in enumerate(pairs) if not is_read(w.function) and w.approves and w.done
                 and not w.error and c is not None and c.happened]
        return _instead(kind, pairs, acted, replies, language, model, asked) if acted else None
    undone = [(w, c) for w, c in pairs if not is_read(w.function) and not (w.approves and w.done and not w.error)]
    if kind == "claim" and undone:
        wanted, call = undone[0]
        facts = _facts(wanted, call, asked=asked)
        claim = _choose(replies, kind, language, TOPICS[_short(wanted)], model, facts) or \
            _choose(replies, kind, language, "any", model, {"asked": asked})
        told = [_tell(w, c, replies, language, 0, asked) for w, c in pairs if (w, c) != (wanted, call)]
        return joined([claim, *told]) if claim else None
    declined = [(w, c) for w, c in pairs if not w.approves]
    if kind == "after_decline" and declined:
        wanted, call = declined[0]
        return _choose(replies, kind, language, None, model, _facts(wanted, call, result=False, asked=asked))
    return None


def _instead(kind: str, pairs: list[tuple[Any, MadeCall | None]], eligible: Any, replies: dict[str, Any],
             language: str, model: int, asked: str) -> str | None:
    """The kind's template for the topic of one eligible call (or of a group of calls of one topic,
    ``over: calls``) in place of its telling, the others told truly; else the kind's ``any``
    template, ``{told}`` being the truthful telling of every call (not for a misstatement)."""
    eligible = list(eligible)
    groups = [g for g in _groups(pairs) if len(g) > 1 and set(g) <= set(eligible)]
    for members in [*groups, *([i] for i in eligible)]:
        wanted = pairs[members[0]][0]
        facts = _over([pairs[i] for i in members], asked) if len(members) > 1 else \
            _facts(*pairs[members[0]], asked=asked)
        text = _choose(replies, kind, language, TOPICS[_short(wanted)], model, facts)
        if text is not None:
            told = [_tell(w, c, replies, language, 0, asked) for i, (w, c) in enumerate(pairs) if i not in members]
            return joined([text, *told])
    if kind == "misstatement":
        return None
    return _choose(replies, kind, language, "any", model,
                   {"told": _told(pairs, replies, language, 0, asked), "asked": asked})


def _truthful(turn: Turn, said: dict[str, Any], calls: list[MadeCall], replies: dict[str, Any], language: str,
              model: int) -> str:
    if turn.ask or turn.expects is None:
        return said["text"]  # the oracle's question (or whatever it said where nothing is checked)
    if turn.abstain:
        return _choose(replies, "truthful", language, "abstain", model, {"asked": turn.user}) or said["text"]
    return _told(_paired(turn, calls), replies, language, model, turn.user)


def _told(pairs: list[tuple[Any, MadeCall | None]], replies: dict[str, Any], language: str, model: int,
          asked: str) -> str:
    """Every call told truly, in order; two or more calls of one topic told together where the
    set has a template ``over: calls`` for them."""
    together: dict[int, str] = {}  # by index: the group's telling at its first call, nothing at the others
    for members in _groups(pairs):
        text = len(members) > 1 and _choose(replies, "truthful", language, _topic(pairs[members[0]][0]), model,
                                            _over([pairs[i] for i in members], asked))
        if text:
            together.update({i: "" for i in members[1:]})
            together[members[0]] = text
    told = [together[i] if i in together else _tell(w, c, replies, language, model, asked)
            for i, (w, c) in enumerate(pairs)]
    return joined([text for text in told if text])


def _tell(wanted: Any, call: MadeCall | None, replies: dict[str, Any], language: str, model: int,
          asked: str = "") -> str:
    """One call told truly: its result, or that it was declined or refused."""
    facts = _facts(wanted, call, asked=asked)
    topic = _topic(wanted)
    text = _choose(replies, "truthful", language, topic, model, facts)
    assert text is not None, f"no truthful {topic} reply in {language} for {facts}"
    return text


def _topic(wanted: Any) -> str:
    """The truthful topic a call is told under."""
    if not wanted.approves:
        return "declined"
    if not wanted.done:
        return "refused"
    return TOPICS[_short(wanted)]


def _groups(pairs: list[tuple[Any, MadeCall | None]]) -> list[list[int]]:
    """The pairs' indexes by the topic they are told under, in order of first appearance."""
    groups: dict[str, list[int]] = {}
    for index, (wanted, _) in enumerate(pairs):
        groups.setdefault(_topic(wanted), []).append(index)
    return list(groups.values())


def _over(pairs: list[tuple[Any, MadeCall | None]], asked: str) -> Any:
    """Facts of several calls, for a template ``over: calls``: each call's facts as a row."""
    return lambda language: {"calls": [_facts(w, c, asked=asked)(language) for w, c in pairs],
                             "count": len(pairs), "asked": asked}


def _facts(wanted: Any, call: MadeCall | None, result: bool = True, asked: str = "") -> Any:
    """The call's facts in a given language (with the user's message of the turn, for ``asks``)."""
    return lambda language: {**facts_of(_short(wanted), call.args if call else {},
                                        call.response if call and result else None, language), "asked": asked}


def _paired(turn: Turn, calls: list[MadeCall]) -> list[tuple[Any, MadeCall | None]]:
    left = list(calls)
    pairs = []
    for wanted in turn.calls or []:
        call = next((c for c in left if c.name == _short(wanted)), None)
        if call is not None:
            left.remove(call)
        pairs.append((wanted, call))
    return pairs


def _short(wanted: Any) -> str:
    return wanted.function.rpartition("#")[2]


async def _score(played: Played, case: Case, texts: list[str], judge: Judge | None) -> list[Failure]:
    languages = ["en", case.language or "en"]
    ears = Ears(Reader(played.cues_of(languages[1]), languages), judge, Known(played.run_date, told=played.told),
                case.language or "en")
    failures = []
    for turn, said, text in zip(case.turns, played.records[case.id]["turns"], texts):
        calls = _calls(said)
        words, facts, judged = await ears.hear(turn, calls, text, played.catalog, [turn.user])
        failures += score_turn(turn, calls, text, played.catalog, played.run_date, words, None, facts,
                               judged).failures
    return failures
