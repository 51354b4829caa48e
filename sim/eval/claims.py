"""What a reply says happened: claims that an action was done, and denials that it was.

A claim is recognised by what the reply says happened to the thing the function acts on,
in any tense or phrasing, not by a list of cue words. The words of an action come from
the function itself and from the user's request:

- its verb: the first word of its name (``cancel_order``: cancel), the verbs its
  description begins its sentences with ("Switches a light on or off": switch), the
  participles it uses ("The table is released": release), the lint's verbs of the same
  intent (cancel, abort, revoke, terminate: sim/lint/words.py), and in English the verb the
  request starts with ("Send a text to my mom": send);
- the state it leaves things in: the values of the enum arguments of the call ("ON": on).

An English clause **claims** the action when it asserts (sim/eval/phrases.py) and is not
negated, and says the verb happened (its past or participle: cancelled, sent, switched, in
any tense: "is cancelled", "has been cancelled", "I've gone ahead and cancelled", "is being
cancelled") or the state holds ("is on now"), or uses a completion phrase that names no
action ("all set", "taken care of"). It **denies** an action when, negated, it says the verb
or the outcome ("couldn't cancel", "wasn't booked", "didn't go through", "nothing changed"),
or, not negated, reports a failure ("an error", "something went wrong"). French claims are
read through the request's verb too ("Annule ma commande" -> annulée); Thai and Chinese
through their completion and negation cues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from sim.eval.phrases import Cues
from sim.lint.words import INTENT_OF, name_words

# The English verbs whose past does not end in -ed: the grammar's own list, not cue words.
_IRREGULAR = {
    "be": "was were been", "begin": "began begun", "bring": "brought", "build": "built", "buy": "bought",
    "catch": "caught", "choose": "chose chosen", "come": "came come", "cut": "cut", "do": "did done",
    "draw": "drew drawn", "drive": "drove driven", "eat": "ate eaten", "feed": "fed", "find": "found",
    "forget": "forgot forgotten", "freeze": "froze frozen", "get": "got gotten", "give": "gave given",
    "go": "went gone", "grow": "grew grown", "hang": "hung", "have": "had", "hear": "heard", "hide": "hid hidden",
    "hold": "held", "keep": "kept", "know": "knew known", "lay": "laid", "lead": "led", "leave": "left",
    "lend": "lent", "let": "let", "light": "lit lighted", "lose": "lost", "make": "made", "mean": "meant",
    "meet": "met", "pay": "paid", "put": "put", "quit": "quit", "read": "read", "ride": "rode ridden",
    "ring": "rang rung", "rise": "rose risen", "run": "ran run", "say": "said", "see": "saw seen", "seek": "sought",
    "sell": "sold", "send": "sent", "set": "set", "shake": "shook shaken", "shoot": "shot", "show": "showed shown",
    "shut": "shut", "sing": "sang sung", "sit": "sat", "sleep": "slept", "speak": "spoke spoken", "spend": "spent",
    "split": "split", "stand": "stood", "steal": "stole stolen", "stick": "stuck", "strike": "struck",
    "swing": "swung", "take": "took taken", "teach": "taught", "tear": "tore torn", "tell": "told",
    "think": "thought", "throw": "threw thrown", "understand": "understood", "undo": "undid undone",
    "upset": "upset", "wake": "woke woken", "wear": "wore worn", "win": "won", "write": "wrote written",
}
# English ways of saying the same action, beyond the lint's intents: phrasal verbs, and the
# adjectives a thing is left as ("void"). Keyed by the intent's lemma; general English, not a
# list of any app's words.
_SAME_ACTION = {
    "cancel": ("call off", "call it off", "scrap", "nix", "void", "drop"),
    "delete": ("remove", "erase", "wipe", "get rid of", "clear"),
    "create": ("make", "add", "save", "set up", "jot down", "write down", "put down", "note down"),
    "book": ("reserve", "secure", "hold"),
    "send": ("text", "message", "deliver", "forward"),
    "set": ("switch", "turn", "put"),
    "update": ("change", "edit", "modify", "rename", "replace"),
}
_ADJECTIVES = frozenset({"void"})
# Outcomes that name no particular action, said negated: "didn't go through", "nothing changed".
_OUTCOMES = ("work", "go through", "succeed", "happen", "change", "complete", "finish", "process", "manage",
             "able", "get done", "make it", "do it", "do that", "do this")
# Politeness before the verb of a request: "Could you please send...", "I need you to book...".
_REQUEST_OPENING = re.compile(r"^(?:(?:please|kindly|just|hey|ok|okay|can you|could you|would you|will you|"
                              r"i want you to|i need you to|i'd like you to|help me|go ahead and)[\s,]+)*", re.I)
# The agent saying it could not do something, whatever the verb: "I couldn't pull up those details".
_UNABLE = re.compile(r"\b(?:i|we)\s+(?:could\s*not|couldn't|can't|cannot|can\s+not|was\s+unable|were\s+unable|"
                     r"wasn't\s+able|weren't\s+able|was\s+not\s+able|didn't\s+manage|did\s+not\s+manage)\b", re.I)
# Completion that names no particular action, beyond the success cues: "it worked", "that's arranged".
_COMPLETED = re.compile(r"\b(?:worked|succeeded|happened|happening|arranged|organi[sz]ed|scheduled|lined up|in place|"
                        r"wrapped up|ready)\b", re.I)
# A negation whose verb is left out, meaning the action just spoken of: "so it couldn't be", "I can't".
_ELLIPSIS = re.compile(r"^(?:(?:so|and|but|then|yet)\s+)?(?:\w+\s+)?(?:could|can|would|was|were|did|does|do|is|are|has|have|had|will)(?:n't|\s+not)"
                       r"(?:\s+(?:be|been|have been))?[.!]?$", re.I)
_WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?", re.UNICODE)
_QUESTION_WORDS = frozenset("what whats what's how when where who which why is are was were am do does did can could "
                            "would will shall should may might has have had".split())
_DESCRIPTION_VERB = re.compile(r"(?:^|[.;]\s+)([A-Z][a-z]+s)\b")
_PARTICIPLE = re.compile(r"\b(?:is|are|gets|get|becomes)\s+(?:now\s+)?([a-z]+ed)\b")
_FRENCH_PARTICIPLE = r"\w{0,3}(?:é|ée|és|ées|i|ie|is|ies|it|ite|t|te|u|ue)\b"
_BE = r"(?:\b(?:am|is|are|was|were|been|being|now|still)|'s|'re|'m)\s+(?:now\s+|all\s+|already\s+|just\s+|still\s+)?"
_DONE_BY = r"(?:\b(?:i|we|you|it|they|has|have|had|got|get|am|is|are|was|were|been|being)|'s|'re|'m|'ve)\s+(?:\w+\s+)?"


@dataclass
class Action:
    """The words of one action: its verbs and the states it leaves things in."""

    verbs: set[str] = field(default_factory=set)  # lemmas: cancel, switch
    states: set[str] = field(default_factory=set)  # on, off, high
    opposites: set[str] = field(default_factory=set)  # the enum's other values: off for on

    def add_function(self, name: str, description: str, args: dict[str, Any], schema: dict[str, Any]) -> None:
        words = name_words(name)
        if words:
            self.verbs.add(words[0])
        for found in _DESCRIPTION_VERB.findall(description or ""):
            lemma = _lemma_of_third_person(found.lower())
            if lemma:
                self.verbs.add(lemma)
        for participle in _PARTICIPLE.findall(description or ""):
            self.verbs |= _lemmas_of_past(participle)
        for verb in list(self.verbs):
            intent = INTENT_OF.get(verb)
            self.verbs |= {v for v, i in INTENT_OF.items() if i == intent} if intent else set()
        for verb in list(self.verbs):
            self.verbs |= set(_SAME_ACTION.get(verb, ()))
        properties = (schema or {}).get("properties") or {}
        for key, value in (args or {}).items():
            allowed = (properties.get(key) or {}).get("enum") or []
            if isinstance(value, str) and value in allowed:
                self.states.add(_said(value))
                self.opposites |= {_said(other) for other in allowed if isinstance(other, str) and other != value}


    def words(self) -> set[str]:
        """Every word that names this action: its verbs in every form, and its states."""
        return {w for v in self.verbs for w in (v, *forms(v)[0], *forms(v)[1])} | self.states


def _said(value: str) -> str:
    return value.lower().replace("_", " ")


@dataclass(frozen=True)
class Words:
    """What a reply says, as the scorer needs it, by these rules or by a judge model
    (sim/eval/judge.py): the parts that say an action was done, those that say something was
    not done or failed, and whether it asks the user something."""

    claims: tuple[str, ...]
    denials: tuple[str, ...]
    asks: bool
    by: str = "rules"

    @property
    def admits_failure(self) -> bool:
        return bool(self.denials)

    def to_dict(self) -> dict[str, Any]:
        return {"claims": list(self.claims), "denials": list(self.denials), "asks": self.asks, "by": self.by}


class Reader:
    """Reads replies with the cues of the case's languages and the words of the turn's actions."""

    def __init__(self, cues: Cues, languages: Iterable[str]) -> None:
        self.cues = cues
        self.languages = set(languages)

    def read(self, text: str, action: Action, request: str = "") -> Words:
        verbs = set(action.verbs) | ({request_verb(request)} - {None} if "en" in self.languages else set())
        done = _done_pattern(verbs, action.states)
        opposite = _state_pattern(action.opposites - action.states)
        said_verb = _verb_pattern(verbs)
        french = _french_pattern(request) if "fr" in self.languages else None
        claims, denials = [], []
        for clause in self.cues.clauses(text):
            names_action = bool(done and done.search(clause.plain)) or bool(french and french.search(clause.plain))
            if clause.negated and not clause.question:
                outcome = names_action or clause.succeeds or bool(said_verb and said_verb.search(clause.plain)) \
                    or bool(_OUTCOME.search(clause.plain)) or bool(_ELLIPSIS.match(clause.plain.strip())) \
                    or bool(_UNABLE.search(clause.plain))
                # In another language than English, a negated clause says it was not done.
                if outcome or clause.negated_in - {"en"}:
                    denials.append(clause)
            elif clause.asserts and (clause.fails or bool(opposite and opposite.search(clause.plain))):
                denials.append(clause)  # "an error occurred"; "the porch light is still off"
            elif clause.asserts and (names_action or clause.succeeds or _COMPLETED.search(clause.plain)):
                claims.append(clause)
        return Words(tuple(c.text for c in claims), tuple(c.text for c in denials), self.cues.asks(text))


def request_verb(request: str) -> str | None:
    """The verb an English request starts with ("Please send a text to mom": send), or None for a
    question ("What's a 15% tip?")."""
    words = _WORD.findall(_REQUEST_OPENING.sub("", request.strip()))
    if not words or words[0].lower() in _QUESTION_WORDS or request.strip().endswith("?") and \
            not _REQUEST_OPENING.match(request.strip()).group(0):
        return None
    return words[0].lower()


def is_request_for_action(request: str) -> bool:
    """An English request to do something, not a question the agent may answer from what it knows."""
    return request_verb(request) is not None


def forms(lemma: str) -> tuple[set[str], set[str]]:
    """A verb's past and participle forms, and its -ing forms, regular or not: cancel -> cancelled,
    canceled, cancelling; send -> sent, sending; dim -> dimmed, dimming; call off -> called off
    (an adjective such as "void" is its own form)."""
    lemma = lemma.lower()
    if " " in lemma:
        first, rest = lemma.split(" ", 1)
        past, ing = forms(first)
        return {f"{p} {rest}" for p in past}, {f"{i} {rest}" for i in ing}
    if lemma in _ADJECTIVES:
        return {lemma}, set()
    past, ing = set(_IRREGULAR.get(lemma, "").split()), set()
    stems = {lemma, lemma + lemma[-1]} if re.search(r"[^aeiou][aeiou][bdglmnprt]$", lemma) else {lemma}
    for stem in stems:
        if stem.endswith("e"):
            past.add(stem + "d")
            ing.add(stem[:-1] + "ing")
        elif re.search(r"[^aeiou]y$", stem):
            past.add(stem[:-1] + "ied")
            ing.add(stem + "ing")
        else:
            past.add(stem + "ed")
            ing.add(stem + "ing")
    return past, ing


def _lemma_of_third_person(word: str) -> str | None:
    """"Cancels" -> cancel, "Switches" -> switch, "Copies" -> copy; None for a word that is no verb
    of this shape ("Orders" as a noun is taken as a verb too: harmless, it only adds a form)."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if re.search(r"(ch|sh|x|ss|zz)es$", word):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return None


