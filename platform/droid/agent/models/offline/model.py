"""The offline default model: a keyword heuristic that needs no weights and no network.

It is NOT a language model. It does four mechanical things, and nothing more:

1. **Pick a tool** by matching the words of the user's last message against each
   tool's name (weight 3) and description (weight 1), with a small table of
   question words ("where" ~ status/fetch/track, "show" ~ get/list...). A tool
   needs a literal word in common with the prompt to be chosen at all, and a
   tool whose name starts with a destructive verb (cancel, delete, pay, ...) is
   only chosen when the prompt says that verb. No match: it says so and lists
   what it can do.
2. **Fill arguments by type** from the prompt: ids (``ORD-8492``, ``A12B``),
   numbers, quoted strings, ISO dates/times and today/tomorrow/yesterday, enum
   values, yes/no/on/off for booleans. Each value is used once.
3. **Ask for missing required arguments** instead of calling; the user's reply
   is read together with the original request.
4. **Phrase the answer from the result**: the fields of the returned object,
   the error message of an error map, or that the user declined.

It calls at most one tool per prompt and never chains calls. Use it to try the
device, the tools and the loop offline; use a real model (``openai:NAME``) to
judge how an agent behaves.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Any, AsyncIterator

from droid.agent.confirmation import CANCELLED_BY_USER, DESTRUCTIVE_VERBS, name_words
from droid.agent.errors import is_error_map
from droid.agent.messages import ASSISTANT, TOOL, USER, Message, ToolDeclaration, ToolRequest, ToolResponse
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, TextDelta, stream_words

_STOPWORDS = frozenset(
    "a an the is are was were be been am i me my mine you your it its this that these those of for to in "
    "at by with from and or but please can could would will shall should do does did what's whats "
    "hi hello hey thanks thank kindly just now some any all".split()
)
# Question words and common verbs, expanded to the words tools tend to use.
_SYNONYMS = {
    "where": ("status", "track", "fetch", "details", "locate"),
    "track": ("status", "fetch", "details"),
    "status": ("fetch", "details", "get"),
    "what": ("get", "fetch", "details", "list", "show"),
    "show": ("get", "fetch", "list", "details"),
    "check": ("get", "fetch", "status", "details"),
    "tell": ("get", "fetch", "details"),
    "find": ("search", "get", "fetch", "list"),
    "look": ("search", "get", "fetch", "find"),
    "list": ("list", "get", "search"),
    "when": ("status", "details", "delivery", "fetch"),
    "turn": ("set", "switch", "toggle"),
    "switch": ("set", "toggle"),
    "make": ("create", "add"),
    "new": ("create", "add"),
    "write": ("create", "add", "note"),
    "change": ("update", "set", "edit"),
    "edit": ("update", "set"),
    "reserve": ("book", "create"),
    "return": ("cancel",),
    "stop": ("cancel",),
}
_ASK_PREFIX = "To "
_ASK_MARK = ", I need "

_QUOTED = re.compile(r'"([^"]+)"|\u201c([^\u201d]+)\u201d|(?<![\w])\'([^\']+)\'(?![\w])')
_DATETIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?\b")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_TIME = re.compile(r"\b([01]?\d|2[0-3]):[0-5]\d\b")
_ID = re.compile(r"#?\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\b|#\d+\b")
_NUMBER = re.compile(r"(?<![\w.-])-?\d+(?:\.\d+)?(?![\w-])")
_WORD = re.compile(r"[A-Za-z]+")
_AFTER_CUE = re.compile(r"\b(?:saying|says|called|named|titled|with (?:the )?text|to say)\s+(.+?)[.?!]*$", re.I)
# A place named after a preposition: "weather in Paris", "tables near San Francisco, CA".
_PLACE = re.compile(r"\b(?:in|at|near|for)\s+([A-Z][\w'-]*(?:(?:\s+|,\s*)[A-Z][\w'-]*)*)")
_PLACE_WORDS = frozenset({"location", "city", "place", "where", "address", "destination", "town"})
_STATE_FLAGS = frozenset({"on", "enabled", "enable", "active", "power", "powered", "state", "value", "flag"})
_TRUE = ("yes", "true", "on", "enable", "enabled", "turn on", "switch on")
_FALSE = ("no", "false", "off", "disable", "disabled", "turn off", "switch off")


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
        last = users[-1]
        results = [m.tool_response for m in messages[last + 1:] if m.role == TOOL and m.tool_response]
        if results:
            return ModelResponse(self.answer(results))
        if not request.tools:
            return ModelResponse(
                "I am the offline stand-in model: I can only call the device's app functions, "
                "and none are available to me."
            )
        prompt = messages[last].text
        tool = self.choose_tool(prompt, request.tools)
        context = prompt
        if tool is None and last > 0 and _asked_question(messages[last - 1]):
            earlier = [i for i in users if i < last]
            if earlier:
                context = f"{messages[earlier[-1]].text}\n{prompt}"
                tool = self.choose_tool(messages[earlier[-1]].text, request.tools)
        if tool is None:
            can = "; ".join(_humanize(t.name) for t in request.tools)
            return ModelResponse(f"I could not match that to any function I have. I can: {can}.")
        args, missing = self.fill_arguments(context, tool)
        if missing:
            return ModelResponse(self._ask(tool, missing))
        return ModelResponse("", [ToolRequest(tool.name, args)])

    # -- choosing ---------------------------------------------------------------------------------

    def choose_tool(self, prompt: str, tools: tuple[ToolDeclaration, ...] | list[ToolDeclaration]) -> ToolDeclaration | None:
        literal = [w for w in (w.lower() for w in _WORD.findall(_strip_values(prompt))) if w not in _STOPWORDS]
        expanded = [s for w in literal for s in _SYNONYMS.get(w, ())]
        asked = {w for w in literal + expanded if w in DESTRUCTIVE_VERBS}
        best, best_score = None, 0.0
        for tool in tools:
            name = name_words(tool.name)
            description = [w.lower() for w in _WORD.findall(tool.description)]
            if name and name[0] in DESTRUCTIVE_VERBS and not any(_same(name[0], w) for w in literal + expanded):
                continue  # never pick a destructive function the user did not ask for
            if asked and not any(_same(v, n) for v in asked for n in name):
                continue  # "cancel X" must not turn into some other call on X
            name_hits = sum(1 for w in literal if any(_same(w, n) for n in name))
            desc_hits = sum(1 for w in literal if any(_same(w, d) for d in description))
            if name_hits == 0 and desc_hits < 2:
                continue  # nothing the user actually said points at this tool
            score = 3 * name_hits + desc_hits
            score += sum(2 for s in expanded if any(_same(s, n) for n in name))
            score += sum(0.5 for s in expanded if any(_same(s, d) for d in description))
            if score > best_score:
                best, best_score = tool, score
        return best

    # -- arguments --------------------------------------------------------------------------------

    def fill_arguments(self, text: str, tool: ToolDeclaration) -> tuple[dict[str, Any], list[str]]:
        pool = _Candidates(text, self._today or _dt.date.today())
        properties: dict[str, Any] = tool.parameters.get("properties", {}) or {}
        required = list(tool.parameters.get("required", []) or [])
        args: dict[str, Any] = {}
        for name, schema in properties.items():
            value = pool.take(name, schema or {})
            if value is not None:
                args[name] = value
        missing = [name for name in required if name not in args]
        return args, missing

    def _ask(self, tool: ToolDeclaration, missing: list[str]) -> str:
        properties = tool.parameters.get("properties", {}) or {}
        parts = []
        for name in missing:
            description = (properties.get(name) or {}).get("description", "")
            parts.append(f"the {_humanize(name)}" + (f" ({description.rstrip('.')})" if description else ""))
        what = " and ".join(parts)
        return f"{_ASK_PREFIX}{_humanize(tool.name)}{_ASK_MARK}{what}. What {'is it' if len(missing) == 1 else 'are they'}?"

    # -- answering --------------------------------------------------------------------------------

    def answer(self, results: list[ToolResponse]) -> str:
        return " ".join(_phrase(r) for r in results)


def _asked_question(message: Message) -> bool:
    return message.role == ASSISTANT and not message.tool_requests and message.text.startswith(_ASK_PREFIX) and _ASK_MARK in message.text


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    return len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def _strip_values(text: str) -> str:
    """The prompt without quoted strings, ids and numbers (they are arguments, not intent)."""
    text = _QUOTED.sub(" ", text)
    return _NUMBER.sub(" ", _ID.sub(" ", text))


def _humanize(name: str) -> str:
    return " ".join(name_words(name)) or name


class _Candidates:
    """Values found in the prompt, by kind; each is handed out once."""

    def __init__(self, text: str, today: _dt.date) -> None:
        self.text = text
        self.quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
        rest = _QUOTED.sub(" ", text)
        self.datetimes = [m.group(0).replace(" ", "T") for m in _DATETIME.finditer(rest)]
        rest = _DATETIME.sub(" ", rest)
        self.dates = [m.group(0) for m in _DATE.finditer(rest)]
        for word, delta in (("today", 0), ("tomorrow", 1), ("yesterday", -1)):
            if re.search(rf"\b{word}\b", rest, re.I):
                self.dates.append((today + _dt.timedelta(days=delta)).isoformat())
        rest = _DATE.sub(" ", rest)
        self.times = [m.group(0) for m in _TIME.finditer(rest)]
        rest = _TIME.sub(" ", rest)
        self.ids = [m.group(0).lstrip("#") for m in _ID.finditer(rest)]
        rest = _ID.sub(" ", rest)
        self.numbers = [m.group(0) for m in _NUMBER.finditer(rest)]
        self.lower = f" {text.lower()} "

    def take(self, name: str, schema: dict[str, Any]) -> Any:
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        words = name_words(name)
        if "enum" in schema:
            return self._enum([v for v in schema["enum"] if v is not None])
        if kind == "boolean":
            return self._boolean(words)
        if kind == "integer":
            return self._number(int)
        if kind == "number":
            return self._number(float)
        if kind != "string":
            return None  # objects and lists are beyond a keyword heuristic
        fmt = schema.get("format", "")
        if fmt == "date-time" or {"datetime", "timestamp"} & set(words):
            return _pop(self.datetimes) or _pop(self.dates)
        if fmt == "date" or "date" in words or "day" in words:
            return _pop(self.dates) or (_pop(self.datetimes) or "")[:10] or None
        if fmt == "time" or "time" in words:
            return _pop(self.times)
        if words and words[-1] in ("id", "ids", "number", "code", "ref", "reference", "sku"):
            return _pop(self.ids) or _pop(self.quoted) or _pop(self.numbers)
        if self.quoted:
            return self.quoted.pop(0)
        if _PLACE_WORDS & set(words):
            place = _PLACE.search(self.text)
            if place:
                return place.group(1)
        cue = _AFTER_CUE.search(self.text)
        if cue and "_cue_used" not in self.__dict__:
            self._cue_used = True
            return cue.group(1).strip().strip("\"'")
        return None

    def _enum(self, values: list[Any]) -> Any:
        found = []
        for value in values:
            spelled = str(value).lower()
            for form in {spelled, spelled.replace("_", " "), spelled.replace("-", " ")}:
                at = self.lower.find(form)
                if at >= 0 and not self.lower[at - 1].isalnum() and not self.lower[at + len(form)].isalnum():
                    found.append((at, value))
                    break
        return min(found, key=lambda f: f[0])[1] if found else None

    def _boolean(self, words: list[str]) -> bool | None:
        """A flag the prompt names ("high chair", "no high chair"), or on/off for a state flag."""
        words = [w for w in words if w not in ("is", "has", "use")]
        phrase = " ".join(words)
        if phrase:
            match = re.search(rf"\b(no|not|without|don't|dont)?\s*{re.escape(phrase)}s?\b", self.lower)
            if match:
                return match.group(1) is None
        if not set(words) & _STATE_FLAGS:
            return None
        hits = []
        for candidates, value in ((_TRUE, True), (_FALSE, False)):
            for word in candidates:
                found = re.search(rf"\b{word}\b", self.lower)
                if found:
                    hits.append((found.start(), value))
        return min(hits)[1] if hits else None

    def _number(self, kind: type) -> Any:
        while self.numbers:
            text = self.numbers.pop(0)
            try:
                return kind(float(text)) if kind is int and "." not in text else kind(text)
            except ValueError:
                continue
        return None


def _pop(values: list[str]) -> str | None:
    return values.pop(0) if values else None


def _phrase(result: ToolResponse) -> str:
    action = _humanize(result.name)
    output = result.output
    if is_error_map(output):
        error = output["error"]
        return f"I couldn't {action}: {error.get('message') or error.get('code_name')} ({error.get('code_name')})."
    if isinstance(output, dict) and output.get("status") == CANCELLED_BY_USER:
        return f"I did not {action}, because you declined it."
    if isinstance(output, dict) and set(output) == {"result"}:
        value = output["result"]
        if value is None:
            return f"Done: {action}."
        if isinstance(value, list):
            return f"{action.capitalize()} returned {len(value)} item{'s' if len(value) != 1 else ''}" + (
                ": " + "; ".join(_describe(v) for v in value[:5]) + "." if value else "."
            )
        return f"{action.capitalize()} returned {_describe(value)}."
    if not output:
        return f"Done: {action}."
    return f"Here is what {action} returned: {_describe(output)}."


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            if item is None or item == "" or item == []:
                continue
            parts.append(f"{_humanize(key)}: {_describe(item)}")
        return ", ".join(parts) if parts else "nothing"
    if isinstance(value, list):
        return "[" + "; ".join(_describe(v) for v in value[:5]) + (" ..." if len(value) > 5 else "") + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, default=str)
