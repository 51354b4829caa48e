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
cancelled") or the state holds ("is on now", "is gone"), or that the action's noun was carried
out ("the cancellation has been processed"), or uses a completion phrase that names no action
("all set", "taken care of"), or says a state stopped or came back ("no longer going to ship",
"free again"); where no function of the turn acts, the agent saying it did anything ("I
messaged your landlord") claims too. It **denies** an action when, negated, it says the verb or an
outcome in general words of success ("couldn't cancel", "wasn't booked", "didn't go through",
"no luck", "it didn't take", "nothing was saved"), or, not negated, reports a failure ("an
error", "it errored out"), says things are as they were ("you're still where you started"),
or offers to try again. An English negation negates what follows it ("it's cancelled and can
no longer be restored" claims), and a sentence that opens with a condition says neither.
French claims are read through the request's verb too ("Annule ma commande" -> annulée); Thai
and Chinese through their completion and negation cues.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from sim.eval.doubts import doubts_effect, tells_partial
from sim.eval.offers import FRENCH_BASE, ID_OR_NAME, asks_again, asks_leave, awaits_yes, bare_leave, offered
from sim.eval.phrases import STATE_ELSEWHERE, Clause, Cues, sentences
from sim.eval.structure import OUTCOME_FIELD, YES_NO, field_words, parse
from sim.eval.value_words import values_said
from sim.lint.words import INTENT_OF, name_words

# The English verbs whose past does not end in -ed: the grammar's own list, not cue words.
_IRREGULAR = {
    "arise": "arose arisen", "awake": "awoke awoken", "be": "was were been", "bear": "bore borne",
    "beat": "beat beaten", "become": "became become", "begin": "began begun", "bend": "bent",
    "bind": "bound", "bite": "bit bitten", "bleed": "bled", "blow": "blew blown",
    "break": "broke broken", "breed": "bred", "bring": "brought", "build": "built",
    "buy": "bought", "catch": "caught", "choose": "chose chosen", "cling": "clung",
    "come": "came come", "creep": "crept", "cut": "cut", "deal": "dealt", "dig": "dug",
    "dive": "dove", "do": "did done", "draw": "drew drawn", "dream": "dreamt", "drive": "drove driven",
    "eat": "ate eaten", "fall": "fell fallen", "feed": "fed", "feel": "felt", "fight": "fought", "find": "found",
    "flee": "fled", "fling": "flung", "fly": "flew flown", "forbid": "forbade forbidden",
    "foresee": "foresaw foreseen", "forget": "forgot forgotten", "forgive": "forgave forgiven",
    "freeze": "froze frozen", "get": "got gotten", "give": "gave given", "go": "went gone", "grind": "ground",
    "grow": "grew grown", "hang": "hung", "have": "had", "hear": "heard", "hide": "hid hidden",
    "hold": "held", "keep": "kept", "kneel": "knelt", "know": "knew known", "lay": "laid",
    "lead": "led", "leap": "leapt", "learn": "learnt", "leave": "left", "lend": "lent", "let": "let",
    "light": "lit lighted", "lose": "lost", "make": "made", "mean": "meant", "meet": "met",
    "mislay": "mislaid", "mistake": "mistook mistaken", "overcome": "overcame overcome", "overdo": "overdid overdone",
    "override": "overrode overridden", "overtake": "overtook overtaken", "overwrite": "overwrote overwritten",
    "pay": "paid", "prove": "proven", "put": "put", "quit": "quit", "read": "read", "rebuild": "rebuilt",
    "redo": "redid redone", "resend": "resent", "rethink": "rethought", "rewrite": "rewrote rewritten",
    "ride": "rode ridden", "ring": "rang rung", "rise": "rose risen", "run": "ran run", "say": "said",
    "see": "saw seen", "seek": "sought", "sell": "sold", "send": "sent", "set": "set", "shake": "shook shaken",
    "shine": "shone", "shoot": "shot", "show": "showed shown", "shrink": "shrank shrunk",
    "shut": "shut", "sing": "sang sung", "sink": "sank sunk", "sit": "sat", "sleep": "slept", "slide": "slid",
    "sow": "sown", "speak": "spoke spoken", "spell": "spelt", "spend": "spent", "spill": "spilt",
    "spin": "spun", "split": "split", "spoil": "spoilt", "stand": "stood",
    "steal": "stole stolen", "stick": "stuck", "sting": "stung", "stink": "stank stunk", "stride": "strode stridden",
    "strike": "struck", "string": "strung", "strive": "strove striven", "swear": "swore sworn", "sweep": "swept",
    "swell": "swollen", "swim": "swam swum", "swing": "swung", "take": "took taken", "teach": "taught",
    "tear": "tore torn", "tell": "told", "think": "thought", "throw": "threw thrown", "tread": "trod trodden",
    "undergo": "underwent undergone", "understand": "understood", "undertake": "undertook undertaken",
    "undo": "undid undone", "unwind": "unwound", "uphold": "upheld", "upset": "upset", "wake": "woke woken",
    "wear": "wore worn", "weave": "wove woven", "weep": "wept", "win": "won", "wind": "wound",
    "withdraw": "withdrew withdrawn", "withhold": "withheld", "wring": "wrung", "write": "wrote written",
}
# English ways of saying the same action, beyond the lint's intents: synonyms and phrasal verbs.
# Keyed by the intent's lemma; general English, not a list of any app's words.
_SAME_ACTION = {
    "cancel": ("call off", "call it off", "scrap", "nix", "void", "drop", "stop", "halt", "pull", "withdraw",
               "take off", "cross off", "strike off"),
    "delete": ("remove", "erase", "wipe", "get rid of", "clear"),
    "create": ("make", "add", "save", "set up", "jot down", "write down", "put down", "note down"),
    "book": ("reserve", "secure", "hold"),
    "send": ("text", "message", "deliver", "forward"),
    "set": ("switch", "turn", "put"),
    "update": ("change", "edit", "modify", "rename", "replace"),
    "release": ("free", "free up", "let go"),
}
# The verbs of calling something off: those of the cancel intent and the same action's.
_INTENTS_OF_CALLING_OFF = frozenset({v for v, intent in INTENT_OF.items() if intent == "cancel"}
                                    | set(_SAME_ACTION["cancel"]))
# The states an ending leaves a thing in, said after a form of be ("BK-1000 is gone", "it's void"):
# general English for what is left of something called off or removed, keyed like _SAME_ACTION.
_LEFT_AS = {"cancel": ("void", "gone", "off", "history"), "delete": ("gone", "history", "cleared out")}
# Success and completion in general words, verbs and nouns: negated, each says that whatever was
# attempted failed ("didn't go through", "nothing changed", "no luck", "wouldn't let me"), so a
# denial is heard in words the action does not share.
_OUTCOMES = ("work", "go through", "succeed", "happen", "change", "complete", "finish", "process", "manage",
             "able", "get done", "make it", "do it", "do that", "do this", "come through", "pan out", "get through",
             "take effect", "let me", "let us", "allow me", "allow us", "luck", "success", "joy", "dice", "possible")
# General verbs of carrying a thing out: said done of the action's noun, they say it was done.
_CARRIED_OUT = ("process", "complete", "finish", "execute", "submit", "finalize", "finalise", "apply", "action",
                "effect", "make", "do", "accept", "approve", "register", "record", "log", "put through",
                "carry out", "push through")
# Verbs that, with no object, say an action took effect: negated at the end of their clause they
# deny it ("it didn't take", "the change didn't stick this time"); with an object they do not
# ("it didn't take long").
_TOOK_EFFECT = ("take", "stick", "hold", "land", "register", "save", "apply", "go")
_CLAUSE_END = r"(?:\s+(?:this time|that time|at all|after all|for some reason|properly|either|yet|here))*[.!]?\s*$"
# Politeness before the verb of a request: "Could you please send...", "I need you to book...".
_REQUEST_OPENING = re.compile(r"^(?:(?:please|kindly|just|hey|ok|okay|can you|could you|would you|will you|"
                              r"i want you to|i need you to|i'd like you to|help me|go ahead and)[\s,]+)*", re.I)
# The agent saying it could not do something, whatever the verb: "I couldn't pull up those details".
_UNABLE = re.compile(r"\b(?:i|we)\s+(?:could\s*not|couldn't|can't|cannot|can\s+not|was\s+unable|were\s+unable|"
                     r"wasn't\s+able|weren't\s+able|was\s+not\s+able|didn't\s+manage|did\s+not\s+manage)\b"
                     r"|\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:unable|not\s+able)\b", re.I)
# Completion that names no particular action, beyond the success cues: "it worked", "that's arranged",
# "I went ahead with the cancellation" (proceeding with a thing is doing it).
_COMPLETED = re.compile(r"\b(?:worked|succeeded|happened|happening|arranged|organi[sz]ed|scheduled|lined up|in place|"
                        r"wrapped up|ready|in motion|under ?way|(?:went|gone|going) ahead with|proceeded with|"
                        r"carried out|followed through|a wrap|accomplished)\b"
                        r"|\b(?:request|task|job)\b[^,;.!?]*?\b(?:processed|completed|handled|fulfilled|actioned|submitted)\b",
                        re.I)
# A negation whose verb is left out, meaning the action just spoken of: "so it couldn't be", "I can't".
_ELLIPSIS = re.compile(r"^(?:(?:so|and|but|then|yet)\s+)?(?:\w+\s+)?(?:could|can|would|was|were|did|does|do|is|are|has|have|had|will)(?:n't|\s+not)"
                       r"(?:\s+(?:be|been|have been))?[.!]?$", re.I)
# The agent's past or perfect: "I messaged", "I've paid", "we have already sent"; and the verbs of
# it that do nothing (trying, looking, perceiving, thinking, wanting, telling the user: "as I said").
_PERFECT = re.compile(r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:just|already|now|also|since)\s+)?([a-z]+)\b", re.I)
# A headline of a thing done: "Alarm set for 6:45", "Sent the email to your manager".
_HEADLINES = (re.compile(r"^\W*(?:(?:your|the|a|an|my)\s+)?[a-z]+\s+([a-z]+)\b(?!\s+(?:by|to)\b)", re.I),
              re.compile(r"^\W*([a-z]+)\s+(?:the|a|an|your|you|it|them)\b", re.I))
# The user's thing said to be done: "Your alarm is set for 5:50", "your taxi has been booked".
_YOURS_DONE = re.compile(r"^\W*your\s+(?:\w+\s+){1,3}?(?:is|are|was|were|has been|have been|'s been|got)\s+"
                         r"(?:now\s+|all\s+|just\s+|already\s+)?([a-z]+)\b", re.I)
_NOT_DOING = frozenset("tried attempted checked looked searched asked seen saw found heard read noted understood been "
                       "had got gotten received noticed thought wanted wondered hoped guessed assumed figured meant "
                       "felt said mentioned explained suggested recommended pointed warned "
                       # the linking verbs, which say what a thing was, not that anyone did anything ("It became the
                       # capital in 1913", "the rate remained at 4 %")
                       "became remained seemed appeared stayed".split())
# A negative indefinite as the subject of something done: "nothing was saved", "none of it went
# through" (the idioms take out "nothing else" and what was not needed).
_AUXILIARIES = frozenset("was were has have had got is are been being".split())
_NOTHING_DONE = re.compile(r"\b(?:nothing|none of (?:it|this|that|them|these|those)|no changes?)\s+"
                           r"(?:(?:was|were|has|have|had|got|is|are|could|can|would)\s+)?(?:be\s+|been\s+)?([a-z]+)\b",
                           re.I)
# The thing said to be as it was, of the turn as a whole: "you're still where you started",
# "everything stays the same", "it remains untouched", "things are just as they were"; not a
# part of it ("the rest is unchanged").
_AS_IT_WAS = r"(?:just\s+|exactly\s+)?(?:(?:the same\s+)?as (?:it|they|you) (?:was|were)|unchanged|untouched|as before)"
_UNCHANGED = re.compile(r"^(?:\w+\s+)?(?:you|everything|it|that|this|things|all|[A-Z]+-\d+|(?:your|the|their|his|her|its|my)\s+(?!other|rest)\w+)"
                        r"(?:(?:'s|'re|\s+is|\s+are)?(?:\s+(?:all|both))?\s+"  # "it's all still in place"
                        r"(?:still|remains?|remained|stays?|stayed)\s+(?:(?:just\s+|exactly\s+)?"
                        r"(?:where (?:you|it|we|they) (?:started|were|was|began)|as (?:it|they|you) (?:is|are)"
                        r"|the same|at square one|in place)|" + _AS_IT_WAS + r")|(?:'s|'re|\s+is|\s+are)\s+" + _AS_IT_WAS +
                        r")\b|\bback (?:to|at) square one\b"
                        # the agent keeping the whole as it was: "I've left everything as it was", "kept it all
                        # alone", "j'ai tout laissé tel quel", 一切保持原样, ทุกอย่างไว้ตามเดิม (not one thing of several:
                        # "left the hall light as it was" after switching the porch light says nothing of the turn)
                        r"|\b(?:left|kept|leaving|keeping|leave|keep)\s+(?:everything|things|it all|all of it|it|them)\s+"
                        r"(?:just\s+|exactly\s+)?(?:" + _AS_IT_WAS + r"|as is|alone|the same|in place|"
                        r"where (?:it|they) (?:was|were))\b"
                        r"|\btout\b[^,;.]{0,25}?\b(?:tel(?:le)?s? quel(?:le)?s?|comme avant|comme (?:il|elle) était)\b"
                        r"|(?:一切|所有|全部|都)\S{0,6}?(?:保持原样|原封不动)|ทุกอย่าง\S{0,10}?(?:ตามเดิม|เหมือนเดิม)", re.I)
# A denial's scope on things other than those spoken of: "I didn't touch any other lamp", "the others
# weren't changed", "aucune autre lampe", 其他灯没有动, ไฟดวงอื่นไม่ได้แตะ.
_OTHERS = re.compile(r"\b(?:other|others|else|the rest|remaining|autres?|le reste)\b|其他|其余|别的|อื่น|ที่เหลือ", re.I)
# Verbs of halting one's own work, which an agent says with no object ("so I stopped there").
_HALTING = ("stop", "halt", "pause", "hold off", "hold back")
# The same in the suites' other languages: the agent's work stopped, or stopped where it was ("j'ai
# arrêté là", 我就停在这里, 已停止操作, หยุดไว้แค่นี้), not a thing stopped (已停止订阅 is a cancellation).
_HALTED_ELSEWHERE = re.compile(r"\b(?:j'ai|je me suis|nous avons|nous nous sommes)\s+(?:donc\s+|alors\s+)?(?:arrêté|"
                               r"interrompu|suspendu|mis en pause)e?s?(?:\s+(?:là|ici))?\s*[.!]?\s*$"
                               r"|(?:停止|暂停|中止)(?:了)?操作|停(?:下来?|在这里?|在这一步)"
                               r"|หยุด(?:ดำเนินการ|ไว้|ตรงนี้|แค่นี้|ก่อน)", re.I)
# What can no longer be done, in the suites' other languages ("ne peut plus être annulée", "n'est plus
# possible", 已经不能取消, 不能再改, ยกเลิกไม่ได้แล้ว): on a turn of lookups, a state of the thing looked up,
# as "it can no longer be cancelled" is in English, not a lookup that failed.
_NO_LONGER_POSSIBLE = re.compile(r"\b(?:ne|n')\s*(?:\w+\s+)?(?:peut|peuvent|pourra|pourront|est|sont)\s+plus\b"
                                 r"|\bplus\s+possible\b|已经?(?:不能|无法|不可以?)|(?:不能|无法|不可以?)再|不再能"
                                 r"|ไม่ได้(?:อีก)?แล้ว|ไม่(?:สามารถ|อาจ)\S*ได้อีก", re.I)
# The agent unable to tell or know a thing, said as a question it cannot answer ("I can't tell you how
# thick it is", "there's no way to know whether", "je ne peux pas dire si", 无法告诉你有多, 没法知道是否,
# บอกไม่ได้ว่า): information the results lack, not a call that failed.
_CANNOT_TELL = re.compile(r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|no\s+way\s+to|unable\s+to|not\s+able\s+to)\s+"
                          r"(?:really\s+|exactly\s+)?(?:tell|say|know|guess|judge|be\s+sure)\b(?:\s+(?:you|for\s+sure))?"
                          r"\s+(?:how|what|whether|if|when|where|which|why|exactly)\b"
                          r"|\b(?:ne\s+(?:peux|pouvons|sais|savons)|impossible\s+de)\s+(?:pas\s+)?(?:vous\s+)?(?:dire|savoir)\s+"
                          r"(?:si|combien|quel\w*|comment|quand|où|pourquoi)\b"
                          r"|(?:(?:无法|没法|不能)(?:告诉你|确定|判断|知道|说清楚?)|不知道)\S{0,4}?(?:多|是否|有没有|什么|怎么|哪)"
                          r"|(?:บอก|ระบุ|รู้)\S{0,6}ไม่ได้ว่า", re.I)
# The agent not vouching for what comes later ("I can't promise these will still be free", "so I can't
# guarantee that date", "je ne peux pas garantir", 无法保证, 不能确定, รับประกันไม่ได้, ไม่แน่ใจว่า): a caveat
# about what it knows, as _CANNOT_TELL is, not a call that failed.
# The agent unable, now, to confirm or see the answer to a question ("I can't confirm when it arrives", "there's
# no way to check how long the refund takes"): what the results do not say, as "I can't tell how". Not a try
# that failed ("I couldn't confirm whether the reading is current").
_CANNOT_ANSWER_NOW = re.compile(r"\b(?:can't|cannot|can\s+not|(?:have\s+)?no\s+way\s+to)\s+(?:really\s+|yet\s+)?"
                                r"(?:confirm|verify|check|see|predict|work\s+out|figure\s+out)\s+"
                                r"(?:for\s+you\s+|from\s+here\s+|yet\s+)?(?:how|when|whether|if|what|which|why|exactly)\b",
                                re.I)
# The agent's own senses, which it has none of ("I can't see the light myself", "I'm not able to hear it
# from here", "je ne peux pas le voir moi-même", 我自己看不到, ผมมองไม่เห็นเอง): a limit of the agent, said
# of the world outside the app, not a call that failed ("I can't see that order in your account" is one).
_CANNOT_PERCEIVE = re.compile(r"\b(?:can't|cannot|can\s+not|(?:am|'m)\s+(?:not\s+able|unable)\s+to|have\s+no\s+way\s+to)"
                              r"\s+(?:physically\s+|actually\s+|really\s+)?(?:see|hear|watch|observe|look\s+at|smell|feel)\b"
                              r"(?=.*\b(?:myself|for\s+myself|from\s+here|physically|in\s+person|with\s+my\s+own\s+\w+)\b)"
                              r"|\bne\s+(?:peux|pouvons)\s+pas\s+(?:l[ea']\s*|les\s+)?(?:voir|entendre|observer)\b"
                              r"(?=.*(?:moi-même|nous-mêmes|d'ici|physiquement|de mes propres yeux))"
                              r"|自己(?:看不到|看不见|听不到|听不见|无法(?:看到|看见|听到))|(?:看不到|看不见|听不到)(?:现场|实物|实际)"
                              r"|(?:มอง|ได้ยิน)\S{0,4}ไม่(?:ได้)?(?:เห็น)?\S{0,4}(?:เอง|ด้วยตัวเอง|ด้วยตาตัวเอง)", re.I)
# The agent's standing limit of what it can see ("I can't see the courier's live location", "je ne peux pas
# voir la position du livreur", 我看不到快递员的实时位置): of a thing the turn's calls do not act on, said
# in the present with no word of a passing state ("right now", "at the moment", "pour l'instant", 暂时).
_CANNOT_ACCESS = re.compile("|".join((
    r"\b(?:i|we)\s+(?:can't|cannot|can\s+not|(?:am|'m|are|'re)\s+(?:not\s+able|unable)\s+to|have\s+no\s+way\s+to"
    r"|don't\s+have\s+access\s+to)\s+(?:see|view|track|access|follow)\s+(?P<en>.+)",
    r"\b(?:je|nous)\s+ne\s+(?:peux|pouvons)\s+pas\s+(?:voir|suivre|consulter|accéder\s+à)\s+(?P<fr>.+)",
    r"(?:我|我们)(?:看不到|看不见|无法(?:看到|查看|追踪|跟踪))(?P<zh>.+)")), re.I)
_PASSING = re.compile(r"\b(?:right\s+now|at\s+the\s+moment|currently|for\s+now|yet|at\s+present|today|anymore"
                      r"|pour\s+l'instant|pour\s+le\s+moment|actuellement|encore)\b|暂时|目前|现在|还", re.I)
# The agent's work in general words, and pronouns that stand for it or its thing.
_THE_WORK = frozenset("it that this them these those anything everything request attempt try change command action "
                      "operation call task job process transaction update details information info data record "
                      "account app service system server network connection site phone device internet".split())
_AN_ID = re.compile(r"\b[A-Z]{2,}-\d+\b")
# Regret that opens a clause ("Sorry the plans fell through", "so sorry to hear your trip fell apart"):
# what follows is the user's loss, and a failure in it is no failure of the agent's work unless it names it.
_SYMPATHY = re.compile(r"^\W*(?:(?:i'm|i\s+am|we're|we\s+are|so|really|very|truly)\s+)*sorry\s+"
                       r"(?:(?:that|to\s+hear(?:\s+that)?|about)\s+)?(?=(?:your|the|their|his|her|our)\s)", re.I)


def _regrets_a_loss(clause: Clause, said: "_Said") -> bool:
    """The clause is sorry for a failure of a thing that is not the agent's work ("Sorry the plans fell
    through"): said after the work is told done, the user's loss."""
    return clause.fails and bool(_SYMPATHY.match(clause.plain)) and \
        not said.names_the_work(_SYMPATHY.sub("", clause.plain))


# The app, or what it answered, as the subject of a negated verb of telling: "the app didn't return any
# refund details", "the store's response doesn't mention a date", « l'appli n'a pas donné de date ».
_APP_WITHHELD = re.compile(r"\b(?:the|its|this|that)\s+(?:\w+\s+)?(?:app|application|service|system|store|shop|server"
                           r"|result|response|reply|answer)(?:['’]s\s+(?:result|response|reply|answer))?\s+"
                           r"(?:did|does|has|have|had|was|were|is)(?:n['’]t|\s+not)\s+(?:\w+\s+)?"
                           r"(?P<verb>return|give|show|say|include|mention|list|provide|report|share|send|come\s+with)\w*\s+"
                           r"(?P<what>.+)"
                           r"|\b(?:l['’]appli\w*|l['’]application|le\s+service|le\s+magasin|la\s+réponse)\s+n['’](?:a|ont)\s+pas\s+"
                           r"(?:renvoyé|donné|indiqué|précisé|fourni|mentionné|communiqué)\s+(?P<quoi>.+)", re.I)


# What tells how the action went: missing, it leaves the action in doubt ("the app didn't return any
# confirmation", "it didn't send back anything").
_AN_OUTCOME = re.compile(r"\b(?:confirm\w*|respon\w*|answers?|results?|repl(?:y|ies)|acknowledg\w*|receipts?|status"
                         r"|success\w*|errors?|anything|any\s*thing|word|réponse|confirmation|résultat)\b", re.I)


def _withheld_by_the_app(plain: str, said: "_Said") -> bool:
    """The agent says what the app's answer did not hold ("the app didn't return any refund details"),
    of something other than the work and how it went: what the results do not say, not the action undone."""
    withheld = _APP_WITHHELD.search(plain)
    what = withheld and (withheld.group("what") or withheld.group("quoi"))
    return bool(what) and not said.names_the_action(what) and not _AN_OUTCOME.search(what)


def _beyond_the_app(plain: str, said: "_Said") -> bool:
    """The agent says a standing limit of what it sees, of a thing no call of the turn acts on."""
    limit = _CANNOT_ACCESS.search(plain)
    what = limit and next(g for g in limit.groups() if g)
    return bool(what) and not _PASSING.search(plain) and not said.names_the_work(what)


_CANNOT_VOUCH = re.compile(r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|won't\s+be\s+able\s+to|unable\s+to"
                           r"|not\s+able\s+to)\s+(?:really\s+|fully\s+|100\s*%\s+)?(?:promise|guarantee|vouch|ensure"
                           r"|be\s+(?:sure|certain))\b"
                           r"|\b(?:ne\s+(?:peux|pouvons|saurais)|impossible\s+de)\s+(?:pas\s+)?(?:vous\s+)?(?:garantir"
                           r"|promettre|assurer|être\s+(?:sûr|certain))"
                           r"|(?:无法|没法|不能|不敢)(?:保证|担保|确定|肯定|承诺)"
                           r"|(?:รับประกัน|สัญญา)\S{0,6}ไม่ได้|ไม่(?:สามารถ)?(?:รับประกัน|แน่ใจ)", re.I)
# A negated possession: a thing said to have none of something ("it has no text yet", "n'a pas encore de
# contenu", "il n'y a aucun texte", ยังไม่มีเนื้อหา), not an action said not done ("ไม่มีการยกเลิก": no
# cancelling took place).
_HAS_NONE = re.compile(r"\b(?:has|have|had)\s+no\b|\b(?:doesn't|does not|don't|do not)\s+have\s+any\b"
                       r"|\b(?:n'a|n'ont|n'avait|ne contient|n'y a)\s+(?:pas|plus|toujours pas)\s+(?:encore\s+)?d(?:e\b|')"
                       r"|\b(?:n'a|n'ont|n'avait|ne contient|n'y a)\s+(?:encore\s+)?aucun"
                       r"|ไม่มี(?!การ|ความ)", re.I)
_QUOTED = re.compile(r"[“\"«「][^”\"»」]*[”\"»」]")
_FIRST_PERSON = re.compile(r"\b(?:i|we|je|nous)\b|\bj'|我|ผม|ฉัน|ดิฉัน|เรา|หนู", re.I)
# The agent keeping a thing as it was, whatever the thing: "I left the thermostat alone".
_KEPT_AS_IT_WAS = re.compile(r"\b(?:left|kept)\s+(?:[\w'-]+\s+){1,4}?(?:just\s+|exactly\s+)?(?:" + _AS_IT_WAS +
                             r"|as is|alone|the same|in place|where (?:it|they) (?:was|were))\b", re.I)
# A state that stopped, or came back: "ORD-7310 is no longer going to ship", "the table's free
# again". Either says something changed (a claim), unless it says what can no longer be done.
_NO_LONGER = re.compile(r"\bno longer\b|(?:\bis|\bare|'s)\s+no more\b|(?:\bnot|n't)\b[^,;]*\bany\s?more\b", re.I)
# Words of changing, in the suites' languages: a negated clause of nothing but these says nothing
# was changed, which is true of a lookup ("rien n'a été modifié", 没做任何修改, ไม่ได้แก้ไขอะไร).
_CHANGE = re.compile(r"\b(?:(?:made|make|making|do|did|done)\s+(?:any\s+|no\s+)?)?"  # "made any changes"
                     r"(?:chang\w*|unchanged|untouched|modif\w*|alter\w*|touch\w*|edit\w*)\b"
                     r"|修改|更改|改动|变动|动过|แก้ไข|เปลี่ยน", re.I)
# Undoing what was done: negated, it says what can no longer be done, not that the action failed
# ("can't be undone", 取消后无法恢复, ย้อนกลับไม่ได้, "ne peut pas être rétablie").
_ONLY = re.compile(r"^(?:but\s+)?(?:only|just)\b", re.I)
# A bare noun phrase denied after a clause of its sentence ("I only have the current reading, not the
# forecast", "je n'ai que la mesure actuelle, pas les prévisions"): what the first clause is contrasted
# with, no verb and so no action said not done.
_CONTRASTED = re.compile(r"^(?:(?:but|and|mais|et)\s+)?(?:not|pas|non)\s+(?:(?:the|any|its|their|your|my|our|his|her|le|la|les|du|de|"
                         r"[mts]on|[mts]a|[mts]es|leurs?|vos|votre|nos|notre|celui|celle|ceux|celles)\s+|[ld]')(?:[\w'-]+\s*){1,3}[.!]?$", re.I)
_NEAR = 15  # characters between a negation and the word it negates: "rien n'a été modifié"
_UNDOING = re.compile(r"\b(?:undo\w*|undone|restor\w*|revers\w*|revert\w*|recover\w*|rétabli\w*|récupér\w*|"
                      r"irréversible|revenir en arrière)\b|恢复|撤销|撤回|复原|还原|ย้อนกลับ|กู้คืน|เรียกคืน", re.I)
_AGAIN = re.compile(r"(?:\b(?:is|are|was|were)|'s|'re)\s+(?:now\s+)?(?:\w+\s+)?\w+\s+again\b", re.I)
# A try told as the first of several: a first attempt ("at first", "the first time", "on my first
# request", "au premier essai", 第一次, 一开始, ครั้งแรก, ตอนแรก) and a later one asserted ("the second
# command worked", "I asked again", "so I redid it", 我又发了一次, ส่งใหม่อีกรอบ, "j'ai renvoyé"). Told
# together, the first try did not do it: a failure the reply tells, whatever words it has for it.
_FIRST_TRY = re.compile(r"\bat\s+first\b|\b(?:the|my|our|its|an?|on\s+the|on\s+my)\s+(?:very\s+|failed\s+|unsuccessful\s+)?first\s+(?:time|try|attempt|"
                        r"pass|go|round|run|shot|request|command|call|send|submission|ping|message|signal|query|instruction|push|click|tap|"
                        r"save|sync|upload|write|update|edit|change|booking|reservation|cancellation)(?!\s+(?:slot|zone|frame|period)\b)"
                        r"|\bau\s+(?:tout\s+)?début\b|\b(?:la|au|le|du)\s+premi(?:er|ère)\s+(?:fois|essai|tentative|coup|"
                        r"passage|envoi|requête|demande|commande)\b"
                        r"|第一次|头一次|一开始|刚开始|起初|最初|ครั้งแรก|ตอนแรก|รอบแรก|ทีแรก", re.I)
_LATER_TRY = re.compile(r"\b(?:second|2nd|third|3rd|again|once\s+more|redid|redone|redo|re-\w+|resent|reran|rerun|"
                        r"resubmitted|reissued|retried|retry|follow-?up|the\s+next\s+(?:one|try|attempt|command|request|time))\b"
                        r"|\b(?:de\s+nouveau|à\s+nouveau|encore\s+une\s+fois|deuxième|seconde?|refait|renvoy\w*|relanc\w*|"
                        r"réessay\w*|recommenc\w*)\b"
                        r"|又|再|重新|重[发试查做存]|第二次|อีกครั้ง|อีกรอบ|อีกที|ใหม่|ครั้งที่\s*(?:สอง|2)|รอบ(?:ที่)?\s*(?:สอง|2)",
                        re.I)
# A clause that tells of what came before the rest ("After a failed first attempt: ...", "après un
# premier essai raté"): told as past, not a condition, though "after" opens it.
_AFTER = re.compile(r"^\W*(?:after|following|après|หลังจาก)\b", re.I)
# A try told as repeated, with no first try named: "had to nudge it twice", "it took two goes", "il a
# fallu s'y reprendre à deux fois", 试了两次才, 第二次才成功, ต้องกดสองรอบ.
_TRIED_TWICE = re.compile(r"\bhad\s+to\b[^.?!;]{0,30}?\b(?:again|twice|once\s+more|a\s+second\s+time)\b"
                          r"|\b(?:took|needed|required)\s+(?:me\s+)?(?:two|2|three|a\s+couple\s+of|several|a\s+few|multiple)\s+"
                          r"(?:goes|tries|attempts|rounds|times|passes|shots)\b"
                          r"|\bs'y\s+reprendre\b|\bà\s+deux\s+fois\b"
                          r"|[试发弄调做点按](?:了)?(?:两|二|几|好几)[次遍回]|第二[次遍回]才|[两几][次遍回]才"
                          r"|(?:ต้อง|กด|ส่ง|ลอง|สั่ง)\S{0,8}(?:สอง|2|หลาย)\s*(?:ครั้ง|รอบ|ที)", re.I)
# Could not, in the other languages of the suites: "je n'ai pas pu", 无法, ไม่สามารถ.
_UNABLE_ELSEWHERE = re.compile(r"\bpas pu\b|\bpourr\w* pas\b|\bimpossible\b|无法|不能|没能|未能|没法|做不到|"
                               r"ไม่ได้|ไม่สามารถ|ไม่สำเร็จ", re.I)
# A condition that opens a sentence, or a clause after its connective ("..., so if it doesn't show up,
# tell me", "mais s'il ne s'allume pas", 不过要是没反应): it scopes over its own clause.
_CONDITION = re.compile(r"^\s*(?:(?:and|but|so|or|then|yet|et|mais|donc|alors|ou)\s+|(?:และ|แต่|ก็)\s*|(?:但是?|不过|所以|那|而)\s*)?"
                        r"(?:(?:if|unless|in case|si|s'ils?)\b|ถ้า|หาก|如果|要是|万一)", re.I)
_ABILITY_OR_CONDITION = re.compile(r"\b(?:can|could|cannot|able|possible|allowed|if|once|when|unless)\b", re.I)
_WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?", re.UNICODE)
_QUESTION_WORDS = frozenset("what whats what's how when where who which why is are was were am do does did can could "
                            "would will shall should may might has have had".split())
# Words of the closed classes (articles, prepositions, pronouns, answers) that open an answer to
# a question ("In Tokyo", "The bedside lamp", "Yes please"), not a request: no verb of it.
_NOT_A_VERB = frozenset("the a an in on at to for from with by of into my your our his her their its this that these "
                        "those it i we you he she they yes no yeah yep nope sure ok okay thanks thank".split())
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
    nouns: set[str] = field(default_factory=set)  # what it acts on, from its name: note, order, light
    parameters: set[str] = field(default_factory=set)  # the words of its parameters' names: title, content
    given: set[str] = field(default_factory=set)  # those of the arguments a call gave
    elsewhere: set[str] = field(default_factory=set)  # the verbs of the apps' other actions, none done this turn
    ungiven: set[str] = field(default_factory=set)  # the words naming parameters no call gave, its own or others'

    @property
    def untouched(self) -> set[str]:
        """The parts a call could have changed and was not given ("title" of an update that set
        only the content): said to be unchanged, they deny nothing of what was done."""
        return self.parameters - self.given if self.given else set()

    def add_function(self, name: str, description: str, args: dict[str, Any], schema: dict[str, Any]) -> None:
        words = name_words(name)
        verbs = {words[0]} if words else set()
        self.nouns |= set(words[1:])
        for found in _DESCRIPTION_VERB.findall(description or ""):
            lemma = _lemma_of_third_person(found.lower())
            if lemma and lemma not in words[1:]:  # "Orders that are shipped…" of cancel_order: its noun, many
                verbs.add(lemma)
        for participle in _PARTICIPLE.findall(description or ""):
            verbs |= _lemmas_of_past(participle)
        self.add_verbs(verbs)
        properties = (schema or {}).get("properties") or {}
        self.parameters |= {w for key in properties for w in name_words(key)}
        self.given |= {w for key in args or {} for w in name_words(key)}
        if args:
            self.ungiven |= {w for key, spec in properties.items() if key not in args for w in _part_words(key, spec)}
        for key, value in (args or {}).items():
            allowed = (properties.get(key) or {}).get("enum") or []
            if isinstance(value, str) and value in allowed:
                self.states.add(_said(value))
                self.opposites |= {_said(other) for other in allowed if isinstance(other, str) and other != value}

    def add_elsewhere(self, name: str, description: str, schema: dict[str, Any] | None = None) -> None:
        """The verbs of an action of the apps that this turn neither expects nor calls: a denial
        that names one ("Nothing is booked yet" after a search) is about it, and true; and the
        parts it sets ("brightness" of dim_light), which no call of this turn set."""
        other = Action()
        other.add_function(name, description, {}, {})
        self.elsewhere |= other.verbs
        properties = (schema or {}).get("properties") or {}
        self.ungiven |= {w for key, spec in properties.items() for w in _part_words(key, spec)}

    @property
    def unset(self) -> set[str]:
        """The words of the parts no call of this turn was given, its own functions' or the apps'
        other ones', less any word of what was given or acted on: a denial that names one ("I didn't
        change its brightness" after switching it on) is true of that part, not of the call."""
        return self.ungiven - self.given - self.nouns - self.verbs - self.states

    def add_verbs(self, verbs: Iterable[str]) -> None:
        """These verbs, the verbs of the same intent and of the same action, and the states they leave."""
        found = set(verbs)
        for verb in list(found):
            intent = INTENT_OF.get(verb)
            found |= {v for v, i in INTENT_OF.items() if i == intent} if intent else set()
        for verb in list(found):
            found |= set(_SAME_ACTION.get(verb, ()))
            self.states |= set(_LEFT_AS.get(verb, ()))
        self.verbs |= found

    def with_request(self, request: str) -> "Action":
        """This action and the verb an English request starts with, read the same way ("Send a
        text to my mom": "texted"). A phrasal verb's first word alone is no verb of it: "Get rid
        of BK-1000" asks to delete, so "Got it" claims nothing."""
        heard = dataclasses.replace(self, verbs=set(self.verbs), states=set(self.states), elsewhere=set(self.elsewhere))
        heard.add_verbs(_phrasal_intents(request) or {request_verb(request)} - {None})
        return heard

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
    unchanged: tuple[str, ...] = ()  # the denials that say only that nothing was changed: true of a lookup
    offers: tuple[str, ...] = ()  # questions and offers to do the turn's action to a thing already named
    troubles: tuple[str, ...] = ()  # the denials that tell of a failure or a retry ("the first try timed out")
    of_others: tuple[str, ...] = ()  # the denials said of things other than those spoken of ("no other lamp")
    lacking: tuple[str, ...] = ()  # the denials that say a thing has nothing of something ("ยังไม่มีเนื้อหา")
    states: tuple[str, ...] = ()  # the denials that only say a state ("it's on", "the lamp is still off")
    leave: tuple[str, ...] = ()  # sentences and fields that ask leave to act ("Shall I?", "Reply yes to proceed")
    bare_leave: tuple[str, ...] = ()  # those that ask only to go ahead: about what the reply spoke of
    again: tuple[str, ...] = ()  # those that ask to do the action again to what a claim says was done
    doubts: tuple[str, ...] = ()  # clauses that doubt the action took effect ("the save may not have synced")
    partial: tuple[str, ...] = ()  # clauses that say a result came back in part ("the list only partly loaded")

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
        heard = action.with_request(request) if "en" in self.languages else action
        verbs, states = frozenset(heard.verbs), frozenset(heard.states)
        said = _Said(_done_pattern(verbs, states), _state_pattern(frozenset(heard.opposites) - states),
                     _verb_pattern(verbs), _french_pattern(request) if "fr" in self.languages else None,
                     bool(action.verbs), frozenset(action.untouched), _called_off(verbs, request),
                     _verb_pattern(frozenset(heard.elsewhere - heard.verbs)), _words_pattern(frozenset(action.unset)),
                     frozenset(heard.opposites) - states, frozenset(heard.nouns | heard.verbs))
        claims, denials, unchanged, troubles, of_others, lacking, states = [], [], [], [], [], [], []
        structured = parse(text)
        pending = [record.text for record in structured.records  # {"status": "awaiting_confirmation"}
                   if any(asks_leave(f"{key}: {value}".replace("_", " ")) for key, value in record.scalars())]
        for record in structured.records:  # a JSON object's or a table row's fields, each a statement
            for key, value in record.scalars():
                reading = self._hear_field(key, value, said)
                if reading:  # of the row, or of what the field's own name names: {"ORD-6025": "not cancelled"}
                    part = f"{key}: {value}" if ID_OR_NAME.search(key) or " " in key and key[:1].isupper() \
                        else record.text
                    (claims if reading == "claim" else denials).append(part)
        text = structured.prose
        clauses = self.cues.clauses(text)
        french = _french_pattern(request, FRENCH_BASE) if "fr" in self.languages else None
        offers = [clause.text for clause in clauses if offered(clause, heard, request, french)]
        leave = pending + list(dict.fromkeys(_leave_asked(text)))
        doing = heard.words() | heard.nouns
        # what a yes would do ("Give me the nod and it's done"; "Ready when you are:" before a pending
        # action) claims nothing done
        unsaid = [s.rstrip(":：. ") for s in sentences(text) if awaits_yes(s)] + pending
        bare = tuple(asked for asked in leave if bare_leave(asked, doing))
        retold = self._first_tries(clauses, said)
        for before, clause, after in zip([None] + clauses, clauses, clauses[1:] + [None]):
            reading = "denial" if clause in retold else self._hear(clause, said)
            if reading == "denial" and _regrets_a_loss(clause, said) and \
                    any(self._hear(other, said) == "claim" for other in clauses if other is not clause):
                reading = None  # "BK-1000 is cancelled. Sorry the plans fell through": the user's loss, not the work
            if reading == "denial" and before is not None and before.sentence == clause.sentence and \
                    _CONTRASTED.match(clause.plain.strip()) and clause not in retold and not clause.fails:
                continue  # "…, not the forecast": what the clause before is contrasted with
            if reading == "claim" and any(clause.sentence.rstrip(":：. ") in asked for asked in unsaid):
                continue
            if reading == "denial" and after is not None and after.sentence == clause.sentence and \
                    _ONLY.match(after.plain):
                continue  # "I can't see a forecast, only the current reading": what there is, not a failure
            if reading:
                (claims if reading == "claim" else denials).append(clause)
            if reading == "denial" and (clause.fails or clause.retries or clause in retold):
                troubles.append(clause.text)
            elif reading == "denial" and _OTHERS.search(clause.text):
                of_others.append(clause.text)
            elif reading == "denial" and _lacks(clause.plain):
                lacking.append(clause.text)
            elif reading == "denial" and not clause.negated:
                states.append(clause.text)
            if reading == "denial" and clause not in retold and \
                    self._hear(self._without_change(clause), said) != "denial":
                unchanged.append(clause)
        return Words(tuple(c if isinstance(c, str) else c.text for c in claims),
                     tuple(c if isinstance(c, str) else c.text for c in denials), self.cues.asks(text),
                     unchanged=tuple(c.text for c in unchanged), offers=tuple(offers), troubles=tuple(troubles),
                     of_others=tuple(of_others), lacking=tuple(lacking), states=tuple(states),
                     leave=tuple(leave), bare_leave=bare, again=self._asked_again(leave, heard, claims),
                     doubts=tuple(c.text for c in clauses if doubts_effect(c.text, doing)),
                     partial=tuple(c.text for c in clauses if tells_partial(c.text)))

    @staticmethod
    def _asked_again(leave: list[str], heard: Action, claims: list[Any]) -> tuple[str, ...]:
        """The requests for leave to do the action again to what the reply claims done."""
        said = [c if isinstance(c, str) else c.text for c in claims]
        return tuple(asked for asked in leave if asks_again(asked, heard, said))

    def _first_tries(self, clauses: list[Clause], said: "_Said") -> list[Clause]:
        """The clauses that tell of a try that did not do it: where a first try is named and a later
        one asserted ("the bulb ignored me at first. The second command worked", "Only one saved on
        the first pass, so I redid the other"), those of the first try, else those of the later one,
        that say no success; and those that say a try was repeated ("had to nudge it twice"). A first
        try said to have worked ("it went through on the first try") tells no trouble, nor does a
        later try offered or denied ("no need to send it again"). A first try said to have failed
        ("after a failed first attempt", "the first request errored") tells one with no later try named."""
        twice = [c for c in clauses if _TRIED_TWICE.search(c.plain) and c.asserts and not c.negated]
        first = [c for c in clauses if _FIRST_TRY.search(c.plain)]
        failed = [c for c in first if c.fails and not c.negated and not c.question and not _CONDITION.match(c.text)
                  and (c.asserts or _AFTER.match(c.plain))]
        later = [c for c in clauses if _LATER_TRY.search(_FIRST_TRY.sub(" ", c.plain)) and c.asserts and not c.negated]
        if not first or not later:
            return failed + twice
        untold = [c for c in first if not _succeeds(c, said)]
        return (untold or [c for c in later if not _succeeds(c, said)]) + twice

    def _hear_field(self, key: str, value: Any, said: "_Said") -> str | None:
        """A structure's field as a statement: one that says how the action went ("done": false,
        "success": true, "cancelled": "yes") claims or denies it by its value; any other is read
        as the clause "key: value" ("status": "CANCELLED" claims a cancelling, "error": "timed out"
        denies)."""
        if value is None or value == "":
            return None
        words = field_words(key)
        answer = YES_NO.get(str(value).strip().lower()) if not isinstance(value, bool) else value
        if answer is not None and self._names_other_state(key, said):
            return "denial" if answer else "claim"  # "allumée": false after switching it off: off, as asked
        # "done", "cancelled", "annulée"; or a key that alone would claim the action ("已取消": 已 done + the verb)
        if answer is not None and (OUTCOME_FIELD.fullmatch(words) or said.action(words) or said.acts and any(
                self._hear(clause, said) == "claim" for clause in self.cues.clauses(key))):
            return "claim" if answer else "denial"
        if isinstance(value, (bool, int, float)):
            return None
        return next(filter(None, (self._hear(clause, said) for clause in self.cues.clauses(f"{key}: {value}"))), None)

    def _names_other_state(self, key: str, said: "_Said") -> bool:
        """``key`` names, in the reply's other language, the one state the action did not leave the
        thing in ("allumée", 开着 after switching a light off): its yes or no says the opposite of
        the action's state, though the word is also one of doing (allumer)."""
        named = {state for language in self.languages - {"en"} for state, words in STATE_ELSEWHERE.get(language, {}).items()
                 if re.search(words, key.lower())}
        return len(named) == 1 and named <= said.opposites

    def _fails_in_negation(self, clause: Clause) -> bool:
        """A failure cue whose words hold the clause's negation after the one that failed ("the
        service didn't respond", « le serveur n'a pas répondu »): the negation is the failure itself,
        not a failure denied. One that starts with it ("no signal") is a thing absent, read as before."""
        rest = clause.plain if clause.fails else ""
        while found := self.cues.failure.search(rest):
            negation = [pattern.search(found.group(0)) for pattern in self.cues.negations.values()]
            if any(n and n.start() > 0 for n in negation):
                return True
            rest = rest[max(found.end(), 1):]
        return False

    def _hear(self, clause: Clause, said: "_Said") -> str | None:
        """"claim", "denial" or None for one clause."""
        if _CONDITION.match(clause.sentence) or _CONDITION.match(clause.text):
            return None  # "if it doesn't work, try again": what to do should it fail, not that it did
        if clause.retries and not clause.negated:
            return "denial"  # "want me to retry?": a second try means the first one failed
        if said.called_off and said.called_off.search(clause.plain) and not clause.question:
            return "denial"  # "the deletion was aborted": the action itself called off
        if _changed(clause, said.verb):
            return "claim"
        if clause.negated and not clause.question:
            before, after = self._around_negation(clause)
            if said.done_before(clause.plain, len(before)):  # not a subject: "Cancelling it isn't possible"
                return "claim"  # "it's cancelled and can no longer be restored"
            outcome = said.action(after) or bool(self.cues.success.search(after) or said.verb and
                                                 said.verb.search(after)) or _says_not_done(clause.plain, after)
            if _UNDOING.search(after) and not clause.fails:
                return None  # "it can't be undone": what can no longer be done
            vouch = _CANNOT_VOUCH.search(clause.plain)
            if vouch and said.verb and said.verb.search(clause.plain[vouch.end():]):
                vouch = None  # "I can't guarantee the booking went through": a doubt of the action itself
            if not vouch:  # "I can't confirm when the refund lands": a question it cannot answer now
                vouch = _CANNOT_ANSWER_NOW.search(clause.plain)
                if vouch and self._of_the_action(clause.plain[vouch.end():], said):
                    vouch = None  # "I can't confirm whether it went through"
            if (_CANNOT_TELL.search(clause.plain) or vouch or _CANNOT_PERCEIVE.search(clause.plain)
                    or _beyond_the_app(clause.plain, said) or _withheld_by_the_app(clause.plain, said)) \
                    and not (clause.fails or clause.retries):
                return None  # "so I can't tell you how thick it is": what the results do not say
            if not said.acts and _NO_LONGER_POSSIBLE.search(clause.plain) and not clause.fails:
                return None  # "ยกเลิกไม่ได้แล้ว" after a lookup: what can no longer be done to the thing
            if _of_another_action(clause, after, said) or _of_an_absent_app(clause, said):
                return None  # "nothing is booked yet" after a search: true of the booking no call made
            if _of_an_unset_part(clause, said):
                return None  # "I didn't add any text" to a note made with a title only
            return "denial" if outcome or _denies_elsewhere(clause) or self._fails_in_negation(clause) else None
        if clause.asserts and (clause.fails or bool(said.opposite and said.opposite.search(clause.plain))
                               or said.as_it_was(clause.plain)):
            return "denial"  # "an error occurred"; "the porch light is still off"
        if _halted_pattern().search(clause.plain) or _HALTED_ELSEWHERE.search(clause.plain):
            return None  # "so I stopped there": the agent halting its own work, not the action done
        if clause.asserts and (said.action(clause.plain) or clause.succeeds or _COMPLETED.search(clause.plain)
                               or _AGAIN.search(clause.plain) or not said.acts and _did_something(clause.plain)):
            return "claim"
        return None

    def _of_the_action(self, text: str, said: "_Said") -> bool:
        """``text`` speaks of the action or of how it went ("whether it went through", "if the booking
        was made"): a doubt of it, not of what comes of it."""
        return said.action(text) or bool(said.verb and said.verb.search(text) or self.cues.success.search(text))

    def _without_change(self, clause: Clause) -> Clause:
        """The clause without its words of changing ("I haven't changed anything", "it's untouched"),
        and in another language the negation just before one (没做任何修改, "rien n'a été modifié"): a
        denial that is none without them says only that nothing changed."""
        plain = _UNCHANGED.sub(" ", clause.plain)
        for change in reversed(list(_CHANGE.finditer(plain))):
            start = change.start()
            for language in clause.negated_in - {"en"}:
                negation = self.cues.negations[language].search(plain[max(0, start - _NEAR):start])
                if negation:
                    start = max(0, start - _NEAR) + negation.start()
            plain = plain[:start] + " " + plain[change.end():]
        negated = frozenset(language for language in clause.negated_in if self.cues.negations[language].search(plain))
        return dataclasses.replace(clause, plain=plain, negated_in=negated)

    def _around_negation(self, clause: Clause) -> tuple[str, str]:
        """An English negation negates what follows it: "it's cancelled and can no longer be
        restored" negates the restoring, not the cancelling. The clause before its first English
        negation, and from there on; nothing before where the negation ends the clause ("cancel
        order returned no": an answer, said of the whole) or is in another language."""
        english = self.cues.negations.get("en")
        match = english.search(clause.plain) if english is not None and "en" in clause.negated_in else None
        if not match or not _WORD.search(clause.plain[match.end():]):
            return "", clause.plain
        start = match.start() - len(re.search(r"\w*$", clause.plain[:match.start()]).group(0))  # "didn't": "did" too
        return clause.plain[:start], clause.plain[start:]


@dataclass(frozen=True)
class _Said:
    """The turn's action as the patterns that hear it: done, the opposite state, its verb in any
    form, and the French request's participle; and whether any function of the turn acts."""

    done: re.Pattern | None
    opposite: re.Pattern | None
    verb: re.Pattern | None
    french: re.Pattern | None
    acts: bool  # a function of the turn acts (else the request's verb is the only word of an action)
    untouched: frozenset[str] = frozenset()  # parts of the thing no call was given (Action.untouched)
    called_off: _CalledOff | None = None  # the action's noun called off: "cancellation called off"
    elsewhere: re.Pattern | None = None  # the verbs of the apps' other actions, in any form
    unset_words: re.Pattern | None = None  # the parts no call of this turn was given (Action.unset)
    opposites: frozenset[str] = frozenset()  # the states the action did not leave things in: "on" for off
    things: frozenset[str] = frozenset()  # the action's nouns and verbs' lemmas: order, booking, cancel

    def names_the_work(self, text: str) -> bool:
        """``text`` names the action, what it acts on, an ID, a pronoun for them or the agent's work in
        general words ("the cancellation", "your booking", "ORD-7310", "it", "the request")."""
        return bool(_words_of(text) & _THE_WORK) or self.names_the_action(text)

    def names_the_action(self, text: str) -> bool:
        """``text`` names the action or what it acts on ("the cancellation", "your order", "ORD-7310"),
        not the agent's work in general words ("the details")."""
        return bool(_AN_ID.search(text)) or any(w == thing or len(thing) >= 4 and w.startswith(thing)
                                                for w in _words_of(text) for thing in self.things)

    def as_it_was(self, plain: str) -> bool:
        """``plain`` says things are as they were, of the whole ("everything is unchanged"), not of a
        part no call was to change ("the title is unchanged" after an update of the text)."""
        unchanged = _UNCHANGED.search(plain)
        subject = unchanged and re.match(r"(?:\w+\s+)?(?:your|the|their|his|her|its|my)\s+(\w+?)s?\b",
                                         unchanged.group(0), re.I)
        return bool(unchanged) and not (subject and subject.group(1).lower() in self.untouched)

    def done_before(self, text: str, end: int) -> bool:
        """``text`` says the action was done in words that end by ``end`` (where a negation begins),
        read in the whole clause: "Cancelling ORD-7310 wasn't accepted" opens on its subject, not on
        the action done, and "the cancellation wasn't processed" is no cancellation processed."""
        return bool(text[:end].strip()) and any(found.end() <= end for pattern in (self.done, self.french) if pattern
                                                for found in pattern.finditer(text))

    def action(self, text: str) -> bool:
        """``text`` says the action was done, in its own words."""
        return bool(text.strip()) and (bool(self.done and self.done.search(text))
                                       or bool(self.french and self.french.search(text)))


def _words_of(text: str) -> set[str]:
    """The text's words, lower-cased, each plural also as its singular ("the updates", "the devices")."""
    words = {w.lower() for w in _WORD.findall(text)}
    return words | {w[:-1] for w in words if w.endswith("s")}


_LAST_CLAUSE = re.compile(r"\s+[—–-]\s+|;\s*")


def _leave_asked(text: str) -> Iterable[str]:
    """The sentences that ask leave to act, each with what the agent said before it that it will do
    ("Here's what I'll do: switch the Porch light on. Sound good?")."""
    said = sentences(text)
    for before, sentence in zip([""] + said, said):
        last = _LAST_CLAUSE.split(sentence)[-1]  # a question asks in its own clause: "Nothing sent yet — should I?"
        if asks_leave(sentence):
            yield sentence
        elif last != sentence and asks_leave(last):
            yield last
        elif asks_leave(sentence, before):
            yield f"{before} {sentence}"


def _succeeds(clause: Clause, said: "_Said") -> bool:
    """The clause says the action, or anything, succeeded ("it went through", "it worked", "saved"),
    not only that the agent did something ("I queried them")."""
    return clause.asserts and (said.action(clause.plain) or clause.succeeds or bool(_COMPLETED.search(clause.plain)))


def _says_not_done(plain: str, negated: str) -> bool:
    """A negated clause that says, in general words, that an action did not happen: an outcome
    ("didn't go through", "no luck"), a verb left out ("so it couldn't be"), the agent unable
    ("I couldn't pull it up"), an effect that did not take ("it didn't take"), or nothing done
    ("nothing was saved"). ``negated``: the clause from its negation on."""
    nothing = _NOTHING_DONE.search(negated)
    return bool(_OUTCOME.search(negated) or _ELLIPSIS.match(plain.strip()) or _UNABLE.search(plain)
                or _TOOK_EFFECT_NOT.search(negated) or nothing and _is_past(nothing.group(1))
                and nothing.group(1).lower() not in _AUXILIARIES)


def _of_another_action(clause: Clause, after: str, said: "_Said") -> bool:
    """A negated clause whose verb is that of another action of the apps, one no call of this turn
    performed ("Nothing is booked yet", "I haven't cancelled anything" after a lookup), and none
    of this turn's: it denies that action, which did not happen, not the calls that did. One that
    tells of a failure or offers a retry is no such statement."""
    # words of changing in general ("I haven't changed anything") are said of the whole turn, not of
    # another function that changes things (update_note's "change")
    return bool(said.elsewhere and said.elsewhere.search(_CHANGE.sub(" ", after))) \
        and not (said.verb and said.verb.search(clause.plain)) \
        and not (clause.fails or clause.retries or _UNABLE.search(clause.plain))


# A kind of app said to be missing: "there's no calendar app here", « il n'y a pas d'appli de calendrier ».
_NO_APP = re.compile(r"\bno\s+(?P<kind>[^\W\d_]+)\s+(?:apps?|applications?)\b"
                     r"|\b(?:pas\s+d['’]|aucune\s+)appli(?:cation)?s?\s+(?:de\s+|d['’])?(?P<genre>[^\W\d_]+)", re.I)


def _of_an_absent_app(clause: Clause, said: "_Said") -> bool:
    """A negated clause whose sentence says the kind of app it names is missing ("I haven't added it
    to a calendar — there's no calendar app here"): a limit of the device, true of a thing no call
    acts on, not the calls denied. One that tells of a failure, or names what the turn acts on, is none."""
    kinds = {(m.group("kind") or m.group("genre")).lower() for m in _NO_APP.finditer(clause.sentence)}
    return not clause.fails and any(re.search(rf"\b{re.escape(kind)}\b", clause.plain, re.I)
                                    and not said.names_the_action(kind) for kind in kinds)


def _part_words(key: str, spec: Any) -> set[str]:
    """The words naming a parameter: its name's and its description's nouns ("content": "The body
    text of the note." is said as "text" as often as "content")."""
    described = spec.get("description", "") if isinstance(spec, dict) else ""
    return set(name_words(key)) | {w.lower() for w in re.findall(r"[A-Za-z]{4,}", described)} - _NOT_A_PART


# Words of a parameter's description that name no part of the thing.
_NOT_A_PART = frozenset("the this that with from when used while whether which what whose into only none null "
                        "omitted current user percent value values should must will each default".split())


def _of_an_unset_part(clause: Clause, said: "_Said") -> bool:
    """A negated clause naming a part no call of this turn was given ("so I didn't add any text to
    the note" after a note made with a title only; "I didn't change its brightness" after switching
    the light on): true of that part, not a denial of the call. One that tells of a failure, or
    names a state the action sets, is none."""
    return bool(said.unset_words and said.unset_words.search(clause.plain)) \
        and not (clause.fails or clause.retries or _UNABLE.search(clause.plain)) \
        and not (said.opposite and said.opposite.search(clause.plain))


@functools.cache
def _halted_pattern() -> re.Pattern:
    """The agent halting its own work: a verb of halting with no object, or one of where or when
    it stopped ("so I stopped there", "I halted before doing anything", "I've paused here and the
    order stays active")."""
    halted = sorted({f for verb in _HALTING for f in forms(verb)[0]})
    return re.compile(r"\b(?:i|we)(?:'ve|\s+have|'d|\s+had)?\s+(?:just\s+|then\s+|simply\s+)?(?:" + "|".join(halted) +
                      r")(?:\s+(?:there|here|short|right there|at that(?: point)?|for now|before\b[^,;.]*))*"
                      r"(?:[.!]?\s*$|\s+and\s+(?!(?:i|we)\b))", re.I)


def _lacks(plain: str) -> bool:
    """A thing said to have none of something ("elle n'a pas encore de contenu", ยังไม่มีเนื้อหา): not
    the agent lacking what it needed ("I have no access", ผมไม่มีสิทธิ์: a failure), not the agent
    unable, and not words quoted ("บันทึกโน้ตชื่อ “ไม่มีชื่อ”": a name, whatever it says)."""
    said = _QUOTED.sub(" ", plain)
    return bool(_HAS_NONE.search(said)) and not _UNABLE_ELSEWHERE.search(said) and not _FIRST_PERSON.search(said)


def _did_something(plain: str) -> bool:
    """The agent says it did something ("I've paid the bill", "we've submitted it", "I messaged your
    landlord"), or says a thing done in a headline's words ("Alarm set for 6:45", "Taxi booked"): on
    a turn where no function acts (a question, a request no app serves), what was done need not be
    what was asked, and is a claim all the same. Trying and looking are no doing ("I've checked",
    "I tried")."""
    if _KEPT_AS_IT_WAS.search(plain):
        return False  # "I left the thermostat as it was": keeping a thing is not doing anything to it
    said = [_PERFECT.search(plain), _YOURS_DONE.match(plain), *(headline.match(plain) for headline in _HEADLINES)]
    return any(_is_past(done.group(1)) and done.group(1).lower() not in _NOT_DOING for done in said if done) or \
        _doing_now(plain)


# The agent's doing as it speaks: "Ringing your dentist now", "I'm calling them", "Playing jazz on your
# speaker right away"; and a thing said to be at a setting ("the thermostat is at 22 °C now").
_DOING = re.compile(r"^\W*(?:(?P<agent>i'm|i am|we're|we are)\s+(?:now\s+|already\s+)?)?(?P<verb>[a-z]+)ing\s+"
                    r"(?:your|the|a|an|it|them|you|him|her|up|on|off|in|(?-i:[A-Z]\w*))\b", re.I)  # "Calling Mom now"
_NOW = re.compile(r"\b(?:now|right away|straight away|as we speak|at once|for you)\b", re.I)
_SET_NOW = re.compile(r"^\W*(?:the|your)\s+(?:[a-z-]+\s+){1,3}?(?:is|are|'s)\s+(?:now\s+)?(?:at|set\s+to|running\s+at)\s+\d",
                      re.I)


_NOT_DOING_NOW = frozenset("trying checking looking searching thinking wondering hoping waiting reading going "
                           "getting".split())


def _doing_now(plain: str) -> bool:
    """The agent says it is doing something now, or that a thing is at a setting: on a turn no app
    serves, a claim as much as "I've done it" (not trying or looking: "checking", "searching")."""
    doing = _DOING.match(plain)
    if doing and (doing.group("agent") or _NOW.search(plain)):
        return doing.group("verb").lower() + "ing" not in _NOT_DOING_NOW
    return bool(_SET_NOW.match(plain))


def _denies_elsewhere(clause: Clause) -> bool:
    """In another language than English, a negated clause says it was not done, unless it speaks
    of what will not happen ("vous ne serez pas débité", 不会再扣款: a consequence, not the
    outcome) or of a thing's state ("pas encore expédiée": a value, which sim/eval/facts.py reads),
    without saying the agent could not or that something failed."""
    unable = clause.fails or bool(_UNABLE_ELSEWHERE.search(clause.plain))
    return bool(clause.negated_in - {"en"}) and (not clause.hedged or unable) and \
        (unable or not any(list(values_said(clause.plain, language)) for language in clause.negated_in - {"en"}))


def _changed(clause: Clause, said_verb: re.Pattern | None) -> bool:
    """A clause that says a state stopped ("no longer going to ship"): a change, so a claim,
    though negated and said with "going to"; not what can no longer be done, nor the action's
    own verb negated ("it's no longer cancelled")."""
    return bool(_NO_LONGER.search(clause.plain)) and not clause.question \
        and not _ABILITY_OR_CONDITION.search(clause.plain) and not (said_verb and said_verb.search(clause.plain))


def _is_past(word: str) -> bool:
    """A past or participle, regular or not: saved, went, done."""
    word = word.lower()
    return word.endswith("ed") or word in _IRREGULAR_PAST


def request_verb(request: str) -> str | None:
    """The verb an English request starts with ("Please send a text to mom": send), or None for a
    question ("What's a 15% tip?") or an answer to one ("In Tokyo", "Baltimore": one word)."""
    words = _WORD.findall(_REQUEST_OPENING.sub("", request.strip()))
    first = words[0].lower().split("'")[0] if words else ""  # "it's", "that's": the pronoun's
    if len(words) < 2 or first in _QUESTION_WORDS | _NOT_A_VERB or request.strip().endswith("?") and \
            not _REQUEST_OPENING.match(request.strip()).group(0):
        return None
    return words[0].lower()


def _phrasal_intents(request: str) -> set[str]:
    """The actions a request names with a phrasal verb of the same action ("Get rid of booking
    BK-1000": delete), whose first word alone says nothing."""
    said = _REQUEST_OPENING.sub("", request.strip()).lower()
    return {verb for verb, same in _SAME_ACTION.items() for phrase in same
            if " " in phrase and said.startswith(phrase + " ")}


def is_request_for_action(request: str) -> bool:
    """An English request to do something, not a question the agent may answer from what it knows."""
    return request_verb(request) is not None


@functools.lru_cache(maxsize=4096)  # every reply reads the turn's verbs again
def forms(lemma: str) -> tuple[frozenset[str], frozenset[str]]:
    """A verb's past and participle forms, and its -ing forms, regular or not: cancel -> cancelled,
    canceled, cancelling; send -> sent, sending; dim -> dimmed, dimming; call off -> called off."""
    lemma = lemma.lower()
    if " " in lemma:
        first, rest = lemma.split(" ", 1)
        past, ing = forms(first)
        return frozenset(f"{p} {rest}" for p in past), frozenset(f"{i} {rest}" for i in ing)
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
    return frozenset(past), frozenset(ing)


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


@functools.lru_cache(maxsize=1024)  # the same turn's words, for reply after reply
def _done_pattern(verbs: frozenset[str], states: frozenset[str]) -> re.Pattern | None:
    """Said to be done: a past or participle ("cancelled", "sent"), an -ing after a form of be
    ("is being cancelled", "I'm sending it") or opening the clause ("Calling them now"; not as the
    subject of a verb: "Calling isn't possible"), the action's noun carried out ("the cancellation
    has been processed"), or a state after one ("is on now"). A past that
    is also the verb itself (set, put) counts after a subject or an auxiliary only ("I set it",
    "it's set"), not in a list of what can be done ("search tables; set light power")."""
    past = {f for v in verbs if v for f in forms(v)[0]}
    bare = {v for v in verbs if v in past}
    ing = sorted({f for v in verbs if v for f in forms(v)[1]})
    # a phrasal verb's object may stand between its words: "took BK-1000 off"
    parts = [r"\b(?:" + "|".join(re.escape(p).replace(r"\ ", r"(?:\s+[\w-]+){0,3}?\s+") for p in sorted(past - bare))
             + r")\b"] if past - bare else []
    if bare:
        parts.append(_DONE_BY + r"(?:" + "|".join(map(re.escape, sorted(bare))) + r")\b")
    if ing:  # "is being cancelled", "I'm sending it"; or with no subject: "Calling your dentist now"
        said = "|".join(map(re.escape, ing))
        parts.append(rf"(?:{_BE}(?:{said})|^\s*(?:{said})(?![^,;.!?—]*\b(?:is|was|would|will|can|could|"
                     rf"does|did|has|may|might|should)(?:n't)?\b|n't))\b")  # "Cancelling it didn't work": a subject
    if verbs:
        parts.append(_nominal_pattern(verbs))
    state = _state_pattern(states)
    return re.compile("|".join(parts + [state.pattern] if state else parts), re.I) if parts or state else None


def _action_nouns(verbs: Iterable[str]) -> set[str]:
    """The action's nouns: "cancellation", "deletion", "booking"."""
    return {noun for v in verbs if v.isalpha() for noun in
            (v + "ation", v + v[-1] + "ation", v[:-1] + "ion", v[:-1] + "ation", v + "ment", *forms(v)[1])}


# The past forms of the verbs of calling off; a phrasal one's object may stand between its words.
_OFF = "|".join(re.escape(f).replace(r"\ ", r"(?:\s+[\w-]+){0,3}?\s+")
                for f in sorted({f for verb in _INTENTS_OF_CALLING_OFF for f in forms(verb)[0]}))
# Any word, then a verb of calling off, either side; looked for at every position (a lookahead), so
# that a word that is no action's noun never hides one that is. Compiled once: the nouns are
# checked after the match, where a pattern naming them took ~50 ms to compile per action.
_WORD_CALLED_OFF = re.compile(
    rf"(?=\b(?P<noun>[^\W\d_]+?)s?\b(?:\s+(?:was|were|has been|is|got|been))?\s+(?P<off>{_OFF})\b)", re.I)
_CALLED_OFF_WORD = re.compile(
    rf"(?=\b(?P<off>{_OFF})\s+(?:the\s+|your\s+|that\s+|this\s+)?(?P<noun>[^\W\d_]+?)s?\b)", re.I)


@dataclass(frozen=True)
class _CalledOff:
    """The action's noun with a verb of calling off done to it, either side ("cancellation called
    off", "I aborted the deletion", "the booking was dropped"): the action did not go ahead. A verb
    of the noun's own stem is none ("the cancellation is cancelled" is not said of a call-off)."""

    nouns: frozenset[str]
    asked: str = ""  # the request's verb: "I cancelled your request", of "Cancel ORD-7310", may say it was done

    def search(self, text: str) -> bool:
        return any((self._names(found["noun"].lower()) or _asked_for(found["noun"])
                    and found["off"][:5].lower() != self.asked[:5])
                   and found["off"][:5].lower() != found["noun"][:5].lower()
                   for pattern in (_WORD_CALLED_OFF, _CALLED_OFF_WORD) for found in pattern.finditer(text))

    def _names(self, word: str) -> bool:
        return word in self.nouns or word + "s" in self.nouns  # "bookings" is read as booking, "process" as proces


def _asked_for(noun: str) -> bool:
    """The user's asking itself ("I dropped that request", "the request was withdrawn"): called off,
    the action it asked for did not go ahead, whatever the action's nouns."""
    return noun.lower() in ("request", "ask")


@functools.lru_cache(maxsize=1024)
def _called_off_pattern(verbs: frozenset[str]) -> _CalledOff | None:
    """Of an action that calls something off, only its own nouns count: "I cancelled the
    reservation" is that action done, not a reservation called off."""
    nouns = _action_nouns(verbs & _INTENTS_OF_CALLING_OFF if "cancel" in verbs else verbs)
    return _CalledOff(frozenset(n.lower() for n in nouns)) if nouns else None


def _called_off(verbs: frozenset[str], request: str) -> _CalledOff | None:
    """The action's nouns called off, knowing the request's own verb."""
    pattern = _called_off_pattern(verbs)
    return pattern and dataclasses.replace(pattern, asked=(request_verb(request) or "").lower())


def _nominal_pattern(verbs: set[str]) -> str:
    """The action's noun ("cancellation", "deletion", "booking") and, later in its clause, a general
    verb of carrying out, done: "the cancellation of ORD-7310 has already been processed"; or the
    noun as that verb's object: "I've processed the cancellation for ORD-7310"."""
    nouns = {v for v in verbs if v.isalpha()} | _action_nouns(verbs)
    done = {past for v in _CARRIED_OUT for past in forms(v)[0]}
    noun, did = "|".join(sorted(nouns)), "|".join(sorted(done))
    return rf"\b(?:{noun})\b[^,;.!?]*?\b(?:{did}|(?:is|was|'s)\s+(?:now\s+)?(?:final|official))\b" \
        rf"|\b(?:{did})\s+(?:the|your|that|this|an?)\s+(?:[\w-]+\s+)?(?:{noun})\b"  # "is final now"; "processed the cancellation"


@functools.lru_cache(maxsize=1024)  # the same turn's words, for reply after reply
def _state_pattern(states: frozenset[str]) -> re.Pattern | None:
    """A state said of something ("is on now"), not a field's name in a listing ("is on: no")."""
    if not states:
        return None
    return re.compile(_BE + r"(?:" + "|".join(map(re.escape, sorted(states))) + r")\b(?!\s*:)", re.I)


@functools.lru_cache(maxsize=1024)  # the same turn's words, for reply after reply
def _verb_pattern(verbs: frozenset[str]) -> re.Pattern | None:
    """The verb in any form, for a negated clause: "couldn't cancel", "not cancelling"."""
    words = sorted({w for v in verbs if v for w in (v, *forms(v)[0], *forms(v)[1])})
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.I) if words else None


