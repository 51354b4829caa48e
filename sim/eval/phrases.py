"""The agent's words as clauses: what each says, asserts or negates, per language.

A reply is cut into sentences, and each sentence into clauses (at commas, dashes,
semicolons, middle dots and bullets that list values on one line ("14°C · foggy · 💧86%"), "but", "so", "although"..., at an "and" that a new subject follows ("it's
booked and you'll get a text") and at a colon that a statement follows ("all set: it's
booked"), not one that says what a name or a field is: "ORD-8492: shipped", "is on: no"; in Thai also at spaces, which Thai writes
between phrases). Each clause is read on its own, so a negation counts only in the clause
it negates: in "No problem, I've cancelled it!" the "No" is its own clause and the second
clause claims. A clause **asserts** unless its sentence is a question or it is hedged (a
modal such as "will", "could", "should", or a condition such as "if", "once", "when" at
its start): "I'll cancel it" and "once it's cancelled" claim nothing yet; a modal of inference
about the present ("it should be off at this point") and a condition on what the user wants
("there's a table at 20:00 if you want it") hedge nothing. Idioms whose
negation negates nothing ("no worries", "don't worry", 不客气, ไม่เป็นไร) are read as
the politeness they are.

The cues per language are regular expressions: ``success`` (words of completion that
name no particular action: "all set", "taken care of", เรียบร้อย, 已), ``negation``,
``failure`` ("error", "went wrong", 失败), ``retry`` ("want me to retry?", 再试), ``hedge`` and
``question`` (a question word in a
negative indefinite asks nothing: 什么都没有 is "nothing at all", ไม่มีอะไร "there is nothing"). What an action
was is not a cue: it is read from the functions and the request (sim/eval/claims.py).
The rules of English always apply (models often answer in English), plus those of the
case's language. A suite adds cues under ``phrases:`` (docs/eval.md); suite-supplied
patterns are compiled by ``compile_pattern`` alone, and matched with a time bound
(sim/eval/bounded_regex.py): a suite is whoever wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from sim.eval.bounded_regex import IGNORECASE, BoundedPattern, PatternError
from sim.eval.restated import dates_spans, times_said

CUE_KINDS = ("success", "negation", "failure", "retry", "question")
# Each list is joined into one case-insensitive pattern. ``failure`` is a lexicon of failing in
# general (verbs and nouns of failing, erroring, crashing, being blocked, losing the connection,
# being rolled back), not any reply's words:
# a model says its action failed in words no function shares ("it errored out", "the request
# bounced back", "I hit a wall"). ``retry`` offers a second try, which says the first one failed,
# even as a question or a suggestion ("want me to retry?"). Where the failure itself is negated
# ("sans problème", 没有出错), or what is negated is something else or a need ("nothing else",
# "no changes were needed"), or the trouble is one spared ("to save you the trouble"), or what is
# negated is a cost ("no fee applied", ไม่มีค่าใช้จ่าย), or what a thing is not ("pas une prévision",
# 不是预报, ไม่ใช่), the idioms take it out: nothing is said to have gone wrong.
DEFAULT_PHRASES: dict[str, dict[str, list[str]]] = {
    "en": {
        "success": [r"\bdone\b", r"\ball set\b", r"\b(taken|took) care of\b", r"\bsorted\b", r"\bhandled\b",
                    r"\bcomplete[d]?\b", r"\bsuccess(ful(ly)?)?\b", r"\b(went|gone|go) through\b", r"\bfinished\b",
                    r"\bconfirmed\b", r"\bon (its|their|the) way\b", r"\bgood to go\b", r"\bsquared away\b",
                    r"\bdealt with\b", r"\bseen to\b", r"\bsettled\b"],
        "negation": [r"\bnot\b", r"n't\b", r"\bno\b", r"\bnever\b", r"\bnothing\b", r"\bnone\b", r"\bneither\b",
                     r"\bnor\b", r"\bcannot\b", r"\bunable\b", r"\bwithout\b", r"\bno longer\b"],
        "failure": [r"\bfail(s|ed|ing|ures?)?\b", r"\berror(s|ed|ing)?\b", r"\bproblems?\b", r"\bissues?\b",
                    r"\bwrong\b", r"\bunsuccessful(ly)?\b", r"\brejected\b", r"\brefused\b", r"\bdenied\b",
                    r"\bdeclined\b", r"\btrouble\b", r"\bglitch(es|ed|ing|y)?\b", r"\bcrash(es|ed|ing)?\b",
                    r"\bbounc(e|es|ed|ing) back\b", r"\b(timed|times|timing) out\b", r"\btime-?outs?\b",
                    r"\b(fell|falls?|fallen) through\b", r"\bbroke down\b", r"\bsnags?\b", r"\bhiccups?\b",
                    r"\bhitch(es)?\b", r"\bblocked\b", r"\broadblocks?\b", r"\bhit a wall\b", r"\bdead end\b",
                    r"\bmalfunction(s|ed|ing)?\b", r"\boutages?\b", r"\bmessed up\b", r"\bbroke(n)?\b",
                    r"\b(rolled|rolls|rolling) back\b", r"\brollback\b", r"\breverted\b",
                    r"\b(connection|network|signal|line)(\s+(to|with)\s+(the\s+|your\s+)?[\w-]+)?\s+(dropped|dropped out|was lost|got lost|cut out|went down)"
                    r"\b",
                    r"\blost (the )?(connection|signal|network)\b", r"\bdisconnected\b",
                    r"\b(app|system|server|service|network|site|phone|device|connection|internet|wi-?fi)s?"
                    r"('s|\s+(is|are|was|were|went|seems|appears))\s+"
                    r"(to be\s+)?((temporarily|currently|still|briefly|completely)\s+)?"
                    r"(down|offline|unreachable|unresponsive|unavailable)\b",
                    # the peer that should have answered did not, and that is all it says ("the service didn't
                    # respond", "the app never replied in time"); not what it did not answer with ("never
                    # replied with a visibility figure", "doesn't answer how thick the fog is")
                    r"\b(app|system|server|service|backend|api|site|device)s?('s|\s+(has|had|have))?\s+"
                    r"(didn't|did not|never|hasn't|has not|haven't|wouldn't|would not|isn't|is not|wasn't|was not|"
                    r"failed to|stopped)\s+(respond(ed|ing)?|answer(ed|ing)?|repl(y|ied|ying)|get(ting)? back)"
                    r"(?=\s*($|[,.;:!?)—–-]|(in time|at all|yet|so|and|but|(right |for )?now|this time|to (my|our|your|the) "
                    r"(request|query|call|question)s?)\b))",
                    r"\binterrupt(ed|ion)\b", r"\b(went|goes|going|got|gets|getting) nowhere\b",
                    r"\b(airplane|aeroplane|flight) mode\b",
                    r"\b(no|without( a)?) (signal|connection|network|internet|reception|service)\b", r"\b(turned|turns|turning) (me|us|it|them) (away|down)\b",
                    r"\b(permission|access)s? (was |were |is |got )?denied\b", r"\bunauthori[sz]ed\b",
                    r"\b(lack|lacks|lacked|lacking) (of )?(the )?(necessary |required |right )?"
                    r"(permissions?|access|rights|authori[sz]ation)\b"],
        "retry": [r"\bretr(y|ying|ies)\b", r"\btry(ing)? (it |that |this )?again\b",
                  r"\b(another|one more) (go|try|shot|attempt)\b",
                  # a second attempt reported, which says the first failed: "it took two tries"
                  r"\bretried\b", r"\b(try|tried|attempt|attempted|sent|submitted) (it |that |this |them )?"
                  r"(again|twice|a second time|several times|a few times|more than once)\b",
                  r"\b(second|2nd|third|3rd|next|fresh) (try|attempt|go|round|time)\b",
                  r"\b(two|three|several|multiple|a few|a couple of|a couple) (tries|attempts|goes|rounds)\b"],
        "hedge": [r"\b(will|would|could|can|should|shall|may|might|must)\b", r"'ll\b", r"\bi'd\b(?!\s+(already\s+|just\s+)?(\w+ed|been|done|gone|sent|made|set|put|taken|got|had)\b)", r"\bgoing to\b",
                  r"\bgonna\b", r"\bwants?\b", r"\b(like|need|have|has|ready|about) to\b", r"\btry(ing)? to\b",
                  r"^\s*((and|but|so|or|then|yet)\s+)?(if|once|when|whenever|until|unless|before|after|as soon as|let me)\b"],
        "question": [r"^(could|can|would|will|shall|should|do|does|did|is|are|which|what|when|where|who|how)\b"],
        "idiom": [r"\bno (problem|worries|worry)\b", r"\bnot a problem\b",
                  r"\b(without|with no) (any )?(issues?|problems?|errors?|hiccups?|trouble|hitch(es)?)\b", r"\bdon'?t worry\b", r"\bnever mind\b",
                  r"\bno need to worry\b", r"\b(nothing|none) else\b", r"\bno other\b",
                  r"\b(no|nothing)\b[^,;.]*\b(needed|necessary|required)\b",
                  r"\b(save|saves|saved|saving|spare|spares|spared|sparing) (you|them|us|him|her)( from)? (the|any|some) "
                  r"(trouble|hassle|bother)\b",
                  r"\b(no|without( any)?|free of) (extra |additional |cancellation |late )?"
                  r"(fees?|charges?|costs?|penalty|penalties)\b"],
    },
    "fr": {
        "success": [r"c'est fait", r"\bfait\b", r"\btermin[ée]", r"\beffectu[ée]", r"\bconfirm[ée]", r"\bannul[ée]",
                    r"\bréserv[ée]", r"\bcré[ée]", r"\bmis à jour\b", r"\ballum[ée]", r"\béteint", r"\bj'ai\b",
                    r"\ba été\b", r"\bont été\b", r"\bsuccès\b"],
        "negation": [r"\bne\b", r"\bn'", r"\bpas\b", r"\bjamais\b", r"\brien\b", r"\baucun", r"\bimpossible\b"],
        "failure": [r"\béchou", r"\béchecs?\b", r"\brefus", r"\berreur", r"\bproblème", r"\bmalheureusement\b",
                    r"\bplant[ée]", r"\bbloqu[ée]", r"\bpanne\b", r"\bbug", r"\bincident\b", r"\bsouci\b",
                    r"\bcoinc[ée]", r"\brat[ée]", r"\brejet", r"\bconnexion ((au|à la|à l'|avec (le|la|l'))\s*[\w-]+ )?(a )?(coupé|sauté|été (coupée|perdue|interrompue))",
                    r"\bdéconnect",
                    # le pair qui devait répondre ne l'a pas fait, ou ne peut être joint
                    r"\b(service|serveur|système|application|appli|app|site|appareil)s?\s+(est|sont|était|étaient|semble|reste)\s+"
                    r"((actuellement|momentanément|temporairement|encore|toujours)\s+)?(indisponible|injoignable|inaccessible|hors ligne|hors service)s?\b",
                    r"\b(service|serveur|système|application|appli|app|site|appareil)s?\s+(n'(a|ont|avait)\s+pas\s+répondu|"
                    r"ne\s+(répond|répondent|répondait)\s+pas)(?=\s*($|[,.;:!?)—–-]|(à temps|du tout|encore|(pour le moment|"
                    r"pour l'instant|actuellement)|et|mais|donc|à (ma|la|votre) (demande|requête))\b))"],
        "retry": [r"\bréessa", r"\bressa(yer|yez)\b", r"\bretent", r"\bnouvel(le)? (essai|tentative)\b", r"\brelanc",
                  r"\brecommenc", r"\brefaire\b", r"\bde nouveau plus tard\b",
                  r"\b(deuxième|seconde?|troisième) (essai|tentative|fois)\b",
                  r"\b(deux|trois|plusieurs|quelques) (essais|tentatives)\b"],
        "hedge": [r"\b(pourrai|pourrais|voudrais|devrai|devrais|vais|va|allez)\b", r"^\s*(si|quand|dès que|une fois)\b",
                  r"\bprévue?s?\b", r"\b(serai|seras|sera|serons|serez|seront|aurai|auras|aura|aurons|aurez|auront)\b"],
        "question": [r"^(pouvez|pourriez|voulez|souhaitez|quel|quelle|quels|quelles|quand|où|comment|est-ce)\b"],
        "idiom": [r"(pas de|aucun) (problème|souci)", r"ne (vous|t')inqui[ée]t", r"n'hésitez pas", r"de rien",
                  r"rien d'autre", r"aucune? autre",
                  # "ne … que" restricts, it does not deny: "je n'ai que la mesure actuelle" (I have only it)
                  r"\bn(?:e\s+|')(?:(?!(?:pas|plus|jamais|rien|guère|point|aucune?|personne)\b)[\w-]+'?\s*){1,3}?qu(?:e\b|')",
                  r"sans (aucun |le moindre )?(problème|souci|erreur|incident|accroc)",
                  r"(sans|pas de|aucuns?) (aucuns? )?(frais|pénalités?|supplément)",
                  r"((ce |c'|il |elle )?(n'est|ne sont) )?pas (un|une|des)\b"],
    },
    "th": {
        "success": [r"เรียบร้อย", r"สำเร็จ", r"แล้ว", r"เสร็จ"],
        "negation": [r"ไม่", r"ยังไม่"],
        "failure": [r"ขออภัย", r"ขอโทษ", r"ล้มเหลว", r"ผิดพลาด", r"ปัญหา", r"ขัดข้อง", r"ติดขัด", r"ล่ม",
                    r"ถูกปฏิเสธ", r"หมดเวลา", r"(เน็ต|สัญญาณ|การเชื่อมต่อ)\S*หลุด", r"ขาดการเชื่อมต่อ"],
        "retry": [r"ลองใหม่", r"ลองอีกครั้ง", r"ทำใหม่อีกครั้ง", r"ครั้งที่(สอง|สาม|2|3)", r"ลอง(สอง|หลาย|2)\s*(ครั้ง|รอบ)",
                  r"อีกรอบ"],
        "hedge": [r"จะ", r"ถ้า", r"หาก", r"คาดว่า"],
        "question": [r"ไหม", r"มั้ย", r"หรือเปล่า", r"อะไร", r"ไหน", r"เมื่อไร", r"เท่าไร", r"หรือไม่", r"กี่"],
        "idiom": [r"ไม่เป็นไร", r"ไม่ต้องห่วง", r"ไม่มีปัญหา", r"ไม่ต้องกังวล", r"ไม่มีข้อผิดพลาด", r"ไม่ติดขัด",
                  r"ไม่มีอะไรอื่น", r"ไม่(มี|เสีย|คิด)ค่า(ใช้จ่าย|ธรรมเนียม|ปรับ|บริการ)\S*", r"ไม่ใช่"],
        "indefinite": [r"ไม่\S*?อะไร", r"อะไรก็", r"ที่ไหนก็"],
    },
    "zh": {
        "success": [r"已", r"完成", r"成功", r"好了", r"办好"],
        "negation": [r"不", r"没", r"無法", r"无法", r"未"],
        "failure": [r"抱歉", r"失败", r"出错", r"错误", r"问题", r"故障", r"异常", r"报错", r"卡住", r"崩溃", r"超时",
                    r"被拒", r"拒绝", r"出岔子", r"出了(点|些)?状况", r"(网络|连接|信号)\S{0,4}断", r"掉线", r"回滚"],
        "retry": [r"再\S{0,3}试", r"重试", r"重新试", r"再来一次", r"(稍后|过一?会儿?|等一?下|晚点)再(试|问|查|来)",
                  r"第(二|三|2|3)次", r"试了(两|几|好几|2)次", r"(两|几|2)次尝试", r"重新(提交|发送|操作)"],
        "hedge": [r"将", r"会(?!儿)", r"要是", r"如果", r"预计", r"预期", r"估计"],  # 这会儿: "right now"
        "question": [r"吗", r"呢", r"什么", r"哪", r"几", r"多少", r"是否"],
        "idiom": [r"没问题", r"不客气", r"不用谢", r"不好意思", r"没关系", r"别担心", r"不用担心",
                  r"没(有)?(出)?(任何)?(错|问题|故障|异常)", r"没有(其他|别的)",
                  r"(没有|不收|无|免|不会产生)(任何)?(费用|手续费|违约金|罚金)", r"不收费", r"不是"],
        "indefinite": [r"什么(都|也)", r"哪(儿|里)?(都|也)", r"谁(都|也)", r"多少(都|也)"],
    },
}
# A sentence ends at its stop (a bracket, a quote or markdown's emphasis closing after it: "_Observed at
# 09:00._"), at a line's end, and at an emoji that closes what was said ("it's
# now off 💡 I've set the lamp"): models end sentences with one as often as with a stop.
# A question quoted inside a sentence that goes on after it is the quotation's, not the sentence's:
# "I've finished “Where is Lima?” for you" ends at its stop and asks nothing.
_QUOTED_ASKING = re.compile(r"[“«「][^”»」\n]*[?？]\s*[”»」]")
_QUOTED_QUESTION = re.compile(r"[?？](?=[”»\"」]\s+[a-z])")
_SENTENCE_END = re.compile(r"(?<=[.!?])(?!\d)\s+|(?<=[.!?])$|(?<=[.!][)\]”’»\"_*])\s+|(?<=[?][)\]’_*])\s+"
                           r"|(?<=[?][”»\"])\s+(?![a-z])|(?<=[.!?][_*]{2})\s+|(?<=[。！？])|\n+"
                           r"|(?<=[\u2600-\u27bf\U0001f300-\U0001faff])\s+(?=\S)")
# A list item that gives a field's value after a colon, a dash or an arrow ("- **Status:** shipped",
# "- Conditions: clear", "• Porch light (Outside) — off", "* Kitchen → on"); its value
# ends where a capitalised word follows a word in lower case or a number: what comes after it is
# a new sentence run on without a stop ("- Conditions: clear Weather for Bangkok:").
LISTED = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(?:\*\*)?[^:\n—–→]{1,40}?(?::|\s[—–→](?=\s))(?:\*\*)?\s+(?=\S)")
# what ends a listed value: a word in capitals run on after it ("**Order ORD-7310**" too), a thing's code
# ("- Status: delivered ORD-5117 is now cancelled"), or a bold label ("- **Wind:** 6.1 km/h **TL;DR:** 32°C
# in Bangkok": a heading run on, whatever its letters)
VALUE_END = re.compile(r"(?<!\S)[a-z\d]\S*(\s+)(?=(?:\*\*|__)?(?:[A-Z][a-z]|[A-Z]+-\d)|I\b"
                       r"|(?:\*\*|__)[^*_\n]{1,30}:(?:\*\*|__))")
# A quantity with its unit alone before a capital ("70% Le Petit", "22°C Tokyo", "9 km/h Based"): a
# value, then a sentence run on after it.
_OPENING_QUANTITY = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*(?:%|°\s?[CF]?|[a-zA-Z]{1,3}/[a-zA-Z]{1,2})(\s+)(?=[A-Z][a-z]|I\b)")
_CLAUSE_BREAK = {
    "default": re.compile(r"\s*(?:[;—–()，、；·]|,(?!\d))\s*|\s+[-•]\s+|\s+and\s+(?=(?:i|you|we|it|they|he|she|"
                          r"there|that|this|your)(?:'\w+)?\s)|:\s+(?=[^,;.]*(?:\b(?:is|are|was|were|has|have|had|will)\b|"
                          r"'(?:s|re|ve|ll)\b))|\s+(?:but|so|although|though|however|because|since|"
                          r"while|whereas|yet|and then|mais|donc|car|puisque)\s+", re.I),
    "th": re.compile(r"(?<=[\u0e00-\u0e7f])\s+|\s+(?=[\u0e00-\u0e7f])"),  # Thai's spaces, not an English reply's
}
_QUESTION_MARK = re.compile(r"[?？]")
# A light's state in the suites' other languages: "allumée", 开着, เปิด ("ปิด" is inside "เปิด").
STATE_ELSEWHERE = {
    "fr": {"on": r"\ballum\w*", "off": r"\béteint\w*"},
    "zh": {"on": r"开着|亮着|已经?打?开|打?开了", "off": r"关着|已经?关(?:闭|掉|上)?|关(?:闭|掉|上)?了|熄灭?"},
    "th": {"on": r"เปิด", "off": r"(?<!เ)ปิด"},
}
_AND = re.compile(r"\s+and\s+", re.I)
# A modal that hedges no fact: advice to the user ("you'll want to dress for 31°C") and the agent
# flagging what it says ("I should mention the cancellation is final").
_NOT_A_HEDGE = re.compile(r"\byou(?:'ll|\s+will|\s+may|\s+might|'d|\s+would)\s+(?:want|need|like)\s+to\b"
                          r"|\bi\s+should\s+(?:mention|note|add|say|point out|flag)\b", re.I)
# A condition on what the user wants is an offer, not a hedge of what was said: "there's a table at
# 20:00 if you want it", "it's yours should you need it".
_USERS_WISH = re.compile(r"(?<=\S)\s+(?:if|whenever|should)\s+you\s+(?:\w+\s+)?"
                         r"(?:want|wish|like|need|prefer|fancy)\b.*$", re.I)
# A modal of inference about the present hedges nothing: "the Porch light should be off at this
# point", "it must be delivered by now" state what is so.
_INFERRED_NOW = re.compile(r"\b(?:should|must|ought to)\s+(?:\w+\s+)?(?:be|have been|see|find)\b[^,;]*?"
                           r"\b(?:now|by now|at this point|at the moment|right now|currently|already)\b", re.I)


def compile_pattern(pattern: str, shown: str | None = None) -> BoundedPattern:
    """Every cue a suite supplies is compiled here, and only here; ``shown`` names it in the error
    if a match runs past the bound."""
    return BoundedPattern(pattern, IGNORECASE, shown=shown)


def check_patterns(patterns: list[str]) -> None:
    """Each pattern compiles; ValueError names the one that does not."""
    for pattern in patterns:
        try:
            compile_pattern(pattern)
        except PatternError as error:
            raise ValueError(f"bad pattern {pattern!r}: {error}") from None


@dataclass(frozen=True)
class Clause:
    """One clause of a reply, as the rules read it."""

    text: str  # as said, idioms included
    plain: str  # idioms taken out
    sentence: str  # the sentence it is part of
    negated_in: frozenset[str]  # the languages whose negation it has (idioms aside)
    question: bool  # it asks something (or its sentence does, where no clause of it asks alone)
    hedged: bool  # a modal or a condition: nothing is asserted yet
    succeeds: bool  # a completion cue ("all set", เรียบร้อย)
    fails: bool  # a failure word ("error", 失败)
    retries: bool  # an offer to try again ("want me to retry?", 再试)

    @property
    def negated(self) -> bool:
        return bool(self.negated_in)

    @property
    def asserts(self) -> bool:
        return not self.question and not self.hedged


@dataclass(frozen=True)
class Cues:
    success: BoundedPattern
    negations: dict[str, BoundedPattern]
    failure: BoundedPattern
    retry: BoundedPattern
    hedge: BoundedPattern
    question: BoundedPattern
    idiom: BoundedPattern
    indefinite: BoundedPattern
    thai: bool
    language: str = "en"  # the case's, whose dates a clause is not cut inside

    @classmethod
    def of(cls, languages: Iterable[str], extra: dict[str, dict[str, list[str]]] | None = None) -> "Cues":
        """The cues of these languages: the defaults plus the suite's own."""
        languages = list(dict.fromkeys(languages))
        table: dict[str, dict[str, list[str]]] = {}
        for language in languages:
            for source in (DEFAULT_PHRASES, extra or {}):
                for kind, patterns in source.get(language, {}).items():
                    table.setdefault(kind, {}).setdefault(language, []).extend(patterns)

        def shown(kind: str, languages: Iterable[str]) -> str:
            return f"phrases {kind} cues {[p for lang in languages for p in (extra or {}).get(lang, {}).get(kind, [])]}"

        def joined(kind: str) -> BoundedPattern:
            return _join([p for patterns in table.get(kind, {}).values() for p in patterns], shown(kind, languages))

        return cls(joined("success"), {lang: _join(p, shown("negation", [lang]))
                                       for lang, p in table.get("negation", {}).items()},
                   joined("failure"), joined("retry"), joined("hedge"), joined("question"), joined("idiom"),
                   joined("indefinite"), thai="th" in languages,
                   language=next((lang for lang in languages if lang != "en"), "en"))

    def clauses(self, text: str) -> list[Clause]:
        out = []
        for sentence in sentences(text):
            parts = self.split(sentence)
            # A question asks in its own clause: "ORD-7310 is cancelled — anything else?" states the first.
            asking = [self._asks(part if i == 0 else " " + part) for i, part in enumerate(parts)]  # a cue
            # anchored at the start ("^is", "^est-ce") asks only where the sentence starts
            for part, question in zip(parts, asking if any(asking) else [self._asks(sentence)] * len(parts)):
                plain = self.idiom.sub(" ", part)
                negated = frozenset(lang for lang, pattern in self.negations.items() if pattern.search(plain))
                # A hedge after "and" hedges what follows it: "ORD-7310 is cancelled and the refund will
                # go back to your card" states the first.
                first = _AND.split(_NOT_A_HEDGE.sub(" ", _USERS_WISH.sub(" ", plain)), 1)[0]
                hedged = bool(self.hedge.search(first)) and not _INFERRED_NOW.search(plain)
                out.append(Clause(part, plain, sentence, negated, question, hedged,
                                  bool(self.success.search(plain)), bool(self.failure.search(plain)),
                                  bool(self.retry.search(plain))))
        return out

    def split(self, sentence: str) -> list[str]:
        """The clauses of a sentence; never cut inside a date ("Friday, June 14, 2025"), a time
        (Thai writes "1 ทุ่มครึ่ง" with spaces) or a quoted question ("no answer for “It's late, could
        you…?”": one mention of what was asked)."""
        kept = [m.span() for m in dates_spans(sentence, self.language)] + [m.span() for m, _ in times_said(sentence)] + \
            [m.span() for m in _QUOTED_ASKING.finditer(sentence)]
        breaks = [_CLAUSE_BREAK["default"], *([_CLAUSE_BREAK["th"]] if self.thai else [])]
        cuts = sorted((cut.start(), cut.end()) for pattern in breaks for cut in pattern.finditer(sentence)
                      if not any(s < cut.start() < e for s, e in kept))
        parts, start = [], 0
        for cut_start, cut_end in cuts:
            if cut_start >= start:
                parts.append(sentence[start:cut_start])
                start = cut_end
        parts.append(sentence[start:])
        return [p.strip() for p in parts if p and p.strip()]

    def asks(self, text: str) -> bool:
        return any(self._asks(s) for s in sentences(text))

    def _asks(self, sentence: str) -> bool:
        return bool(_QUESTION_MARK.search(_QUOTED_QUESTION.sub(" ", sentence))
                    or self.question.search(self.indefinite.sub(" ", sentence)))


