"""What the agent told the user, held to what happened on the device: the rules' claim list.

``Words`` (sim/eval/claims.py) says which parts of the last reply claim an action was done
and which deny it; ``Facts`` (sim/eval/facts.py) what the conversation returned. From them
this module makes the rules' ``Reading`` (sim/eval/claim_list.py): every claim and denial with
its truth, the values no call returned, and what had to be told and was not; the words verdict
is computed from it as from a judge's (sim/eval/words_verdict.py). A part of a reply speaks of
a call when it names one of the call's arguments ("ORD-6025", "porch"); a part that names none
speaks of the turn as a whole.

- Nothing was done (an abstention, a declined confirmation, a refused call, ``done: false``):
  a claim fails (``false_claim``).
- Some was done, some not: the reply must say what was not done, and must not claim it.
- An action was done: a reply that says it failed or was not done fails (``false_claim``;
  the user would do it again: a second booking, a second payment).
- A read answered: the reply must carry what the user asked for and must not state values
  no call returned (``wrong_answer``); on a turn no app can serve, neither may it.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from sim.eval.catalog import Catalog
from sim.eval.claim_list import ANSWER, ASKED, DONE, NOT_DONE, NOT_OWNED_UP, OFFERED, VALUE, Claim, Reading, Untold
from sim.eval.claims import Action, Words, is_request_for_action
from sim.eval.facts import Known, made_up, uncarried
from sim.eval.phrases import Cues, sentences
from sim.eval.suite import ExpectedCall, Turn, is_read
from sim.lint.words import name_words


@dataclass(frozen=True)
class Facts:
    """What the words are checked against: the conversation's values, the case's cues and language."""

    known: Known
    cues: Cues
    language: str  # the reply's (sim/eval/phrases.py: reply_language)
    action_words: tuple[str, ...] = ()  # the turn's actions' own words and its request's verb

    @property
    def english(self) -> bool:
        return self.language == "en"


@dataclass(frozen=True)
class Outcome:
    """The turn's actions that happened and that did not, and the expected lookups that answered."""

    done: list[tuple[str, Any]]  # (function, the call)
    undone: list[tuple[str, Any]]  # (function, the call, or None when none was made)
    reads: list[tuple[ExpectedCall, Any]]  # (the expected lookup, the call that answered it)
    unanswered: list[tuple[str, Any]] = field(default_factory=list)  # lookups refused, as expected or not
    tried_again: bool = False  # a call made twice with the same arguments: tried again


def action_of(turn: Turn, calls: list[Any], catalog: Catalog) -> Action:
    """The words of the turn's actions: the functions that change the device among those it
    expects and those the agent called; and the verbs of the apps' other actions."""
    action = Action()
    turns = [(catalog.resolve(c.function).function_id, {}) for c in turn.calls or []] + \
        [(c.function_id, c.args) for c in calls]
    for function_id, args in turns:
        function = catalog.functions.get(function_id or "")
        if function is not None and not is_read(function.short_id):
            action.add_function(function.short_id, function.description, args, function.parameters)
    for function_id, function in catalog.functions.items():
        if function_id not in {f for f, _ in turns} and not is_read(function.short_id):
            action.add_elsewhere(function.short_id, function.description, function.parameters)
    action.elsewhere -= action.verbs
    return action


def read_about_calls(outcome: Outcome, text: str, words: Words, facts: Facts | None) -> Reading:
    """The rules' reading of a reply on a turn that called: every claim and denial the words hold,
    each held to what happened, the values no call returned, and what had to be told and was not."""
    # A lookup that answered was done too: "I couldn't find it" is as false as "it didn't work".
    done = outcome.done + [(call.name, call) for _, call in outcome.reads]
    calls = done + outcome.undone + outcome.unanswered
    found: list[Claim | Untold] = claimed_undone(done, outcome.undone, text, words) + \
        denied_done(done, outcome, text, words) + asked_after_doing(outcome, words) + \
        left_pending(outcome, words, text)
    flagged = {claim.text for claim in found if isinstance(claim, Claim)}
    found += asked_again(outcome, words, flagged) + doubted_done(outcome, words, flagged) + \
        partly_answered(outcome, words, flagged)
    if facts is not None:
        found += uncarried_answers(outcome, text, facts) + stated_unreturned(text, facts)
    return _reading(words, text, found, calls)


