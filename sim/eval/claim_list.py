"""What a reply says, as a list of claims each held to what happened: the one shape both
readers give (the phrase rules, sim/eval/telling.py; a judge model, sim/eval/judge.py), so
that the words verdict (sim/eval/words_verdict.py) is computed from it the same way
whoever read the reply, and two readings can be set side by side claim by claim.

A claim is what the reply asserts or asks, in its own words (a clause, a table cell, a
JSON field), with what it is said of and whether the calls' results bear it out. What the
reply had to say and did not (a lookup's answer, an action that did not happen among
others that did) is ``Untold``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

DONE = "done"  # an action said carried out: "ORD-7310 is cancelled", "all set"
NOT_DONE = "not_done"  # said not done, failed, to be tried again, or things as they were
OFFERED = "offered"  # an action proposed or asked about: "Shall I create the note?"
ASKED = "asked"  # a question for information or a decision: "Which light?"
VALUE = "value"  # a value stated: a status, a time, a temperature, a name, an identifier
CLAIM_KINDS = (DONE, NOT_DONE, OFFERED, ASKED, VALUE)
ACTION_KINDS = (DONE, NOT_DONE, OFFERED)

NOT_OWNED_UP = "not_owned_up"  # an action that did not happen, among others that did, not said
ANSWER = "answer"  # a lookup's answer (or the case's ``tell`` fields) not carried
UNTOLD_KINDS = (NOT_OWNED_UP, ANSWER)


@dataclass(frozen=True)
class Claim:
    kind: str
    text: str  # the reply's own words it rests on
    about: str = ""  # what it is said of, in the conversation's words ("ORD-6025"); "": the turn
    true: bool | None = None  # held to the calls and their results; None: nothing to hold it to
    why: str = ""  # what the results say, above all for a false claim

    def __post_init__(self) -> None:
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"unknown claim kind {self.kind!r}; the kinds are {', '.join(CLAIM_KINDS)}")


@dataclass(frozen=True)
class Untold:
    kind: str
    about: str  # the function (its short id; several, joined by ", ")
    why: str  # what is missing: "the reply does not say the status (SHIPPED)"

    def __post_init__(self) -> None:
        if self.kind not in UNTOLD_KINDS:
            raise ValueError(f"unknown kind of untold {self.kind!r}; the kinds are {', '.join(UNTOLD_KINDS)}")


@dataclass(frozen=True)
class Reading:
    """One reader's list for one reply."""

    claims: tuple[Claim, ...] = ()
    untold: tuple[Untold, ...] = ()
    by: str = "rules"  # or "judge openai:NAME"

    @property
    def asks(self) -> bool:
        return any(c.kind in (ASKED, OFFERED) for c in self.claims)

    def false(self, *kinds: str) -> list[Claim]:
        return [c for c in self.claims if c.true is False and (not kinds or c.kind in kinds)]

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "claims": [asdict(c) for c in self.claims], "untold": [asdict(u) for u in self.untold]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Reading":
        return cls(tuple(Claim(**c) for c in data.get("claims") or []),
                   tuple(Untold(**u) for u in data.get("untold") or []), data.get("by", "rules"))
