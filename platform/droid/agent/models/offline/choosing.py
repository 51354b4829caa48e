"""Which tool a piece of a prompt asks for, and how a prompt splits into requests.

A tool's name is read as a verb and the nouns it acts on (``set_light_power``:
set; light, power). A tool is *relevant* to a piece of prompt only when the piece
names one of its nouns, or two words of its description, or holds an id shaped
like the one in a parameter's description (ORD-8492 for ``orderId``): a verb
alone ("set an alarm") never picks a tool, unless the piece also gives every
value the tool requires (one description word likewise: "temperature in Tokyo"). Among relevant tools the score adds
the nouns (3), the verb or a synonym of it (2), description words (1) and the
*fit* of the parameters: +1 for each required one the piece can fill (+0.5 for an optional one), and
each it cannot (-1.5). A destructive tool (cancel, delete...) is only picked when the
prompt says that verb, and a prompt that says one picks nothing else.

``split_clauses`` cuts the prompt at sentence ends, "and", "also", commas and their
French, Thai and Chinese equivalents (never inside quotes); a piece that names a
different tool *with a verb* starts a new request, a piece that only names a
noun starts one only if the previous request is about something else, and the
rest ("and ORD-6025", "and the floor lamp") belong to the request before (or, at
the start, after) them: one request may then make several calls.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

from droid.agent.confirmation import DESTRUCTIVE_VERBS, name_words
from droid.agent.messages import ToolDeclaration
from droid.agent.models.offline import lexicon
from droid.agent.models.offline.relevance import tool_index
from droid.agent.models.offline.values import ID, QUOTED, example_of, id_shape, is_id_param, without_cued_values

# The request's BM25 relevance to a tool (name, description, parameters), as a share of the best
# tool's, weighs this much: as much as one description word for the closest tool. Two tools
# within TIE of each other fit equally well, and the user is asked which is meant.
RELEVANCE_WEIGHT = 0.5
TIE = 0.1
CANDIDATES = 12
STOPWORDS = frozenset(
    "a an the is are was were be been am i me my mine you your it its this that these those of for to in "
    "at by with from and or but please can could would will shall should do does did what's whats "
    "hi hello hey thanks thank kindly just now some any all there here right us our".split()
)
# Question words and common verbs, expanded to the words tools tend to use.
SYNONYMS = {
    "where": ("status", "track", "fetch", "details", "locate", "get"),
    "track": ("status", "fetch", "details"),
    "status": ("fetch", "details", "get"),
    "what": ("get", "fetch", "details", "list", "show"),
    "which": ("list", "get", "show"),
    "how": ("get", "fetch"),
    "show": ("get", "fetch", "list", "details"),
    "check": ("get", "fetch", "status", "details"),
    "tell": ("get", "fetch", "details"),
    "give": ("get", "fetch"),
    "find": ("search", "get", "fetch", "list"),
    "look": ("search", "get", "fetch", "find"),
    "list": ("list", "get", "search"),
    "when": ("status", "details", "delivery", "fetch"),
    "turn": ("set", "switch", "toggle"),
    "switch": ("set", "toggle"),
    "make": ("create", "add"),
    "new": ("create", "add"),
    "add": ("create",),
    "write": ("create", "add"),
    "put": ("update", "set"),
    "set": ("set", "update"),
    "change": ("update", "set", "edit"),
    "edit": ("update", "set"),
    "remove": ("update",),
    "reserve": ("book", "create"),
    "book": ("book",),
    "return": ("cancel",),
    "stop": ("cancel",),
    "drop": ("cancel", "delete"),
    "get": ("get", "fetch"),
    "read": ("get",),
}
_SPLIT = re.compile(
    r"\s*(?:[.?!;。？！；\n]+\s*|,\s*and\s+|,(?!\s*(?:[A-Z]{2,3}\b(?![-\d])|(?:France|USA|UK|England|Japan|Thailand|China)\b))\s*|\s+and\s+|\s+also\s+|\balso,?\s+|\s+et\s+|\s+puis\s+|，|、|และ|แล้วก็|还有|并且|然后|和)\s*",
    re.I,
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_QUESTION = re.compile(
    r"^\s*(?:what|where|when|which|who|whom|whose|why|how|has|have|is|are|was|were|did|does|do(?!\s+not\b)|should|shall"
    r"|can i|could i|may i|am i|do i|would it|will it)\b|\bis it (?:still )?possible\b",
    re.I,
)
# "Is the porch light on?": a yes/no question about how things are asks to look, not to change them.
_STATE_QUESTION = re.compile(r"^\s*(?:is|are|was|were|has|have|did|does|do)\b(?!\s+(?:you|not)\b)", re.I)
_REQUEST = re.compile(r"^\s*(?:please\s+)?(?:can|could|would|will)\s+you\b(?:\s+please\b)?", re.I)
# Words before a verb that make it hypothetical ("before I cancel", "if I delete") or negated.
_NOT_AN_ORDER = re.compile(
    r"\b(?:before|after|if|unless|until|whether|without|instead|when|once|maybe|perhaps|might|in case|"
    r"not|never|no|dont|won'?t|n't)\b|n't\b|\bne\b|\bn'|อย่า|ไม่ต้อง|不要|别|不用", re.I)
_NEGATION = re.compile(r"n't\b|\b(?:not|never|dont|no need to)\b|\bne\b|\bn'|อย่า|ไม่ต้อง|不要|别|不用", re.I)
_PIECE = re.compile(r"[^.?!;,\n。？！，；]+[.?!;,\n。？！，；]*")
_MUTATING = DESTRUCTIVE_VERBS | frozenset(
    "set turn switch toggle dim create add update book edit change put write make reserve rename move archive "
    "pin enable disable start play".split()
)


@dataclass
class Choice:
    tool: ToolDeclaration
    score: float
    verb: bool  # the piece says the tool's verb (or a synonym)
    noun: bool  # the piece names one of the tool's nouns
    tied: list[ToolDeclaration] = field(default_factory=list)  # as good a fit: the user should say which


@dataclass
class Part:
    original: str
    english: str


@dataclass
class Clause:
    tool: ToolDeclaration | None
    parts: list[Part] = field(default_factory=list)
    tied: list[ToolDeclaration] = field(default_factory=list)

    @property
    def original(self) -> str:
        return " ".join(p.original for p in self.parts)

    @property
    def english(self) -> str:
        return " ".join(p.english for p in self.parts)


def words_of(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def same(a: str, b: str) -> bool:
    """One word, give or take an ending: light ~ lights, set ~ sets, cancel ~ cancellation."""
    if a == b or a == b + "s" or b == a + "s":
        return True
    return len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def intent_words(english: str) -> list[str]:
    """The words that say what is wanted: no values (quotes, ids, numbers, names), no stopwords."""
    text = without_cued_values(QUOTED.sub(" ", english))
    text = ID.sub(" ", text)
    return [w for w in words_of(text) if w not in STOPWORDS]


class Chooser:
    def __init__(self, tools: Sequence[ToolDeclaration], prompt_english: str) -> None:
        self.tools = list(tools)
        self.index = tool_index(self.tools)
        self._verbs = Counter(verb_and_nouns(t.name)[0] for t in self.tools)
        # "What did I buy?", "Should I cancel it?", "Before I cancel anything...": a question or a
        # condition about an action is not the action; "don't cancel it" is refused, never done.
        self.asked_destructive, self.refused_destructive = destructive_orders(prompt_english)
        self.state_question = bool(_STATE_QUESTION.search(prompt_english))

    def choose(self, english: str, original: str, fit: Any = None) -> Choice | None:
        literal = intent_words(english)
        expanded = _expand(literal)
        ids = [m.group(0) for m in ID.finditer(original)]
        kinds = [w for i in ids for w in words_of(id_shape(i))]
        relevance = self.index.scores(literal + expanded + kinds)
        # Only tools that share a word with the request can be meant; of those, the closest few
        # are weighed in full, so a prompt costs the same at 12 tools and at 600.
        near = sorted((r, -i) for i, r in enumerate(relevance[t.name] for t in self.tools) if r > 0)[-CANDIDATES:]
        top = near[-1][0] if near else 0.0
        choices = []
        for i in sorted(-i for _, i in near):
            tool = self.tools[i]
            choice = self._score(tool, literal, expanded, ids, english, original, fit, relevance[tool.name] / top)
            if choice is not None:
                choices.append(choice)
        if not choices:
            return None
        fits = [c for c in choices if c.score >= max(c.score for c in choices) - TIE]
        best = fits[0]  # of equally good fits, the first in the catalog, and the others are named
        best.tied = [c.tool for c in fits[1:]]
        return best

    def _score(self, tool, literal, expanded, ids, english, original, fit, relevance) -> Choice | None:
        name = name_words(tool.name)
        verb, nouns = verb_and_nouns(tool.name)
        description = _description_words(tool.description)
        if verb in DESTRUCTIVE_VERBS and not (
            any(same(verb, w) for w in literal + expanded)
            and any(same(verb, w) for w in self.asked_destructive | self.refused_destructive)
        ):
            return None  # never pick a destructive function the user did not ask for (or refuse)
        if self.state_question and verb in _MUTATING:
            return None  # "is it on?" asks to look
        orders = self.asked_destructive | self.refused_destructive
        if orders and not any(same(v, n) for v in orders for n in name):
            if not (fit is not None and fit.names_a_field(tool, english)):
                return None  # "cancel X" must not turn into some other call on X
        kinds = [w for i in ids for w in words_of(id_shape(i))]  # an id's prefix names its kind: note-1 is a note
        noun_hits = sum(1 for w in literal + kinds if any(same(w, n) for n in nouns))
        desc_hits = sum(1 for w in literal if len(w) > 2 and not any(same(w, n) for n in name)
                        and any(same(w, d) for d in description))
        shaped = any(_fits_shape(tool, i) for i in ids)
        verb_hit = bool(verb) and (any(same(verb, w) for w in literal) or verb in expanded)
        said = verb_hit and ids and _takes_unshaped_id(tool)  # "cancel ORD-8492", no example to compare
        # "book Sakura Sushi": a verb only this tool has; "its text", "cancel it": a field or a thing
        # named before.
        # "Jot this down: buy stamps", "Temperature in Tokyo": a generic verb or one description word
        # is enough when the piece itself gives every value the tool requires.
        filled = fit is not None and fit.fills_required(tool, english, original)
        distinctive = verb_hit and self._owners(verb) == 1 and (verb not in _GENERIC_VERBS or filled)
        hinted = fit is not None and (fit.names_a_field(tool, english) or (verb_hit and fit.recallable(tool, original)))
        described = desc_hits >= 2 or (desc_hits == 1 and filled)
        if noun_hits == 0 and not (described or shaped or said or distinctive or hinted):
            return None  # nothing the user actually said points at this tool
        score = 3 * noun_hits + desc_hits + RELEVANCE_WEIGHT * relevance + (3 if verb_hit else 0) + (2 if shaped else 0)
        score += sum(0.5 for s in expanded if any(same(s, n) for n in nouns))
        if fit is not None:
            score += fit.score(tool, english, original)
        return Choice(tool, score, verb_hit or _asks(literal), noun_hits > 0)


    def _owners(self, verb: str) -> int:
        return self._verbs[verb]


_GENERIC_VERBS = frozenset({"get", "set", "list", "search", "find", "fetch", "create", "update", "add", "show", "make"})
_VERBS = DESTRUCTIVE_VERBS | _GENERIC_VERBS | frozenset(
    "book dim switch turn toggle open read check track edit change put write reserve look tell give locate "
    "start play call pin archive move rename enable disable".split()
)


def destructive_orders(english: str) -> tuple[set[str], set[str]]:
    """The destructive verbs the prompt orders, and those it says not to do, piece by piece: a verb
    in a question or after "if", "before", "not"... is neither ordered nor refused, only talked about."""
    ordered: set[str] = set()
    refused: set[str] = set()
    for piece in _PIECE.findall(english):
        request = _REQUEST.match(piece)
        body = piece[request.end():] if request else piece
        question = not request and (bool(_QUESTION.search(body)) or body.rstrip().endswith(("?", "？")))
        for match in _WORD.finditer(body):
            word = match.group(0).lower()
            verbs = {v for v in (word, *SYNONYMS.get(word, ())) if v in DESTRUCTIVE_VERBS}
            if not verbs or question:
                continue
            before = body[:match.start()]
            if not _NOT_AN_ORDER.search(before):
                ordered |= verbs
            elif _NEGATION.search(before) and not re.search(r"\b(?:if|before|after|unless|whether|when)\b", before, re.I):
                refused |= verbs
    return ordered, refused


def refuses(chooser: "Chooser", tool_name: str) -> bool:
    """The prompt says not to do this destructive function's verb, and never says to do it."""
    verb = verb_and_nouns(tool_name)[0]
    return any(same(verb, v) for v in chooser.refused_destructive) and not any(
        same(verb, v) for v in chooser.asked_destructive)


