"""Questions and offers to do an action: "Shall I create the note?", "Want me to switch it on?".

Asked after a call of the same turn already did it, such a question is a false one: the user
would say yes and get it twice (sim/eval/telling.py). An offer is read in the agent's voice
(a question, "want me to", "I can ... if you like", "voulez-vous que je", 要我…吗, ให้…ไหม) that
says the turn's action (its verbs in their base form; the French request's verb; in Chinese and
Thai the request's opening verb) of a thing it names or points back to ("it", "the note", an id,
a name), or that asks only to go ahead ("Want me to go ahead?"). An offer about another thing
("another note", "anything else", 其他, อื่น) or about undoing it ("switch it back off") is none.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.eval.claims import Action
    from sim.eval.phrases import Clause

# An offer to do something, in the agent's voice: "shall I", "want me to", "I can ... if you like",
# "voulez-vous que je", "je peux".
_OFFER = re.compile(r"\b(?:shall|should)\s+(?:i|we)\b|\b(?:want|like|wish|need|prefer)\s+me\s+to\b"
                    r"|\b(?:i|we)\s+(?:can|could)\b[^.?!]*\bif\s+you\b|\blet\s+me\s+know\s+if\b"
                    r"|\b(?:voulez|souhaitez|veux|aimeriez|préférez)[-\s](?:vous|tu)\s+que\s+je\b|\bje\s+peux\b", re.I)
# Going ahead with what was just spoken of, and nothing else: "Shall I proceed?", "Want me to go ahead
# with it?", "Voulez-vous que je continue ?", 要我继续办理吗, ให้ดำเนินการต่อไหม.
_PROCEED = re.compile(r"\b(?:go\s+ahead|proceed|do\s+(?:it|that|this|so)|confirm\s+(?:it|that)|make\s+it\s+happen)"
                      r"(?:\s+(?:with\s+(?:it|that|this|the\s+\w+)|now|then|for\s+you"
                      r"|and\s+\w+(?:\s+(?:it|that|this|them|the\s+change|the\s+changes))?))*"  # "go ahead and submit it"
                      r"\s*[?.!]*\s*$"
                      r"|\b(?:je\s+)?(?:continue|procède|poursuive|lance|m'en\s+occupe|le\s+fais|l'envoie|y\s+vais)\s*[?.!]*\s*$"
                      r"|(?:继续|办理|处理|执行|操作)(?:一下)?(?:吗|呢)?\s*[？?]"
                      r"|(?:ดำเนินการ|จัดการ)(?:ต่อ|ให้)?(?:เลย)?\s*(?:ไหม|มั้ย|หรือไม่)", re.I)
# A promise to act once the user consents ("say yes and I'll make the change", "once you confirm, I'll
# create it", "dès que vous confirmez, je l'enregistre"), or a question put before acting at all
# ("Before I do anything: ...?", "Just checking before I touch anything: ..., right?"): the agent
# says it has not acted yet, and waits for a yes.
_AWAITS_CONSENT = re.compile(r"\b(?:say|reply|answer|type|tell\s+me)\s+[“\"']?(?:yes|ok|go)\b[”\"']?[^.?!]*?\b(?:i'll|i\s+will)\s+\w+"
                             r"|\b(?:once|if|when|as\s+soon\s+as)\s+you\s+(?:confirm|approve|agree|say\s+(?:yes|so)|give\s+"
                             r"(?:me\s+)?the\s+go-ahead)\b[^.?!]*?\b(?:i'll|i\s+will)\s+\w+"
                             r"|\b(?:dès\s+que|si|quand)\s+vous\s+(?:confirmez|validez|dites\s+oui)\b[^.?!]*?\bje\b", re.I)
_BEFORE_ACTING = re.compile(r"\bbefore\s+(?:i|we)\s+(?!\w+ed\b)\w+\s+(?:anything|it|that|this|them|the\s+change)\b"
                            r"[^.?!]*(?:[.:!][^.?!]*)?\?|\bavant\s+d[e']\s*(?:\w+\s+)?(?:quoi\s+que\s+ce\s+soit|rien|l[ea]?\b)[^?]*\?",
                            re.I)
# Another thing, or the action undone: "another note", "anything else", "switch it back", "undo it".
_ANOTHER = re.compile(r"\b(?:another|other|others|more|else|anything|something|new|different|back|undo|undone|revert|"
                      r"restore|reverse|autre|autres|nouvelle|nouveau|encore)\b", re.I)
# An offer to act in Chinese and Thai ("要我帮你取消吗", "ต้องการให้ยกเลิกไหม"), and another thing there.
# A question whether the user is sure to do it is one too: "确定要取消吗？", "แน่ใจนะคะว่าจะยกเลิก...?".
_ASKED_TO_ACT = re.compile(r"(?:要我|需要我|要不要我?|我可以|我来|我帮你|(?:你)?(?:确定|确认|是否)要?)[^。！？?]*(?:吗|？|\?)"
                           r"|(?:ให้|ต้องการให้|อยากให้)[^?？]*?(?:ไหม|มั้ย|หรือไม่)|แน่ใจ[^?？]*?ว่าจะ[^?？]*(?:\?|？|ไหม|มั้ย)")
_ANOTHER_ELSEWHERE = re.compile(r"其他|别的|另一|另外|อื่น")
# The polite opening of a Chinese or Thai request, before its verb: 请, 帮我, ช่วย, กรุณา.
_REQUEST_POLITE = re.compile(r"^(?:请|帮我|麻烦你?|给我|帮忙|能不能|可以|你能|ช่วย|กรุณา|รบกวน|ขอ)+")
# What an offer points back to: a pronoun object ("cancel it", "l'annule") or a quoted name or id.
_POINTED_AT = re.compile(r"\b(?:it|them|that|this|those|these|one)\b|\b(?:l'|les\s|la\s|le\s)", re.I)
ID_OR_NAME = re.compile(r"[“\"«「][^”\"»」]+[”\"»」]|\b[A-Za-z]+-\d+\b|\b(?=\w*\d)(?=\w*[A-Za-z])\w{4,}\b"
                         r"|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b|(?<=\w\s)[A-Z][a-z]+\b")  # "Sakura Sushi", "the Porch light"
FRENCH_BASE = r"\w{0,4}\b"  # the French request's verb as an offer says it: annuler, annule


def offered(clause: "Clause", action: "Action", request: str, french: re.Pattern | None) -> bool:
    """``clause`` asks or offers to do ``action`` ("Shall I create the note?", "Want me to switch
    it on?", "Voulez-vous que je l'annule ?": ``french`` is the French request's verb in its other
    forms) to a thing it names or points back to, or only to go ahead."""
    if action.verbs and (_AWAITS_CONSENT.search(clause.sentence) or _BEFORE_ACTING.search(clause.sentence)):
        return True  # "once you confirm, I'll create it": it was not done, says the agent
    asked = [m.group(0) for m in _ASKED_TO_ACT.finditer(clause.sentence)
             if clause.text in m.group(0) or m.group(0) in clause.text]  # Thai cuts clauses at spaces
    if not (clause.question or asked or _OFFER.search(clause.sentence)) or _ANOTHER.search(clause.plain):
        return False
    if action.verbs and _PROCEED.search(clause.plain):
        return True  # "Want me to go ahead?", "要我继续吗？": the action just spoken of
    if action.opposites and re.search(r"\b(?:" + "|".join(map(re.escape, sorted(action.opposites))) + r")\b",
                                      clause.plain, re.I):
        return False
    if asked:  # Chinese and Thai: an offer that repeats the request's own opening verb
        verb = _request_opening(request)
        return bool(verb) and any(verb in offer and not _ANOTHER_ELSEWHERE.search(offer) for offer in asked)
    verb = _base_pattern(frozenset(action.verbs))
    if not (verb and verb.search(clause.plain) or french and french.search(clause.plain)):
        return False
    nouns = "|".join(map(re.escape, sorted(action.nouns)))
    return bool(_POINTED_AT.search(clause.plain) or ID_OR_NAME.search(clause.plain)
                or nouns and re.search(rf"\b(?:the|this|that|your|these|those|la|le|les|votre|vos|cette|ce)\s+"
                                       rf"(?:\w+\s+)?(?:{nouns})s?\b", clause.plain, re.I))


def _request_opening(request: str) -> str:
    """The first characters of a Chinese or Thai request after its polite opening, where its verb
    is ("取消订单 ORD-5117": 取消; "ยกเลิกคำสั่งซื้อ": ยกเล): two characters of Chinese, three of Thai
    (whose words are longer); "" for a request in another script or that opens on its object (把)."""
    said = _REQUEST_POLITE.sub("", request.strip())
    if re.match(r"[\u4e00-\u9fff]{2}", said) and not said.startswith("把"):
        return said[:2]
    return said[:3] if re.match(r"[\u0e00-\u0e7f]{3}", said) else ""


@functools.lru_cache(maxsize=1024)  # the same turn's words, for reply after reply
def _base_pattern(verbs: frozenset[str]) -> re.Pattern | None:
    """The verbs as a question or an offer says them: "create", "switch ... on", "call it off"."""
    words = sorted(v for v in verbs if v)
    return re.compile(r"\b(?:" + "|".join(re.escape(v).replace(r"\ ", r"(?:\s+[\w-]+){0,3}?\s+") for v in words)
                      + r")\b", re.I) if words else None