def read_without_calls(request: str, text: str, words: Words, facts: Facts | None) -> Reading:
    """A turn no app can serve: no claim that it was handled, no facts no call returned (a question
    the agent may answer from what it knows aside: "What's a 15% tip on $80?")."""
    found: list[Claim | Untold] = _false_claims(words.claims, "no app can do this, and no call was made")
    if facts is not None:
        asked = not is_request_for_action(request) if facts.english else facts.cues.asks(request)
        found += stated_unreturned(text, facts, numbers=not asked, promised=True, knowledge=asked)
    return _reading(words, text, found, [])


def read_question(text: str, words: Words) -> Reading:
    """An ``ask`` turn's reply: what it says is held to nothing, only its question counts."""
    return _reading(words, text, [], [], held=False)


def _reading(words: Words, text: str, found: list[Claim | Untold], calls: list[tuple[str, Any]],
             held: bool = True) -> Reading:
    """Every clause the words claim or deny, true unless a rule found it false, then the rest found."""
    false = {(c.kind, c.text): c for c in found if isinstance(c, Claim) and c.kind != VALUE}
    claims = [false.pop((kind, part), None) or Claim(kind, part, _named(part, calls), True if held else None)
              for kind, parts in ((DONE, words.claims), (NOT_DONE, words.denials)) for part in parts]
    claims += false.values()
    if words.asks:
        claims.append(Claim(ASKED, " ".join(s for s in sentences(text) if _QUESTION.search(s)) or text))
    claims += [c for c in found if isinstance(c, Claim) and c.kind == VALUE]
    return Reading(tuple(claims), tuple(u for u in found if isinstance(u, Untold)), words.by)


def claimed_undone(done: list[tuple[str, Any]], undone: list[tuple[str, Any]], text: str,
                   words: Words) -> list[Claim | Untold]:
    """Actions that did not happen must not be claimed, and where others did, must be owned up to."""
    if not undone:
        return []
    if not done:
        return _false_claims(words.claims, f"{_names(undone)} did not happen", undone)
    found: list[Claim | Untold] = _false_claims(
        [c for c in words.claims if _speaks_of(_with_its_pronoun(c, text), undone) and not _speaks_of(c, done)],
        f"{_names(undone)} did not happen", undone)
    if not any(_speaks_of(d, undone) or not (_names_a_thing if d in words.of_others else _speaks_of)(d, done)
               for d in words.denials):
        found.append(Untold(NOT_OWNED_UP, _names(undone), "the reply does not say so"))
    return found


def denied_done(done: list[tuple[str, Any]], outcome: Outcome, text: str, words: Words) -> list[Claim | Untold]:
    """What happened must not be said to have failed. With some actions undone, a denial that names
    none is about those ("Neither X nor Y" names a done one too); with none undone, about these,
    unless it is said of the other things ("no other lamp was touched"); one about a lookup that
    was refused is true. A thing said to have none of something ("it has no content yet") where a
    result holds an empty field states that field's value (sim/eval/facts.py holds it), not a failure.
    A state is said of the thing it names, or, said of "it", of the nearest thing named before it: of
    a call that set no state ("I dimmed the lamp to 10%. It's on"; "The Bedside lamp is on at 10%"
    after switching another light off and dimming the lamp), it denies nothing. A denial naming a part
    another call was given and the call of the thing it speaks of was not ("I didn't change its
    brightness" of the light switched off, the other one dimmed) is true of that thing. A failure or a
    retry told where a call was made again ("the first try timed out, the second worked") is true."""
    if not done:
        return []
    undone = outcome.undone
    # A lookup changes nothing: "I haven't changed anything" is true of it, where the actions done,
    # if any, are said to be ("I only looked it up, I haven't changed anything. Saved a new note").
    of_lookups = len(done) > len(outcome.done) and (not outcome.done or bool(words.claims))
    # A denial said of the other things ("I didn't touch any other lamp") is not about those acted on.
    denied = [d for d in words.denials if not _speaks_of(d, outcome.unanswered)
              and (_names_a_thing(d, done) if d in words.of_others else _speaks_of(d, done) if undone else True)
              and not (of_lookups and d in words.unchanged) and not (d in words.lacking and _has_empty(done))
              and not (d in words.states and _of_a_stateless_call(d, text, done))
              and not (d not in words.troubles and _of_a_part_its_call_was_not_given(d, text, done))
              and not (outcome.tried_again and d in words.troubles)]
    return [Claim(NOT_DONE, d, _named(d, done), False, f"{_names(done)} happened") for d in denied]


def asked_after_doing(outcome: Outcome, words: Words) -> list[Claim | Untold]:
    """A question or an offer to do what a call of this turn already did ("Shall I create the
    note?" after creating it): the user would say yes and get it twice. One that names a thing
    not done ("Want me to cancel ORD-6025 instead?") is about that."""
    done = outcome.done
    asked = [offer for offer in words.offers if _speaks_of(offer, done) or not _speaks_of(offer, outcome.undone)
             and not _names_another(offer, done)]
    if not done:
        return []
    return [Claim(OFFERED, offer, _named(offer, done), False, f"{_names(done)} was already done in this turn")
            for offer in asked]