@lru_cache(maxsize=4096)
def verb_and_nouns(tool_name: str) -> tuple[str, tuple[str, ...]]:
    """``set_light_power`` -> ("set", ["light", "power"]); a package prefix before the verb is a noun
    (``hotels_cancel_reservation`` -> ("cancel", ["hotels", "reservation"])); a name with no known
    verb reads its first word as the verb."""
    words = tuple(name_words(tool_name))
    for i, word in enumerate(words):
        if word in _VERBS and len(words) > 1:
            return word, words[:i] + words[i + 1:]
    return (words[0], words[1:]) if len(words) > 1 else ("", words)


@lru_cache(maxsize=4096)
def _description_words(description: str) -> frozenset[str]:
    return frozenset(words_of(lexicon.to_english(description)))


def _asks(literal: list[str]) -> bool:
    return any(w in ("where", "what", "which", "how", "when", "who") for w in literal)


def _expand(words: list[str]) -> list[str]:
    return [s for w in words for s in SYNONYMS.get(w, ())]


def _fits_shape(tool: ToolDeclaration, value: str) -> bool:
    for name, schema in (tool.parameters.get("properties") or {}).items():
        example = example_of(schema or {})
        if is_id_param(name, schema or {}) and example and re.search(r"\d", example) and id_shape(example) == id_shape(value):
            return True
    return False


