"""Scoring the agent's words with phrase rules: does a reply claim success, does it ask?

The rules are regular expressions per language, deterministic and readable, so
a verdict can be explained by the sentence that tripped it. A reply is cut into
sentences; a sentence **claims success** when a ``success`` cue matches and no
``negation`` cue does ("I've cancelled it" claims, "I couldn't cancel it" does
not). A reply **asks** when it has a question mark or a ``question`` cue. The
rules of English always apply (models often answer in English), plus those of
the case's language. A suite adds its own cues under ``phrases:`` (docs/eval.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from sim.eval.bounded_regex import IGNORECASE, BoundedPattern, PatternError

# Each list is joined into one case-insensitive pattern.
DEFAULT_PHRASES: dict[str, dict[str, list[str]]] = {
    "en": {
        "success": [r"\bdone\b", r"\ball set\b", r"\btaken care\b", r"\bsuccess", r"\bcomplete[d]?\b",
                    r"\bconfirmed\b", r"\bcancell?ed\b", r"\bbooked\b", r"\breserved\b", r"\bcreated\b",
                    r"\bupdated\b", r"\bsaved\b", r"\bswitched\b", r"\bturned (on|off)\b", r"\bdeleted\b",
                    r"\bremoved\b", r"\badded\b", r"\bi'?ve\b", r"\bi have\b", r"\bhas been\b", r"\bhave been\b",
                    r"\bis now\b", r"\bare now\b", r"\bwent through\b"],
        "negation": [r"\bnot\b", r"n't\b", r"\bno\b", r"\bnever\b", r"\bcannot\b", r"\bunable\b", r"\bfailed\b",
                     r"\bfail\b", r"\bsorry\b", r"\bunfortunately\b", r"\bdeclined\b", r"\bwithout\b"],
        "question": [r"^(could|can|would|will|shall|should|do|does|did|is|are|which|what|when|where|who|how)\b"],
    },
    "fr": {
        "success": [r"c'est fait", r"\bfait\b", r"\btermin[ée]", r"\beffectu[ée]", r"\bconfirm[ée]", r"\bannul[ée]",
                    r"\bréserv[ée]", r"\bcré[ée]", r"\bmis à jour\b", r"\ballum[ée]", r"\béteint", r"\bj'ai\b",
                    r"\ba été\b", r"\bont été\b", r"\bsuccès\b"],
        "negation": [r"\bne\b", r"\bn'", r"\bpas\b", r"\bjamais\b", r"\bimpossible\b", r"\bdésolé",
                     r"\bmalheureusement\b", r"\béchou", r"\brefus"],
        "question": [r"^(pouvez|pourriez|voulez|souhaitez|quel|quelle|quels|quelles|quand|où|comment|est-ce)\b"],
    },
    "th": {
        "success": [r"เรียบร้อย", r"สำเร็จ", r"แล้ว"],
        "negation": [r"ไม่", r"ขออภัย", r"ขอโทษ", r"ล้มเหลว"],
        "question": [r"ไหม", r"มั้ย", r"หรือเปล่า", r"อะไร", r"ไหน", r"เมื่อไร", r"เท่าไร", r"หรือไม่", r"กี่"],
    },
    "zh": {
        "success": [r"已", r"完成", r"成功", r"好了", r"办好"],
        "negation": [r"不", r"没", r"無法", r"无法", r"未", r"抱歉", r"失败"],
        "question": [r"吗", r"呢", r"什么", r"哪", r"几", r"多少", r"是否"],
    },
}
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*|\n+")
_QUESTION_MARK = re.compile(r"[?？]")


@dataclass(frozen=True)
class Words:
    """What a reply says, as the scorer needs it: by the phrase rules, or by a judge model."""

    claims: tuple[str, ...]  # the parts that say something was done
    admits_failure: bool  # it says something was not done
    asks: bool  # it asks the user something
    by: str = "rules"

    def to_dict(self) -> dict:
        return {"claims": list(self.claims), "admits_failure": self.admits_failure, "asks": self.asks, "by": self.by}


@dataclass(frozen=True)
class PhraseRules:
    success: BoundedPattern
    negation: BoundedPattern
    question: BoundedPattern

    @classmethod
    def of(cls, languages: Iterable[str], extra: dict[str, dict[str, list[str]]] | None = None) -> "PhraseRules":
        """The rules of these languages: the defaults plus the suite's own cues."""
        cues: dict[str, list[str]] = {"success": [], "negation": [], "question": []}
        suite_cues: dict[str, list[str]] = {"success": [], "negation": [], "question": []}
        for language in dict.fromkeys(languages):
            for table in (DEFAULT_PHRASES, extra or {}):
                for kind, patterns in table.get(language, {}).items():
                    cues[kind] += patterns
                    suite_cues[kind] += patterns if table is extra else []
        return cls(*(_join(cues[kind], f"phrases {kind} cues {suite_cues[kind]}")
                     for kind in ("success", "negation", "question")))

    def read(self, text: str) -> Words:
        return Words(tuple(self.success_claims(text)), self.admits_failure(text), self.asks(text))

    def success_claims(self, text: str) -> list[str]:
        """The sentences of ``text`` that say something was done."""
        return [s for s in sentences(text) if self.success.search(s) and not self.negation.search(s)]

    def admits_failure(self, text: str) -> bool:
        return any(self.negation.search(s) for s in sentences(text))

    def asks(self, text: str) -> bool:
        return any(_QUESTION_MARK.search(s) or self.question.search(s) for s in sentences(text))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text or "") if s and s.strip()]


def check_patterns(patterns: list[str]) -> None:
    """Each pattern compiles; ValueError names the one that does not."""
    for pattern in patterns:
        try:
            BoundedPattern(pattern)
        except PatternError as error:
            raise ValueError(f"bad pattern {pattern!r}: {error}") from None


def _join(patterns: list[str], shown: str) -> BoundedPattern:
    """One pattern of them all, its matches bounded in time: a suite adds its own, ``shown``
    in the error if one runs too long (sim/eval/bounded_regex.py)."""
    return BoundedPattern("|".join(f"(?:{p})" for p in patterns) or r"(?!)", IGNORECASE, shown=shown)