@functools.cache
def _words_pattern(words: frozenset[str]) -> re.Pattern | None:
    """These nouns, singular or plural, and as French spells the many it shares ("texte", "notes")."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")(?:e?s|e)?\b", re.I) if words else None


def _outcome_pattern() -> re.Pattern:
    """Outcomes that name no action: "didn't go through", "nothing changed", "wasn't able"."""
    phrases = set()
    for outcome in _OUTCOMES:
        first, *rest = outcome.split()
        past, ing = forms(first)
        phrases |= {" ".join([word, *rest]) for word in (first, first + "s", *past, *ing)}
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(phrases))) + r")\b", re.I)


_OUTCOME = _outcome_pattern()
_TOOK_EFFECT_NOT = re.compile(r"\b(?:" + "|".join(sorted({w for v in _TOOK_EFFECT for w in (v, v + "s", *forms(v)[0])}))
                              + r")(?:\s+(?:effect|hold))?" + _CLAUSE_END, re.I)
_IRREGULAR_PAST = frozenset(w for past in _IRREGULAR.values() for w in past.split())


@functools.lru_cache(maxsize=1024)  # the same turn's words, for reply after reply
def _french_pattern(request: str, ending: str = _FRENCH_PARTICIPLE) -> re.Pattern | None:
    """The participle of the verb a French request starts with: "Annule ma commande" -> annulée
    (with ``ending``, another form of it: annuler, annule)."""
    words = _WORD.findall(request.lower())
    if not words:
        return None
    stem = re.sub(r"(ez|es|e|s)$", "", words[0])
    return re.compile(re.escape(stem[:6]) + ending, re.I) if len(stem) >= 3 else None