def _takes_unshaped_id(tool: ToolDeclaration) -> bool:
    return any(is_id_param(n, s or {}) and not example_of(s or {}) for n, s in (tool.parameters.get("properties") or {}).items())


def split_parts(original: str) -> list[Part]:
    """The prompt cut at separators, quotes kept whole; each piece with its English rewording."""
    quotes: list[str] = []

    def hide(match: re.Match[str]) -> str:
        quotes.append(match.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    hidden = QUOTED.sub(hide, original)
    pieces = [p for p in _SPLIT.split(hidden) if p and p.strip()]
    parts = []
    for piece in pieces:
        text = re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], piece).strip()
        parts.append(Part(text, lexicon.to_english(text)))
    return parts


def split_clauses(parts: list[Part], chooser: Chooser, fit: Any = None) -> list[Clause]:
    clauses: list[Clause] = []
    waiting: list[Part] = []  # pieces before the first request that names a tool with a verb
    for part in parts:
        # "..., Paris and New York": a piece that is only a name is one more item, not a request.
        only_a_name = bool(re.fullmatch(r"(?:[A-Z][\w'-]*\s*)+[.?!]*", part.original.strip()))
        choice = None if only_a_name else chooser.choose(part.english, part.original, fit)
        previous = clauses[-1] if clauses else None
        if choice is not None and (choice.verb or (choice.noun and not _same_subject(previous, choice))):
            if previous is not None and previous.tool is not None and previous.tool.name == choice.tool.name:
                previous.parts.append(part)
                continue
            clauses.append(Clause(choice.tool, waiting + [part]))
            waiting = []
        elif previous is not None:
            previous.parts.append(part)
        else:
            waiting.append(part)
    if waiting:
        clauses.append(Clause(None, waiting))
    for clause in clauses:  # the pieces fixed where requests start; all of a request's words choose its tool
        choice = chooser.choose(clause.english, clause.original, fit)
        if choice is not None:
            clause.tool, clause.tied = choice.tool, [t for t in choice.tied if t.name != choice.tool.name]
    return clauses


def _same_subject(previous: Clause | None, choice: Choice) -> bool:
    if previous is None or previous.tool is None:
        return False
    ours = set(verb_and_nouns(choice.tool.name)[1])
    theirs = set(verb_and_nouns(previous.tool.name)[1])
    return any(same(a, b) for a in ours for b in theirs)