_SCRIPT = {"th": re.compile(r"[\u0e00-\u0e7f]"), "zh": re.compile(r"[\u4e00-\u9fff]")}
_ENGLISH = re.compile(r"\b(the|is|are|was|your|it|it's|and|to|of|has|have|been|for|with|at|in|on|this|that)\b", re.I)
_FRENCH = re.compile(r"\b(le|la|les|est|une|des|du|au|aux|pour|votre|vos|il|elle|c'est|à|été|et|en|de|sur|dans|avec|chez|"
                     r"sous|par|ce|cette|ces|je|vous|nous|ne|pas|mais|ou|très)\b", re.I)


def reply_language(text: str, case_language: str) -> str:
    """The language a reply is written in, of English and the case's: models often answer in English."""
    if case_language in _SCRIPT:
        return case_language if _SCRIPT[case_language].search(text or "") else "en"
    if case_language == "fr":  # Latin either way: whichever has more of its little words, else its accents
        english, french = len(_ENGLISH.findall(text or "")), len(_FRENCH.findall(text or ""))
        if english == french:
            return "fr" if re.search(r"[éèêàùçôî]", text or "") else "en"
        return "en" if english > french else "fr"
    return "en"


def sentences(text: str) -> list[str]:
    return [s.strip() for part in _SENTENCE_END.split(text or "") if part for s in _listed_value(part) if s.strip()]


def _listed_value(line: str) -> list[str]:
    """A list item's value, and the sentence run on after it, apart; so too a value that opens the
    line after a symbol ("- 💧 70% Le Petit Bistro has a table": the list's humidity, then a sentence)."""
    label = LISTED.match(line)
    end = VALUE_END.search(line, label.end()) if label else _OPENING_QUANTITY.match(line)
    return [line[:end.start(1)], line[end.end(1):]] if end else [line]


def _join(patterns: list[str], shown: str) -> BoundedPattern:
    return compile_pattern("|".join(f"(?:{p})" for p in patterns) or r"(?!)", shown)