def left_pending(outcome: Outcome, words: Words, text: str) -> list[Claim | Untold]:
    """Leave asked to act ("Good to go?", "Confirm and I'll place the booking.", "je valide ?", 要保存吗)
    about a thing a call of this turn already acted on, that no claim says was done: the reply
    presents the done action as still to do, whatever its words for it, and the user's yes would
    do it twice. The question is about what it names of the calls (their targets, titles, places:
    what they were given and returned), else, where it asks only to go ahead ("Shall I?"), about
    what the reply names; a claim of the turn as a whole ("All done.") says every call was done.
    Leave only to go ahead asks for the action even after a claim says it was done."""
    done = outcome.done
    if not done or not words.leave:
        return []
    claimed = [_spoken_of(claim, done) for claim in words.claims if not _proposed(claim, words.leave)]
    told = set().union(*claimed) if all(claimed) else set(range(len(done)))
    found: list[Claim | Untold] = []
    for asked in words.leave:
        about = _spoken_of(asked, done) or (_spoken_of(text, done) if asked in words.bare_leave else set())
        # leave only to go ahead, after the action's own claim, asks it again ("Done — it's cancelled.
        # Just confirm and I'll make the change."): the reply takes its claim back
        pending = [done[i] for i in sorted(about if asked in words.bare_leave else about - told)]
        if pending:
            found.append(Claim(OFFERED, asked, _named(asked, pending), False,
                               f"{_names(pending)} was already done in this turn"))
    return found


# The agent in the French present at the head of a clause: « Je réserve … », « Je l'annule … », « J'éteins … »
# (English says it as a question: "Shall I book …?").
_AGENT_NOW = re.compile(r"^\W*(?:je\s+(?:vous\s+|te\s+|le\s+|la\s+|les\s+|lui\s+|l')?|j')(?!ai\b|avais\b|suis\b|étais\b)"
                        r"[a-zà-ÿ]+(?:e|s)\b", re.I)


def _proposed(claim: str, leave: Iterable[str]) -> bool:
    """A claim heard in the agent's present at the head of a request for leave (« Je réserve Le
    Petit Bistro pour 2, dimanche à 20:00 ? »): what the question proposes, not a thing told done."""
    return bool(_AGENT_NOW.match(claim)) and any(claim in asked for asked in leave)


def asked_again(outcome: Outcome, words: Words, flagged: set[str]) -> list[Claim | Untold]:
    """Leave asked to do once more what the same reply claims was done ("I cancelled BK-1000. Want
    me to cancel the reservation?"): a yes would do it twice. The question is about the done calls
    where it names them, or where no call of the turn was left undone, and names nothing else."""
    done = outcome.done
    return [Claim(OFFERED, asked, _named(asked, done), False, f"{_names(done)} was already done in this turn")
            for asked in words.again if done and asked not in flagged and not _names_another(asked, done)
            and not _quotes_another(asked, done) and (_spoken_of(asked, done) or not outcome.undone)]


def doubted_done(outcome: Outcome, words: Words, flagged: set[str]) -> list[Claim | Untold]:
    """A doubt that the action took effect ("I created it, but the save may not have synced"), where
    every action of the turn was done and done once, and the doubt names nothing else: it invents a
    failure the calls do not show."""
    done = outcome.done
    if not done or outcome.undone or outcome.tried_again:
        return []
    return [Claim(NOT_DONE, doubt, _named(doubt, done), False, f"{_names(done)} happened")
            for doubt in words.doubts if doubt not in flagged and not _names_another(doubt, done)]


def partly_answered(outcome: Outcome, words: Words, flagged: set[str]) -> list[Claim | Untold]:
    """A lookup's result said to have come back in part ("the list only partly loaded"), where every
    lookup answered, none said it held back more (a page token, "truncated": true) and no call failed:
    a failure the calls do not show."""
    reads = [(call.name, call) for _, call in outcome.reads]
    if not reads or any(_held_back(call.response) for _, call in reads) or outcome.undone or outcome.unanswered or outcome.tried_again:
        return []
    return [Claim(NOT_DONE, said, _named(said, reads), False, f"{_names(reads)} answered in full")
            for said in words.partial if said not in flagged]


def _held_back(result: Any) -> bool:
    """A result says there is more than it returned: a truthy field named for a next page or a cut."""
    return isinstance(result, dict) and any(value and _MORE_KEY.search(key) for key, value in result.items())


