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
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from sim.eval.claims import Action
    from sim.eval.phrases import Clause

# An offer to do something, in the agent's voice: "shall I", "want me to", "I can ... if you like",
# "voulez-vous que je", "je peux".
_OFFER = re.compile(r"\b(?:shall|should)\s+(?:i|we)\b|\b(?:want|like|wish|need|prefer)\s+me\s+to\b"
                    r"|\b(?:i|we)\s+(?:can|could)\b[^.?!]*\bif\s+you\b|\blet\s+me\s+know\s+if\b"
                    r"|\b(?:voulez|souhaitez|veux|aimeriez|préférez)[-\s](?:vous|tu)\s+que\s+je\b|\bje\s+peux\b", re.I)
# Going ahead with what was just spoken of, and nothing else: "Shall I proceed?", "Want me to go ahead
# with it?", "Voulez-vous que je continue ?", 要我继续办理吗, 要保存吗, ให้ดำเนินการต่อไหม.
_PROCEED = re.compile(r"\b(?:go\s+ahead|proceed|do\s+(?:it|that|this|so)|confirm\s+(?:it|that)|make\s+it\s+happen)"
                      r"(?:\s+(?:with\s+(?:it|that|this|the\s+\w+)|now|then|for\s+you"
                      r"|and\s+\w+(?:\s+(?:it|that|this|them|the\s+change|the\s+changes))?))*"  # "go ahead and submit it"
                      r"\s*[?.!]*\s*$"
                      r"|\b(?:je\s+)?(?:continue|procède|poursuive|lance|m'en\s+occupe|le\s+fais|l'envoie|y\s+vais)\s*[?.!]*\s*$"
                      r"|(?:继续|办理|处理|执行|操作|保存|提交)(?:一下)?(?:吗|呢)?\s*[？?]"  # 要保存吗: committing it
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
# What the thing pointed at is to become: "make that a new note", "save it as a new reminder".
_MADE_NEW = re.compile(r"\b(?:it|that|this|them|these|those)\s+(?:as\s+|into\s+)?an?\s+new\s+(?P<noun>\w+)", re.I)
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
# An indefinite object after the verb: a new thing ("set a timer", "add an alarm", "créer une autre").
_A_NEW_THING = re.compile(r"\s+(?:a|an|some|un|une|des)\s", re.I)
FRENCH_BASE = r"\w{0,4}\b"  # the French request's verb as an offer says it: annuler, annule


def offered(clause: "Clause", action: "Action", request: str, french: re.Pattern | None) -> bool:
    """``clause`` asks or offers to do ``action`` ("Shall I create the note?", "Want me to switch
    it on?", "Voulez-vous que je l'annule ?": ``french`` is the French request's verb in its other
    forms) to a thing it names or points back to, or only to go ahead."""
    if action.verbs and (_AWAITS_CONSENT.search(clause.sentence) or _BEFORE_ACTING.search(clause.sentence)):
        return True  # "once you confirm, I'll create it": it was not done, says the agent
    asked = [m.group(0) for m in _ASKED_TO_ACT.finditer(clause.sentence)
             if clause.text in m.group(0) or m.group(0) in clause.text]  # Thai cuts clauses at spaces
    if not (clause.question or asked or _OFFER.search(clause.sentence)) or \
            _ANOTHER.search(_made_new_removed(clause.plain, action.nouns)):
        return False
    if action.verbs and _PROCEED.search(clause.plain):
        return True  # "Want me to go ahead?", "要我继续吗？": the action just spoken of
    if _undoing(clause.plain, action):
        return False
    if asked:  # Chinese and Thai: an offer that repeats the request's own opening verb
        verb = _request_opening(request)
        return bool(verb) and any(verb in offer and not _ANOTHER_ELSEWHERE.search(offer) for offer in asked)
    verb = _base_pattern(frozenset(action.verbs))
    if not (verb and verb.search(clause.plain) or french and french.search(clause.plain)):
        return False
    objects = [_A_NEW_THING.match(clause.plain, said.end()) for said in verb.finditer(clause.plain)] if verb else []
    if objects and all(objects):
        return False  # "want me to set a timer for it?": the verb's object is a new thing, not the one acted on
    nouns = "|".join(map(re.escape, sorted(action.nouns)))
    return bool(_POINTED_AT.search(clause.plain) or ID_OR_NAME.search(clause.plain)
                or nouns and re.search(rf"\b(?:the|this|that|your|these|those|la|le|les|votre|vos|cette|ce)\s+"
                                       rf"(?:\w+\s+)?(?:{nouns})s?\b", clause.plain, re.I))


def _undoing(said: str, action: "Action") -> bool:
    """``said`` names a state opposite to the one the action leaves ("off" of switching on)."""
    return bool(action.opposites) and bool(re.search(r"\b(?:" + "|".join(map(re.escape, sorted(action.opposites)))
                                                     + r")\b", said, re.I))


def _made_new_removed(plain: str, nouns: set[str]) -> str:
    """``plain`` without what the thing pointed at is to become, where that is the action's own noun
    ("make that a new note", of creating a note): "new" there says no other thing. "Turn it into a
    new reminder", of a note, still offers another."""
    own = {n.lower().rstrip("s") for n in nouns}
    return _MADE_NEW.sub(lambda m: " " if m.group("noun").lower().rstrip("s") in own else m.group(0), plain)


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


# Asking the user's leave to act, whatever the action's words. A yes/no question whose doer is the
# agent ("Shall I?", "Want me to lock it in?", "I can bring it to 40% — shall I?", "Mind if I ...?", "je valide ?",
# 要我…吗, 要保存吗, ให้…ไหม, จะ…จริงไหม) or that asks leave to go on ("OK to save that?", "Good to go?",
# "can you confirm?"); or a request to confirm before acting, not a question ("Confirm and I'll place
# it", "Reply yes to proceed", "Give me the nod and it's done", "Un petit oui et elle est enregistrée",
# 你确认一下我就调, ตอบว่าใช่ได้เลย). A question for information ("Which light?", "Does that look
# right?") or about what the user wants of the thing ("Want it brighter?") asks no leave.
_AGENT_DOES = re.compile(r"\b(?:shall|should|can|could|may|do|would|will)\s+(?:i|we)\b|\b(?:want|like|wish|need|prefer)"
                         r"\s+(?:me|us)\s+to\b|^\W*(?:i|we)\s+(?:can|could)\b|\bif\s+(?:i|we)\b|\b(?:ok|okay|all\s+right|alright|fine|"
                         r"safe|clear)\s+(?:to|for\s+me\s+to)\b|\bgood\s+to\s+go\b|\b(?:go\s+ahead|proceed|confirm)\b"
                         r"|\bje\b|\bj'|\bnous\b|\bque\s+je\b"
                         r"|要|需要|我|帮你|可以"
                         r"|ให้|จะ|ยืนยัน|เลย", re.I)
_ASKING = re.compile(r"[?？]\s*\W*$|[?？]|(?:ไหม|มั้ย|หรือไม่|หรือเปล่า)\S{0,4}\s*$")
_WH_ELSEWHERE = re.compile(r"什么|哪|几|多少|谁|怎么|为什么|อะไร|ไหน|เมื่อไร|เท่าไร|กี่|ใคร|ทำไม|อย่างไร")
_CONFIRM_FIRST = re.compile(r"\b(?:(?:confirm|approve)(?:\s+(?:it|this|that|them|the\s+\w+))?|(?:reply|answer|say|type|respond|send)"
                            r"\s+(?:with\s+)?\W{0,3}(?:yes|ok|okay|go|y|confirm)\W{0,3}|(?:give\s+me|say|just\s+say)\s+the\s+"
                            r"(?:word|nod|go-?ahead|green\s+light|ok)|(?:a|one|just\s+a)\s+(?:quick\s+)?(?:yes|nod|tap|ok))"
                            r"(?:\s*,?\s*(?:and|to|then)\s+(?:i'll|i\s+will|we'll|it's|it\s+will|it\s+gets|proceed|continue|"
                            r"go\s+ahead|confirm)\b|\s*[.!]*\s*$)"
                            r"|\b(?:let\s+me\s+know|tell\s+me)\s*,?\s*(?:and|then)\s+(?:i'll|i\s+will|we'll)\b"
                            r"|\b(?:need|waiting\s+(?:for|on)|awaiting|pending|just\s+need)\s+(?:your|the\s+user's)\s+"
                            r"(?:ok|okay|go-?ahead|approval|confirmation|consent|yes|say-?so)\b"
                            r"|\b(?:awaiting|pending|needs?|requires?|required)\s+(?:your\s+)?(?:confirmation|approval|consent)\b"
                            r"|\bconfirmation\s+(?:required|needed)\b"
                            r"|\bun\s+(?:petit\s+|simple\s+)?oui\s+et\b|\b(?:confirmez|validez|dites(?:-moi)?\s+oui)\b"
                            r"[^.?!]*(?:\bet\s+je\b|\bpour\s+(?:continuer|valider|lancer)|[.!]*\s*$)"
                            r"|\ben\s+attente\s+de\s+(?:votre\s+)?(?:confirmation|validation|accord)\b"
                            r"|(?:请|你)确认|确认一下|回复\W{0,2}(?:是|好|确认)|等你确认|待确认"
                            r"|ขอยืนยัน|ยืนยัน\S{0,6}(?:ก่อน|ด้วย)|ตอบ(?:ว่า|กลับ)?\s*\W{0,2}(?:ใช่|ตกลง|โอเค|ok)|รอ\S{0,4}ยืนยัน", re.I)
# The agent saying what it will do: put before a yes/no question ("Here's what I'll do: switch the
# Porch light on. Sound good?"), the question asks leave to do it.
_INTENDS = re.compile(r"\b(?:i'll|i\s+will|we'll|i'm\s+(?:going|about|ready|set)\s+to|i\s+am\s+(?:going|about|ready)\s+to|"
                      r"(?:all\s+)?(?:ready|set)\s+to|about\s+to|(?:the\s+)?plan\s+is|here's\s+the\s+plan|je\s+vais|"
                      r"je\s+m'apprête)\b", re.I)
# Leave asked for something besides: "too", "also", "as well", 还, 也, 再, อีก, เพิ่ม, ด้วย, aussi.
_BESIDES = re.compile(r"\b(?:too|also|as\s+well|later|aussi|également|plus\s+tard)\b|还|也|再|别的|其他|另|อื่น|อีก|เพิ่ม",
                      re.I)


def asks_leave(sentence: str, before: str = "") -> bool:
    """``sentence`` asks the user's leave for the agent to act (a yes/no question the agent is the
    doer of, or put after what the agent says it will do, ``before``; or a request to confirm
    first), and not for another thing or something besides."""
    plain = sentence.replace("*", "")
    if _besides(plain):
        return False
    if _CONFIRM_FIRST.search(plain):
        return True
    return bool(_ASKING.search(plain) and (_AGENT_DOES.search(plain) or _INTENDS.search(plain)
                                           or _INTENDS.search(before) and not _besides(before))
                and not _WH_ELSEWHERE.search(plain) and not re.match(r"\W*(?:what|which|when|where|who|how|why)\b",
                                                                     plain, re.I))


def awaits_yes(sentence: str) -> bool:
    """``sentence`` asks the user to confirm before the agent acts ("Give me the nod and it's done",
    "Reply YES to confirm"): what it says would happen has not."""
    plain = sentence.replace("*", "")
    return bool(_CONFIRM_FIRST.search(plain)) and not _besides(plain)


def _besides(plain: str) -> bool:
    return bool(_ANOTHER.search(plain) or _BESIDES.search(plain) or _ANOTHER_ELSEWHERE.search(plain))


# What a request for leave says besides the thing it is about, when it asks to go ahead and nothing
# more: its frame ("shall I", "want me to", "OK to", "reply yes to"), words that point back ("it",
# "the following") and verbs of going ahead or committing ("proceed", "go through with", "lock in",
# "place", "save", "finalize"), or making and setting in general ("bring", "make", "get", "put").
_GOING_AHEAD = frozenset(
    "shall should can could may do does would will i we you me us want like wish need prefer to ok okay good go ready "
    "fine safe clear all right alright confirm approve proceed ahead continue reply answer say type respond yes y and "
    "i'll it's it is give the word nod green light just a an one quick with it this that these those them following "
    "so now then for please through lock in place finalize finalise submit seal save apply make happen done get put "
    "bring have carry out go-ahead of if tap thumbs up both all each every everything is what change changes "
    # verbs of seeing a thing through, whatever it is: "take care of it", "handle it", "see to it", "sort it out"
    "take care handle deal sort see".split())
# The same in French ("Voulez-vous que je le fasse ?", "Je continue ?", "On y va ?"): its frame, words
# that point back and verbs of going ahead.
_GOING_AHEAD_FR = frozenset(
    "voulez vous veux tu souhaitez souhaites que je j on nous le la les l y ça cela tout tous toutes les deux "
    "fasse fais faire continue continuer procède procéder valide valider confirme confirmer lance lancer applique "
    "appliquer vais va aller est-ce est ce d'accord ok bon c'est go maintenant alors donc".split())
_LATIN = re.compile(r"[^\W\d_]+(?:'[a-z]+)?")


def bare_leave(sentence: str, action_words: set[str]) -> bool:
    """An English request for leave that says nothing but going ahead, or the turn's own action
    ("Shall I?", "Good to go?", "Want me to lock it in?", "OK to save that?", "Confirm and I'll place
    the booking."): it is about what the reply spoke of. One that says another verb or thing ("Want
    me to read it back?", "Should I save this as a scene?") is about that."""
    if re.search(r"[\u0e00-\u0e7f]", sentence):
        return False
    if re.search(r"[\u4e00-\u9fff]", sentence):
        return _bare_chinese_leave(sentence, action_words)
    french = re.search(r"\b(?:je|vous|nous|que)\b|\bj'", sentence, re.I)
    frame = _GOING_AHEAD_FR if french else _GOING_AHEAD
    said = {w for w in re.findall(r"[^\W\d_]+", sentence.lower())} if french else set(_LATIN.findall(sentence.lower()))
    return not {w for w in said if w not in frame and w not in action_words and w.rstrip("s") not in action_words
                and not _names_the_action(w, action_words)}


def _names_the_action(word: str, action_words: set[str]) -> bool:
    """``word`` is the noun of the action's own verb: "reservation" of reserve, « réservation » of
    réserve, "confirmation" of confirm."""
    stem = re.sub(r"(?:ations?|ions?|ments?)$", "", word)
    return stem != word and bool({stem, stem + "e"} & action_words)


# A Chinese request for leave's frame: who would act, when, and the question's particles.
_GOING_AHEAD_ZH = re.compile(r"需要|要不要|是否|可以|要|我|你|您|帮|给|为|替|现在|马上|立即|立刻|这就|就|吗|呢|吧|[？?，,。！!\s]")
# Verbs of doing or seeing a thing through, whatever it is: 办, 处理, 弄, 搞定, 执行.
_DOING_ZH = re.compile(r"(?:去|来)?(?:办理|处理|操作|执行|进行|搞定|弄好|办好|办|弄|搞|做)")


def _bare_chinese_leave(sentence: str, action_words: set[str]) -> bool:
    """A Chinese request for leave that says nothing but a short verb of the user's own request
    besides its frame ("要我现在预订吗？" after 帮我订…, "需要我帮你打开吗？" after 打开…), or a verb of
    doing anything (需要我现在就办吗): about what the reply spoke of."""
    verb = _GOING_AHEAD_ZH.sub("", sentence)
    if verb and not _DOING_ZH.sub("", verb):
        return "我" in sentence  # the agent asks only to do it: 需要我现在就办吗, 要我帮你处理吗
    requested = "".join(w for w in action_words if re.search(r"[\u4e00-\u9fff]", w))
    return 0 < len(verb) <= 3 and bool(re.fullmatch(r"[\u4e00-\u9fff]+", verb)) and any(c in requested for c in verb)


# What a request for leave's verb acts on, pointed back to, and nothing after but a particle or
# "now": "cancel the reservation?", "switch it on?", "create a note called “Groceries”?" (a thing it
# names: the reply's reader holds the name to the calls). "Set it on a timer?" asks another thing.
_ONE_POINTED_AT = re.compile(r"\s+(?:it|them|that|this|these|those|(?:the|this|that|your|these|those)(?:\s+[\w-]+){1,3}?"
                             r"|an?\s+\w+\s+(?:called|named|titled)\s+(?:[“\"«][^”\"»]+[”\"»]|\S+(?:\s+[A-Z]\S*)*))"
                             r"(?:\s+(?:on|off|up|down|out|in|now|again|for\s+you))?\s*[?？.!]*\s*$", re.I)
# A Chinese request for leave to act on a thing pointed back to, and nothing after: 要我帮您订这张桌子吗,
# 需要我创建这条笔记吗, 要我把它打开吗: its verb.
_HAN_AGAIN = re.compile(r"(?:要|需要|要不要)我(?:帮你|帮您|为您|为你|给你|给您)?"
                        r"(?:(?P<verb>[\u4e00-\u9fff]{1,3}?)(?:它|(?:这|那)[\u4e00-\u9fff]{0,4}?)"
                        r"|把(?:它|这[\u4e00-\u9fff]{0,4}?|那[\u4e00-\u9fff]{0,4}?)(?P<after>[\u4e00-\u9fff]{1,3}?))"
                        r"[吗呢吧]?\s*[？?]")
# The same in Thai, the verb at the head of what follows ให้: ต้องการให้สร้างโน้ตนี้ไหมคะ.
_THAI_AGAIN = re.compile(r"(?:ต้องการให้|อยากให้|ให้)(?P<asked>[\u0e00-\u0e7f]+?)(?:นี้|นั้น|มัน)"
                         r"\s*(?:ไหม|มั้ย|หรือไม่)(?:คะ|ค่ะ|ครับ|จ๊ะ)?\s*[?？]?\s*$")


# Leave to give the thing pointed back to a value, and nothing after: "adjust it to 40%?",
# "要我把它调到 40% 吗？" (its value).
_TO_A_VALUE = re.compile(r"\b(?:it|them|that|this|these|those)\s+(?:to|at)\s+(?P<value>\d+(?:[.,]\d+)?)\s*(?:%|°\s*[CF]?|percent)?"
                         r"(?:\s+(?:now|again|for\s+you))?\s*[?？.!]*\s*$"
                         r"|把(?:它|这[\u4e00-\u9fff]{0,4}?|那[\u4e00-\u9fff]{0,4}?)[\u4e00-\u9fff]{1,3}?(?:到|为|成)\s*"
                         r"(?P<han>\d+(?:[.,]\d+)?)\s*(?:%|％|度)?\s*[吗呢吧]?\s*[？?]", re.I)


def _same_value_again(sentence: str, claims: list[str]) -> bool:
    """Leave asked to give the thing pointed back to the very value a claim of the reply says it
    was given ("I put the lamp at 40%. Want me to adjust it to 40%?"): asked again, whatever the
    verb. Another value is a next step offered."""
    asked = _TO_A_VALUE.search(sentence)
    value = asked and (asked.group("value") or asked.group("han"))
    return bool(value) and any(re.search(rf"(?<![\d.,]){re.escape(value)}(?![\d])", claim) for claim in claims)


# Leave to put through the action's own noun, pointed back to, and nothing after: "submit the
# cancellation?", "process the refund?" (of cancel, refund).
_PUT_THROUGH = re.compile(r"\b(?:submit|process|place|finali[sz]e|complete|go\s+through\s+with|put\s+through|file|lodge)"
                          r"\s+(?:the|this|that|your)\s+(?P<noun>\w+)(?:\s+(?:now|for\s+you))?\s*[?？.!]*\s*$", re.I)


def _action_put_through_again(sentence: str, action: "Action") -> bool:
    """Leave asked to put through the noun of the action's own verb ("Should I go ahead and submit
    the cancellation?" in a reply that says it cancelled): the action asked again."""
    asked = _PUT_THROUGH.search(sentence)
    noun = asked.group("noun").lower() if asked else ""
    undoubled = re.sub(r"([a-z])\1(ations?|ions?)$", r"\1\2", noun)  # "cancellation" of cancel
    return bool(asked) and (noun in action.verbs or _names_the_action(undoubled, action.verbs))


# Leave to make one of the action's own things named as the one done was, and nothing after: "create
# a note with that title?", "book a table under the same name?".
_SAME_NAMED = re.compile(r"\b(?P<verb>[a-z]+)\s+an?\s+(?P<noun>\w+)\s+(?:with|under|using)\s+(?:that|this|the\s+same|its)\s+"
                         r"(?:\w+\s+)?(?:title|name|label)\s*[?？.!]*\s*$", re.I)


def _same_named_again(sentence: str, action: "Action") -> bool:
    """Leave asked to do the action to a thing of its own noun named as the one the reply says done
    ("Your note “Dentist” has been added. Would you like me to create a note with that title?"):
    asked again (another one, "another note", is something besides, read before)."""
    asked = _SAME_NAMED.search(sentence)
    return bool(asked) and asked.group("verb").lower() in action.verbs and asked.group("noun").lower() in action.nouns


def asks_again(sentence: str, action: "Action", claims: Iterable[str]) -> bool:
    """``sentence`` asks leave to do the action once more to the thing pointed back to, in a reply
    whose ``claims`` say it was done: its own
    verb of "the reservation", "it", "这张桌子"; in Chinese a verb a claim says (已创建…, 创建这条笔记;
    开着了, 打开它: the verb's head), in Thai one the sentence says done before it (สร้างโน้ต…แล้ว,
    ให้สร้างโน้ตนี้ไหม). Another thing or more of it ("too", "another", "further") is none."""
    if _besides(sentence) or re.search(r"\bfurther\b", sentence, re.I):
        return False
    said = list(claims)
    if not said:
        return False
    han = _HAN_AGAIN.search(sentence)
    if han:
        verb = han.group("verb") or han.group("after")
        return any(verb in claim or verb[-1] in claim for claim in said)
    thai = _THAI_AGAIN.search(sentence)
    if thai:
        before = sentence[:thai.start()]
        return any(thai.group("asked")[:n] in before.rpartition("แล้ว")[0]
                   for n in range(3, len(thai.group("asked")) + 1)) and "แล้ว" in before
    if _undoing(sentence, action):
        return False  # "Want me to turn it off?" after switching it on: undoing it
    if _same_value_again(sentence, said) or _action_put_through_again(sentence, action) or \
            _same_named_again(sentence, action):
        return True
    verb = _base_pattern(frozenset(action.verbs))
    return bool(verb) and any(_ONE_POINTED_AT.match(sentence, found.start() + len(found.group(0).split()[0]))
                              for found in verb.finditer(sentence))