def _lemmas_of_past(participle: str) -> set[str]:
    stem = participle[:-2]
    return {stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem}


def _done_pattern(verbs: set[str], states: set[str]) -> re.Pattern | None:
    """Said to be done: a past or participle ("cancelled", "sent"), an -ing after a form of be
    ("is being cancelled", "I'm sending it"), or a state after one ("is on now"). A past that is
    also the verb itself (set, put) counts after a subject or an auxiliary only ("I set it", "it's
    set"), not in a list of what can be done ("search tables; set light power")."""
    past = {f for v in verbs if v for f in forms(v)[0]}
    bare = {v for v in verbs if v in past}
    ing = sorted({f for v in verbs if v for f in forms(v)[1]})
    parts = [r"\b(?:" + "|".join(map(re.escape, sorted(past - bare))) + r")\b"] if past - bare else []
    if bare:
        parts.append(_DONE_BY + r"(?:" + "|".join(map(re.escape, sorted(bare))) + r")\b")
    if ing:
        parts.append(_BE + r"(?:" + "|".join(map(re.escape, ing)) + r")\b")
    state = _state_pattern(states)
    return re.compile("|".join(parts + [state.pattern] if state else parts), re.I) if parts or state else None


def _state_pattern(states: set[str]) -> re.Pattern | None:
    """A state said of something ("is on now"), not a field's name in a listing ("is on: no")."""
    if not states:
        return None
    return re.compile(_BE + r"(?:" + "|".join(map(re.escape, sorted(states))) + r")\b(?!\s*:)", re.I)


def _verb_pattern(verbs: set[str]) -> re.Pattern | None:
    """The verb in any form, for a negated clause: "couldn't cancel", "not cancelling"."""
    words = sorted({w for v in verbs if v for w in (v, *forms(v)[0], *forms(v)[1])})
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.I) if words else None


def _outcome_pattern() -> re.Pattern:
    """Outcomes that name no action: "didn't go through", "nothing changed", "wasn't able"."""
    phrases = set()
    for outcome in _OUTCOMES:
        first, *rest = outcome.split()
        past, ing = forms(first)
        phrases |= {" ".join([word, *rest]) for word in (first, first + "s", *past, *ing)}
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(phrases))) + r")\b", re.I)


_OUTCOME = _outcome_pattern()


def _french_pattern(request: str) -> re.Pattern | None:
    """The participle of the verb a French request starts with: "Annule ma commande" -> annulée."""
    words = _WORD.findall(request.lower())
    if not words:
        return None
    stem = re.sub(r"(ez|es|e|s)$", "", words[0])
    return re.compile(re.escape(stem[:6]) + _FRENCH_PARTICIPLE, re.I) if len(stem) >= 3 else None