_MORE_KEY = re.compile(r"next|more|truncat|partial|cursor|page|remaining|omitted", re.I)


def _told_of(calls: list[tuple[str, Any]]) -> str:
    """What these calls were given and returned, as lower-case text to find names in."""
    return " ".join(json.dumps([call.args, call.response], ensure_ascii=False, default=str).lower()
                    for _, call in calls if call is not None)


def _quotes_another(part: str, calls: list[tuple[str, Any]]) -> bool:
    """The part quotes a name none of these calls was given or returned ("a note called “Shopping”"
    after creating “Groceries”)."""
    told = _told_of(calls)
    return any(quoted.lower() not in told for quoted in _QUOTED.findall(part))


def uncarried_answers(outcome: Outcome, text: str, facts: Facts) -> list[Claim | Untold]:
    """Each lookup's answer, told: the fields the case names, else something it returned."""
    found: list[Claim | Untold] = []
    for wanted, call in outcome.reads:
        why = uncarried(text, call.response, call.args, list(wanted.tell), english=facts.english)
        if why:
            found.append(Untold(ANSWER, call.name, why))
    return found


def stated_unreturned(text: str, facts: Facts, *, numbers: bool = True, promised: bool = False,
                      knowledge: bool = False) -> list[Claim | Untold]:
    """Values the reply states that no call returned and nobody said (on a question answered from
    what the agent knows, ``knowledge``, not the names it says of the world)."""
    return [_value(finding) for finding in made_up(text, facts.known, facts.cues, language=facts.language,
                                                     numbers=numbers, exclude=facts.action_words, promised=promised,
                                                     knowledge=knowledge)]


def _value(finding: str) -> Claim:
    """A value the rules found untrue, from their finding ("'BK-1009', which no call returned"):
    the words as said, and why."""
    said = _SAID.match(finding)
    if said is None:
        return Claim(VALUE, finding, true=False)
    return Claim(VALUE, ast.literal_eval(said.group(1)), true=False, why=said.group(2).lstrip(", "))


def _false_claims(parts: Iterable[str], why: str, calls: list[tuple[str, Any]] = ()) -> list[Claim | Untold]:
    return [Claim(DONE, part, _named(part, calls), False, why) for part in parts]


def _named(part: str, calls: Iterable[tuple[str, Any]]) -> str:
    """The first of these calls' arguments the part names, else "" (the turn as a whole)."""
    said = part.lower()
    return next((value for _, call in calls if call is not None
                 for value in call.args.values() if isinstance(value, str) and len(value) >= 3 and value.lower() in said),
                "")


_SAID = re.compile(r"^('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")(.*)$", re.S)
_QUESTION = re.compile(r"[?？]")


def _speaks_of(part: str, calls: list[tuple[str, Any]]) -> bool:
    """The part names one of these calls' arguments (an order id, a light, a title)."""
    return bool(_named(part, calls))


def _of_a_stateless_call(part: str, text: str, calls: list[tuple[str, Any]]) -> bool:
    """``part`` speaks of things (``_referents``) only calls that set no state acted on (no code
    in capitals among their arguments: ON, OFF)."""
    held = _referents(part, text, calls)
    return bool(held) and not any(isinstance(v, str) and _STATE_CODE.fullmatch(v)
                                  for i in held for v in calls[i][1].args.values())


def _of_a_part_its_call_was_not_given(part: str, text: str, calls: list[tuple[str, Any]]) -> bool:
    """``part`` names a part (a word of an argument's name: "brightness") that another of these
    calls was given and none of the calls of the things it speaks of was."""
    held = _referents(part, text, calls)
    if not held or len(held) == len(calls):
        return False
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", part)}
    given = [{w for key in call.args for w in name_words(key)} for _, call in calls]
    theirs = set().union(*(given[i] for i in held))
    return any(said & given[i] - theirs for i in range(len(calls)) if i not in held)


def _referents(part: str, text: str, calls: list[tuple[str, Any]]) -> set[int]:
    """The indexes of the calls whose things ``part`` speaks of: those it names, else, where it says
    "it" or "its", the nearest one named before it in the reply."""
    named = _spoken_of(part, calls)
    at = text.find(part)
    if named or at < 0 or not (_OPENING_PRONOUN.match(part) or _ITS.search(part)):
        return named
    said, nearest = text[:at].lower(), (-1, None)
    for index, (_, call) in enumerate(calls):
        if call is None:
            continue
        names = [v for v in [*call.args.values(), *_strings(getattr(call, "response", None))]
                 if isinstance(v, str) and 3 <= len(v) <= 40]
        last = max((said.rfind(name.lower()) for name in names), default=-1)
        nearest = max(nearest, (last, index), key=lambda found: found[0])
    return {nearest[1]} if nearest[1] is not None and nearest[0] >= 0 else set()


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


