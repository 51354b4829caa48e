"""The offline default model: a keyword heuristic that needs no weights and no network.

It is NOT a language model. Per prompt it does these mechanical things, and
nothing more (docs/agent.md, "What the offline model is, honestly", says where
it fails):

1. **Reads the prompt in English words**: French, Thai and Chinese words it knows
   are rewritten by ``lexicon.to_english``; dates and times in any of the four
   languages are parsed by ``dateparser`` (``dates``).
2. **Splits it into requests** ("turn on the porch light and tell me the weather
   in Paris") and **picks a tool for each** by nouns, verb, description and how
   well the prompt fills its parameters (``choosing``); a destructive tool only
   when the user says its verb.
3. **Fills arguments by type** (``values``): dates and times in the shapes the
   function declares, SetField updates for the fields the prompt names, enums,
   numbers with units, ids, places, names, titles; each value used once. One
   request naming several things ("orders ORD-8492 and ORD-6025", "London, Paris
   and New York") makes one call per thing.
4. **Looks up what it cannot fill** (``memory``): an id the prompt describes
   rather than gives ("the bedside lamp") is found by calling the function that
   lists such things, then matching the description against the list; "it",
   "that booking", "the first one" refer to earlier calls and results; "And in
   Fahrenheit?" repeats the previous call with the new value.
5. **Asks** for required arguments it cannot fill, or which item was meant when
   two match equally, instead of guessing; the reply is read with the request.
6. **Words the answer from the results** (``answers``), and says so when a
   result shows the action did not happen.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, AsyncIterator

from droid.agent.confirmation import name_words
from droid.agent.messages import ASSISTANT, TOOL, USER, Message, ToolDeclaration, ToolRequest
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, TextDelta, stream_words
from droid.agent.models.offline import lexicon
from droid.agent.models.offline.answers import humanize, phrase
from droid.agent.models.offline.choosing import (
    STOPWORDS,
    SYNONYMS,
    Chooser,
    Clause,
    intent_words,
    refuses,
    same,
    split_clauses,
    split_parts,
    words_of,
)
from droid.agent.models.offline.memory import Memory, entity_of, ordinal, points_back, resolve
from droid.agent.models.offline.values import Values, is_id_param, is_set_field

_ASK_PREFIX = "To "
_ASK_MARK = ", I need "
_MAX_ROUNDS = 3
# "Don't turn on the porch light": a request the user negates is not made.
_NEGATED = re.compile(r"^\W*(?:please\s+)?(?:don'?t|do not|never|no need to|ne\b|n'|อย่า|ไม่ต้อง|不要|别|不用)", re.I)
_CONTINUES = re.compile(r"^\s*(?:and|what about|how about|also|et|and what about|และ|แล้ว|那|还有)\b", re.I)
_LISTER_VERBS = ("list", "search", "find", "get", "fetch")
_ACTION_WORDS = frozenset({"turn", "switch", "set", "on", "off", "dim", "make", "please", "just", "actually"})
_GENERIC_FIELD_WORDS = frozenset({"new", "value", "null", "removes", "field", "keep", "omitted", "of", "the"})


class OfflineModel(Model):
    """Heuristic stand-in for a model (see the module docstring): not a language model."""

    name = "offline"
    supports_tools = True

    def __init__(self, *, today: _dt.date | None = None) -> None:
        self._today = today

    async def generate(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        response = self.respond(request)
        for piece in stream_words(response.text):
            yield TextDelta(piece)
        yield response

    # -- one turn ---------------------------------------------------------------------------------

    def respond(self, request: ModelRequest) -> ModelResponse:
        messages = list(request.messages)
        users = [i for i, m in enumerate(messages) if m.role == USER]
        if not users:
            return ModelResponse("How can I help?")
        if not request.tools:
            return ModelResponse(
                "I am the offline stand-in model: I can only call the device's app functions, "
                "and none are available to me."
            )
        last = users[-1]
        this_turn = messages[last + 1:]
        context = messages[last].text
        if last > 0 and _asked_question(messages[last - 1]):
            earlier = [i for i in users if i < last]
            if earlier:
                context = f"{messages[earlier[-1]].text}\n{context}"
        planner = _Planner(request.tools, self._today or _dt.date.today(), Memory(messages))
        plan = planner.plan(context, messages[last].text)
        made = {_key(r) for m in this_turn if m.role == ASSISTANT for r in m.tool_requests}
        rounds = sum(1 for m in this_turn if m.role == ASSISTANT and m.tool_requests)
        new = [c for c in plan.calls if _key(c) not in made]
        if new and rounds < _MAX_ROUNDS:
            return ModelResponse("", new)
        results = [m.tool_response for m in this_turn if m.role == TOOL and m.tool_response]
        if results:
            shown = [r for r in results if r.name not in plan.lookups]
            if not shown and not plan.questions:
                shown = results
            return ModelResponse(" ".join([phrase(r) for r in shown] + plan.questions))
        if plan.questions:
            return ModelResponse(" ".join(plan.questions))
        can = "; ".join(humanize(t.name) for t in request.tools)
        return ModelResponse(f"I could not match that to any function I have. I can: {can}.")


@dataclass
class _Plan:
    calls: list[ToolRequest] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    lookups: set[str] = field(default_factory=set)


@dataclass
class _Filled:
    args: dict[str, Any]
    missing: list[str]
    lookup: ToolDeclaration | None = None  # call this first to find an id
    ambiguous: str | None = None  # the id parameter for which two listed items matched
    per_part: list[dict[str, Any]] = field(default_factory=list)


class _Planner:
    def __init__(self, tools: tuple[ToolDeclaration, ...], today: _dt.date, memory: Memory) -> None:
        self.tools = tools
        self.today = today
        self.memory = memory
        self.used_lookups: set[str] = set()  # listers whose results named an id
        self._listers: dict[str, ToolDeclaration | None] = {}

    def clauses(self, prompt: str) -> list[Clause]:
        english = lexicon.to_english(prompt)
        self.chooser = Chooser(self.tools, english)
        return split_clauses(split_parts(prompt), self.chooser, _Fit(self))

    def plan(self, context: str, prompt: str) -> _Plan:
        plan = _Plan()
        clauses = [c for c in self.clauses(context) if c.tool is not None]
        follow_on = not clauses and self.memory.last_call is not None and _CONTINUES.search(prompt)
        if follow_on:
            previous = self.memory.last_call
            tool = next((t for t in self.tools if t.name == previous.name), None)
            if tool is not None:
                clauses = [Clause(tool, split_parts(prompt))]
        lookups: dict[str, ToolDeclaration] = {}
        for clause in clauses:
            if clause.tied:  # two functions fit equally well: guessing could do the wrong thing
                names = " or ".join(humanize(t.name) for t in [clause.tool, *clause.tied])
                plan.questions.append(f"{_ASK_PREFIX}do that{_ASK_MARK}to know which you mean: {names}?")
                continue
            if _NEGATED.search(clause.parts[0].original) or refuses(self.chooser, clause.tool.name):
                plan.questions.append(f"You asked me not to {humanize(clause.tool.name)}, so I did not.")
                continue
            filled = self.fill(clause, context, previous=self.memory.last_call if follow_on else None)
            if filled.missing:  # ask first: a lookup cannot fill what the user has not said
                plan.questions.append(_ask(clause.tool, filled.missing, self.memory))
                continue
            if filled.lookup is not None:
                lookups[filled.lookup.name] = filled.lookup
                continue
            if filled.ambiguous:
                plan.questions.append(self._which(clause.tool, filled.ambiguous))
                continue
            for args in filled.per_part or [filled.args]:
                plan.calls.append(ToolRequest(clause.tool.name, args))
        for lister in lookups.values():
            plan.calls.insert(0, ToolRequest(lister.name, {}))
        plan.lookups = set(lookups) | self.used_lookups
        return plan

    # -- arguments --------------------------------------------------------------------------------

    def fill(self, clause: Clause, context: str, previous: ToolRequest | None = None) -> _Filled:
        tool = clause.tool
        assert tool is not None
        properties: dict[str, Any] = tool.parameters.get("properties", {}) or {}
        required = list(tool.parameters.get("required", []) or [])
        original, english = _span(context, clause), clause.english
        values = Values(original, english, self.today)
        args: dict[str, Any] = {}
        mentioned = self.mentioned_fields(tool, english)
        for name, schema in properties.items():
            if ordinal(context) is not None and self.memory.items_with(name):
                args[name] = self.memory.recall(name, context)  # "the first one": from the list just shown
                continue
            value = values.take(name, schema or {}, name in mentioned, slugs=self.lister_for(name) is None)
            if value is not None:
                args[name] = value
        reason = _leftover(clause, tool, properties)
        if reason and reason[0] not in args:
            args[reason[0]] = reason[1]
        per_part = self._distribute(clause, tool, properties, mentioned)
        outcome = _Filled(args, [], per_part=[])
        for name in required:
            if name in args or any(name in p for p in per_part):
                continue
            schema = properties.get(name) or {}
            if is_id_param(name, schema) and self.lister_for(name) is not None:
                found = self._look_up(clause, tool, name, context)
                if found is _LOOK_UP:
                    outcome.lookup = self.lister_for(name)
                    continue
                if isinstance(found, list):
                    per_part += found
                    continue
                if found is _AMBIGUOUS and not points_back(context):
                    outcome.ambiguous = name
                    continue
            recalled = self.memory.recall(name, context) if points_back(context) or ordinal(context) is not None else None
            if recalled is None and previous is not None:
                recalled = previous.args.get(name)
            if recalled is not None:
                args[name] = recalled
            else:
                outcome.missing.append(name)
        if previous is not None:
            for name, value in previous.args.items():
                args.setdefault(name, value)
        if any(is_set_field(s or {}) for s in properties.values()) and not any(
            is_set_field(properties[n] or {}) for n in args if n in properties
        ) and not outcome.missing:
            outcome.missing.append(" or the ".join(n for n, s in properties.items() if is_set_field(s or {})))
        if len(per_part) == 1:
            args.update(per_part[0])
        elif per_part:
            outcome.per_part = [{**args, **p} for p in per_part]
        return outcome

    def _distribute(self, clause: Clause, tool: ToolDeclaration, properties: dict[str, Any],
                    mentioned: set[str]) -> list[dict[str, Any]]:
        """One set of values per piece when several pieces each name their own (ids, places, titles)."""
        if len(clause.parts) < 2:
            return []
        per_part: list[dict[str, Any]] = []
        for part in clause.parts:
            values = Values(part.original, part.english, self.today)
            found = {}
            for name, schema in properties.items():
                if not (is_id_param(name, schema or {}) or _distributable(name)):
                    continue
                value = values.take(name, schema or {}, name in mentioned, slugs=self.lister_for(name) is None)
                if value is not None:
                    found[name] = value
            if found:
                per_part.append(found)
        keys = [tuple(sorted(p)) for p in per_part]
        if len(per_part) < 2 or len(set(keys)) != 1 or len({json.dumps(p, sort_keys=True) for p in per_part}) < 2:
            return []
        return per_part

    def mentioned_fields(self, tool: ToolDeclaration, english: str) -> set[str]:
        """The SetField parameters the prompt names (by the parameter's name or description)."""
        words = set(words_of(english))
        named = set()
        for name, schema in (tool.parameters.get("properties") or {}).items():
            if not is_set_field(schema or {}):
                continue
            own = set(name_words(name)) | {
                w for w in words_of(lexicon.to_english((schema or {}).get("description", "")))
                if w not in STOPWORDS and w not in _GENERIC_FIELD_WORDS and w not in name_words(tool.name)
            }
            if any(same(w, o) for w in words for o in own):
                named.add(name)
        return named

    # -- looking things up ------------------------------------------------------------------------

    def is_lister(self, tool: ToolDeclaration) -> bool:
        return _lister_name(tool.name) and not tool.parameters.get("required")

    def lister_for(self, param: str) -> ToolDeclaration | None:
        if param not in self._listers:  # asked for every candidate tool's ids: once per parameter name
            entity = entity_of(param)
            self._listers[param] = next((t for t in self.tools if self.is_lister(t)
                                         and any(same(entity, w) for w in name_words(t.name)[1:])), None)
        return self._listers[param]

    def _look_up(self, clause: Clause, tool: ToolDeclaration, param: str, context: str) -> Any:
        items = self.memory.items_with(param)
        ignore = set(name_words(tool.name)) | _ACTION_WORDS | {w for v in SYNONYMS.values() for w in v}
        if items is None:
            if points_back(context) and self.memory.recall(param, context) is not None:
                return None  # "turn it off": the id is remembered
            described = {w for w in intent_words(clause.english) if w not in ignore} - {entity_of(param)}
            return _LOOK_UP if described else None  # "turn on a light": nothing to look for, so ask
        lister = self.lister_for(param)
        if lister is not None:
            self.used_lookups.add(lister.name)
        found, named_any = [], False
        for part in clause.parts:
            value, named = resolve(part.english, items, param, ignore)
            named_any = named_any or named
            if value is not None and {param: value} not in found:
                found.append({param: value})
        if found:
            return found
        return _AMBIGUOUS if named_any else None

    def _which(self, tool: ToolDeclaration, param: str) -> str:
        items = self.memory.items_with(param) or []
        options = ", ".join(str(i.get(param)) for i in items[:8])
        return f"{_ASK_PREFIX}{humanize(tool.name)}{_ASK_MARK}to know which {humanize(entity_of(param))} you mean: {options}?"


_LOOK_UP = object()
_AMBIGUOUS = object()


class _Fit:
    """How well a piece of prompt fills a tool's parameters, for ``choosing``."""

    def __init__(self, planner: _Planner) -> None:
        self.planner = planner

    def score(self, tool: ToolDeclaration, english: str, original: str) -> float:
        properties = tool.parameters.get("properties", {}) or {}
        values = Values(original, english, self.planner.today)
        mentioned = self.planner.mentioned_fields(tool, english)
        required = tool.parameters.get("required", []) or []
        total = 0.0
        for name, schema in properties.items():  # optional values the prompt gives also point here
            if name not in required and (not is_set_field(schema or {}) or name in mentioned):
                if values.take(name, schema or {}, name in mentioned) is not None:
                    total += 0.5
        values = Values(original, english, self.planner.today)
        for name in required:
            schema = properties.get(name) or {}
            lister = self.planner.lister_for(name) if is_id_param(name, schema) else None
            if values.take(name, schema, name in mentioned, slugs=lister is None) is not None or lister is not None:
                total += 1
                if values.percents and "percent" in (schema.get("description") or "").lower():
                    total += 1  # "25%" is what a percent parameter takes
            else:
                total -= 1.5
        return total

    def fills_required(self, tool: ToolDeclaration, english: str, original: str) -> bool:
        """The piece itself gives a value for every required parameter (a lookup does not count)."""
        properties = tool.parameters.get("properties", {}) or {}
        required = tool.parameters.get("required", []) or []
        values = Values(original, english, self.planner.today)
        mentioned = self.planner.mentioned_fields(tool, english)
        return bool(required) and all(
            values.take(n, properties.get(n) or {}, n in mentioned, slugs=self.planner.lister_for(n) is None) is not None
            for n in required)

    def names_a_field(self, tool: ToolDeclaration, english: str) -> bool:
        return bool(self.planner.mentioned_fields(tool, english))

    def recallable(self, tool: ToolDeclaration, original: str) -> bool:
        """The piece points back ("cancel it") at something a required id of this tool names."""
        if not points_back(original):
            return False
        properties = tool.parameters.get("properties", {}) or {}
        return any(is_id_param(n, properties.get(n) or {}) and self.planner.memory.recall(n, original) is not None
                   for n in tool.parameters.get("required", []) or [])


@lru_cache(maxsize=4096)
def _lister_name(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[0] in _LISTER_VERBS


def _distributable(name: str) -> bool:
    words = set(name_words(name))
    return bool(words & {"location", "city", "place", "title", "name"})


def _leftover(clause: Clause, tool: ToolDeclaration, properties: dict[str, Any]) -> tuple[str, str] | None:
    """A free-text reason/comment parameter gets the words said after the request itself."""
    name = next((n for n in properties if set(name_words(n)) & {"reason", "comment", "message", "remark"}), None)
    if name is None or len(clause.parts) < 2:
        return None
    rest = [p.original for p in clause.parts[1:] if not re.fullmatch(r"\W*\w{0,3}\W*", p.original)]
    text = " ".join(rest).strip(" .!?")
    return (name, text) if text else None


def _span(context: str, clause: Clause) -> str:
    """The clause as written in the prompt (its pieces with what was between them)."""
    first, last = clause.parts[0].original, clause.parts[-1].original
    start = context.find(first)
    end = context.find(last, max(start, 0))
    if start < 0 or end < 0:
        return clause.original
    return context[start:end + len(last)]


def _key(request: ToolRequest) -> tuple[str, str]:
    return request.name, json.dumps(request.args, sort_keys=True, default=str)


def _ask(tool: ToolDeclaration, missing: list[str], memory: Memory | None = None) -> str:
    properties = tool.parameters.get("properties", {}) or {}
    parts = []
    for name in missing:
        description = (properties.get(name) or {}).get("description", "")
        items = memory.items_with(name) if memory is not None else None
        if items:  # listed already: offer them
            description = "one of " + ", ".join(str(i.get(name)) for i in items[:8])
        parts.append(f"the {humanize(name)}" + (f" ({description.rstrip('.')})" if description else ""))
    what = " and ".join(parts)
    return f"{_ASK_PREFIX}{humanize(tool.name)}{_ASK_MARK}{what}. What {'is it' if len(missing) == 1 else 'are they'}?"


def _asked_question(message: Message) -> bool:
    return message.role == ASSISTANT and not message.tool_requests and _ASK_MARK in message.text and (
        message.text.startswith(_ASK_PREFIX) or f" {_ASK_PREFIX}" in message.text
    )

