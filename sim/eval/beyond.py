"""An action beyond the calls: the reply says the thing was also put somewhere or given to someone
("pinned it to your home screen", "it's shared with your family group", "partagée avec vos
contacts") in a verb no action of the turn has. The shape is a participle (or past) sent towards
the user's own place or people: a doing, told as done, that no call did.

Only the shape is read, not a list of verbs: any past carried "to"/"with"/"onto" the user's
something. What the turn's own actions say of themselves ("saved it to your notes" after creating a
note, "sent it to your mom") and any word the conversation itself holds (a status "delivered" in a
result, a verb the user asked for, a tool's description) are left to the other readings.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from sim.eval.phrases import Clause

# A past (regular, or one of the grammar's irregular pasts the caller knows), with at most a pronoun
# or a short noun phrase for its object, then a preposition of direction or company before the
# user's own place or people: "pinned it to your home screen", "shared with your family group",
# "synced the list to your watch".
_TOWARDS_YOURS = re.compile(r"\b(?P<verb>[a-z]+)(?:\s+(?:it|them|this|that|these|those|(?:the|a|your)\s+[\w-]+))?"
                            r"\s+(?:to|with|onto|on|into)\s+(?:all\s+(?:of\s+)?)?your\b", re.I)
# In French, whose same-action verbs are not known ("ajoutée à vos notes" of a note created), only a
# thing shared with the user's people: "partagée avec vos contacts".
_TOWARDS_YOURS_FR = re.compile(r"\b(?P<verb>\w+(?:é|ée|és|ées))\s+avec\s+(?:tous\s+)?(?:vos|votre|tes|ta|ton)\b", re.I)


def actions_beyond(clauses: Iterable[Clause], is_past: Callable[[str], bool],
                   of_the_turn: Callable[[str], bool]) -> list[tuple[str, tuple[str, ...]]]:
    """The asserted, unnegated clauses that tell of a thing done towards the user's own place or
    people in a past ``of_the_turn`` does not hear as the turn's own action, each with those pasts."""
    found = []
    for clause in clauses:
        if not clause.asserts or clause.negated:
            continue
        verbs = tuple(dict.fromkeys(m.group("verb").lower() for pattern, past in
                                    ((_TOWARDS_YOURS, is_past), (_TOWARDS_YOURS_FR, lambda word: True))
                                    for m in pattern.finditer(clause.plain)
                                    if past(m.group("verb")) and not of_the_turn(m.group("verb"))))
        if verbs:
            found.append((clause.text, verbs))
    return found


def in_conversation(past: str, known: str) -> bool:
    """A form of the verb of ``past`` (pinned: pin, pins; shared: share; partagée: partager) is in
    ``known``, the conversation's words: then the reply may only be repeating them."""
    if past.endswith("ed"):
        stem = past[:-2]
        stems = {stem, stem + "e", stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else stem}
    else:
        stems = {re.sub(r"(?:é|ée|és|ées|t|te|ts|tes)$", "", past)}
    return any(len(stem) >= 3 and re.search(rf"\b{re.escape(stem)}\w{{0,4}}\b", known) for stem in stems)