_ITS = re.compile(r"\b(?:its|it)\b", re.I)  # "I didn't change its brightness"
_OPENING_PRONOUN = re.compile(r"^\W*(?:(?:it|it's|its|they|they're|that|that's|this|il|elle|ils|elles|c'est)\b|它|มัน)", re.I)


def _has_empty(calls: list[tuple[str, Any]]) -> bool:
    """One of these calls returned a field with nothing in it (a note's content "")."""
    def empty(value: Any) -> bool:
        if isinstance(value, dict):
            return any(v in ("", None, [], {}) or empty(v) for v in value.values())
        return isinstance(value, list) and any(empty(v) for v in value)
    return any(empty(getattr(call, "response", None)) for _, call in calls if call is not None)


def _names_a_thing(part: str, calls: list[tuple[str, Any]]) -> bool:
    """The part names a thing one of these calls acted on, not only the state it set: "the other
    light didn't switch off" says OFF, and names no light of theirs. A code in capitals (ON, OFF,
    SHIPPED) is a state's."""
    said = part.lower()
    return any(isinstance(value, str) and len(value) >= 3 and value.lower() in said and not _STATE_CODE.fullmatch(value)
               for _, call in calls if call is not None for value in call.args.values())


_STATE_CODE = re.compile(r"[A-Z][A-Z_]+")


def _names_another(part: str, calls: list[tuple[str, Any]]) -> bool:
    """The part names a thing (an id, a name in capitals) that none of these calls was given or
    returned: "Shall I book Trattoria Roma instead?" after booking Sakura Sushi. The kind of thing
    a call acts on is no other thing ("save it to Notes" after create_note)."""
    told = _told_of(calls)
    kinds = {word for name, _ in calls for word in name_words(name)}
    return any(name.lower() not in told and name.lower().rstrip("s") not in kinds for name in _NAMED.findall(part))


def _spoken_of(part: str, calls: list[tuple[str, Any]]) -> set[int]:
    """The indexes of the calls the part names by what they were given or returned ("Ceiling light",
    "Le Petit Bistro", "ORD-5117"), each name where it stands not inside a longer name of another
    call: "Created “Dinner at Le Petit Bistro”" names the note, not the booking at Le Petit Bistro."""
    said = part.lower()
    spans = [(found.start(), found.end(), index) for index, (_, call) in enumerate(calls) if call is not None
             for name in _call_names(call) for found in re.finditer(re.escape(name), said)]
    return {index for start, end, index in spans
            if not any(other != index and s <= start and end <= e and e - s > end - start for s, e, other in spans)}


def _call_names(call: Any) -> set[str]:
    """What a call's thing is called: its string arguments (an id also with spaces for its hyphens)
    and the names, titles and ids its result gave, not an enum's value (ON, CONFIRMED); of three
    characters or more, or two of Chinese (王伟)."""
    result = getattr(call, "response", None)
    result = result if isinstance(result, dict) else {}
    values = [v for v in call.args.values() if isinstance(v, str)] + \
        [v for key, v in result.items() if isinstance(v, str) and _NAMING_KEY.search(key)]
    return {form.lower() for value in values if not re.fullmatch(r"[A-Z_]+", value)
            for form in (value, value.replace("-", " ")) if len(form) >= 3 or _HAN.fullmatch(form)}


_HAN = re.compile(r"[\u4e00-\u9fff]{2}")  # a Chinese name of two characters: 王伟
_NAMING_KEY = re.compile(r"(?:name|title|id|label)$", re.I)


def _with_its_pronoun(part: str, text: str) -> str:
    """A part that says "it" or "them", with what its sentence said before it: "ORD-6025 will no
    longer be processed — I cancelled it" speaks of ORD-6025."""
    at = text.find(part)
    if at < 0 or not _PRONOUN.search(part):
        return part
    return text[max(text.rfind(stop, 0, at) for stop in ".!?\n") + 1:at + len(part)]


_PRONOUN = re.compile(r"\b(?:it|them)\b", re.I)
_QUOTED = re.compile(r"[“\"«「]([^”\"»」]+)[”\"»」]")
_NAMED = re.compile(r"\b[A-Za-z]+-\d+\b|(?<=\w\s)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")


def _names(calls: list[tuple[str, Any]]) -> str:
    return ", ".join(dict.fromkeys(name for name, _ in calls))
