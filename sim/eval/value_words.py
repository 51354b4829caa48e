"""The words that say the values of common enum fields, where a value's own word does not.

An app returns codes (SHIPPED, PARTLY_CLOUDY); an English reply says them as words, which
sim/eval/facts.py reads through their endings ("rainy" for RAIN). A reply in French, Thai or
Chinese, and English words that are no ending of the code ("stormy" for THUNDERSTORM), need
a lexicon. This one holds the general vocabulary of the life of an order or a booking
(pending, processing, confirmed, shipped, delivered, cancelled, completed) and of the sky,
in the languages the suites use, not any reply's words. A word may say several values (晴 is
clear or sunny; "pluie" is rain, and a thunderstorm rains too): a reply states a conflicting
value only with a word that cannot say any value the field has. A word that translates one
value says that one as its English word does ("ensoleillé", แดดจัด: sunny, which English holds
apart from clear), a word of the sky in general ("soleil", แดด) says several.
"""

from __future__ import annotations

import re
from typing import Iterable

# language -> (pattern, the values it can say). Longer words are matched first, so
# "partiellement nuageux" is not read as "nuageux".
_WORDS: dict[str, list[tuple[str, str]]] = {
    "en": [
        # what is under way, said in the passive of its work ("is being processed")
        (r"\bbeing\s+processed\b", "PROCESSING PENDING"),
        (r"\bstorm(s|y)?\b|\blightning\b|\bthundery\b", "THUNDERSTORM"),
        (r"\bmist(s|y)?\b|\bhaz(e|y)\b", "FOG"),
        (r"\bovercast\b", "CLOUDY"),
        (r"\bshowers?\b|\bdrizzl(e|y|ing)\b|\bpouring\b", "RAIN THUNDERSTORM"),
        (r"\bsunshine\b", "SUNNY CLEAR PARTLY_CLOUDY"),
    ],
    "fr": [
        (r"\ben (cours de )?(préparation|traitement)\b|\ben cours\b", "PROCESSING PENDING"),
        (r"\ben attente\b", "PENDING PROCESSING"),
        (r"\bconfirmée?s?\b", "CONFIRMED"),
        (r"\b(expédiée?s?|envoyée?s?)\b|\ben (cours de )?(livraison|acheminement)\b|\ben route\b", "SHIPPED"),
        (r"\b(livrée?s?|réceptionnée?s?)\b", "DELIVERED"),
        (r"\bannulée?s?\b", "CANCELLED"),
        (r"\b(terminée?s?|achevée?s?)\b", "COMPLETED DELIVERED"),
        (r"\bpartiellement nuageux\b|\bquelques nuages\b|\béclaircies\b", "PARTLY_CLOUDY"),
        (r"\b(nuageux|nuages)\b", "CLOUDY PARTLY_CLOUDY"),
        (r"\bcouvert\b", "CLOUDY"),
        (r"\bensoleillée?s?\b", "SUNNY PARTLY_CLOUDY"),
        (r"\b(dégagé|clair)\b", "CLEAR SUNNY"),
        (r"\bsoleil\b", "SUNNY CLEAR PARTLY_CLOUDY"),
        (r"\b(brouillard|brume|brumeux)\b", "FOG"),
        (r"\b(orage|orages|orageux)\b", "THUNDERSTORM"),
        (r"\b(pluie|pluvieux|pleut|averses?)\b", "RAIN THUNDERSTORM"),
        (r"\b(neige|neigeux|neiger)\b", "SNOW"),
    ],
    "th": [
        (r"กำลังดำเนินการ|กำลัง(จัด)?เตรียม|รอดำเนินการ|รอการดำเนินการ", "PROCESSING PENDING"),
        (r"ยืนยันแล้ว|ได้รับการยืนยัน", "CONFIRMED"),
        (r"จัดส่งแล้ว|ส่งออกแล้ว|อยู่ระหว่าง(การ)?(จัด|ขน)ส่ง|กำลัง(จัด|นำ)ส่ง", "SHIPPED"),
        (r"ส่งถึง|จัดส่งสำเร็จ|ส่งมอบแล้ว|ได้รับสินค้าแล้ว", "DELIVERED"),
        (r"ยกเลิกแล้ว|ถูกยกเลิก", "CANCELLED"),
        (r"เมฆบางส่วน|เมฆเป็นบางส่วน", "PARTLY_CLOUDY"),
        (r"เมฆมาก|ครึ้ม", "CLOUDY"),
        (r"เมฆ", "CLOUDY PARTLY_CLOUDY"),
        (r"แดดจัด|แดดแรง|แดดเปรี้ยง", "SUNNY PARTLY_CLOUDY"),
        (r"แจ่มใส|โปร่ง|ฟ้าใส", "CLEAR SUNNY"),
        (r"แดด", "CLEAR SUNNY PARTLY_CLOUDY"),
        (r"หมอก", "FOG"),
        (r"พายุ|ฟ้าคะนอง|ฟ้าผ่า", "THUNDERSTORM"),
        (r"ฝน", "RAIN THUNDERSTORM"),
        (r"หิมะ", "SNOW"),
    ],
    "zh": [
        (r"处理中|正在处理|备货中|准备中|待处理", "PROCESSING PENDING"),
        (r"待发货", "PROCESSING CONFIRMED PENDING"),
        (r"已确认|确认了|已经确认", "CONFIRMED"),
        (r"已发货|发货了|已经发货|已寄出|已发出|运输中|配送中|派送中|在路上", "SHIPPED"),
        (r"已送达|送达了|已经送达|已签收|签收了|已到货|已送到", "DELIVERED"),
        (r"已取消|取消了|已经取消|已被取消", "CANCELLED"),
        (r"已完成", "COMPLETED DELIVERED"),
        (r"多云间晴|晴间多云|局部多云", "PARTLY_CLOUDY"),
        (r"多云", "CLOUDY PARTLY_CLOUDY"),
        (r"阴", "CLOUDY RAIN THUNDERSTORM"),
        (r"晴", "CLEAR SUNNY PARTLY_CLOUDY"),
        (r"雾|霾", "FOG"),
        (r"雷", "THUNDERSTORM"),
        (r"雨夹雪", "RAIN SNOW"),
        (r"雨", "RAIN THUNDERSTORM"),
        (r"雪", "SNOW"),
    ],
}
# The kinds of value the lexicon says: a word of one kind said of a field of that kind says a value
# the field has or cannot have; it says nothing of a field of another kind.
_KINDS = (frozenset("PENDING PROCESSING CONFIRMED SHIPPED DELIVERED CANCELLED COMPLETED".split()),
          frozenset("THUNDERSTORM FOG CLOUDY PARTLY_CLOUDY RAIN SUNNY CLEAR SNOW".split()))
_COMPILED = {language: [(re.compile(p, re.I), frozenset(values.split())) for p, values in rows]
             for language, rows in _WORDS.items()}


def values_said(text: str, language: str) -> Iterable[tuple[str, frozenset[str]]]:
    """Each lexicon word in ``text`` with the values it can say, the longest first and none
    inside another."""
    found = sorted(((m.start(), m.end(), values) for pattern, values in _COMPILED.get(language, [])
                    for m in pattern.finditer(text)), key=lambda f: (f[0] - f[1], f[0]))
    taken: list[tuple[int, int]] = []
    for start, end, values in found:
        if not any(start < e and s < end for s, e in taken):
            taken.append((start, end))
            yield text[start:end], values


def of_its_kind(values: frozenset[str], allowed: Iterable[str]) -> bool:
    """Whether the values a word says are all of the kind of a field that can take ``allowed``: "being
    processed" is of a booking's life, whose status is CONFIRMED or CANCELLED, and not of the sky."""
    return any(values <= kind and kind & set(allowed) for kind in _KINDS)


# A thing said to hold nothing, or to hold something still: "no body", "it's only a title", "est
# vide", 内容是空的, ไม่มีเนื้อหา; "still has its text", "contient toujours son texte", 内容还在.
# English names the field in its own noun (held to the fields' names and descriptions: "body" is
# the note's content, "the note's body text"); the other languages' nouns of content (texte,
# 内容, เนื้อหา) say what the thing holds, whatever its field is called, and are read without one.
# Kinds: "empty" (nothing in the noun's field, or in the thing), "only" (nothing but the noun's
# field), "held" (something in it). English's "is empty", "has no text" are facts.py's _EMPTY.
_NOUN = r"(?P<noun>[a-z]+)"
_TEXT_NOUN = r"(?P<noun>text|body|content|contents|description|message|details)"  # what is cleared of a thing: its words
# Something said put into the thing, done ("added your list to it", « avec la liste dedans »,
# 把清单加进笔记里了, ใส่รายการไว้ในโน้ต): it holds something. Past forms only ("I can add it" offers),
# not after a negation ("haven't added it yet", 没加进去, ไม่ได้ใส่).
_PUT_IN_EN = (r"(?<!not )(?<!n't )(?<!never )(?<!yet )\b(?:added|included|inserted|copied|pasted|wrote)\s+"
              r"(?:(?:your|the|my|their|his|her|a|an|this|that|those|these|all)\s+)?(?:[a-z]+\s+){0,3}?"
              r"(?:to|in|into|inside|onto)\s+(?:it|them|there)\b(?!\s+(?:later|once|when|if)\b)", "held")
# Something said put into a named text field, done: "I also added today's date in the body", "wrote
# your address into its text" (a field the call left empty, misstated).
_PUT_IN_FIELD_EN = (r"(?<!not )(?<!n't )(?<!never )\b(?:added|included|inserted|copied|pasted|wrote|put)\s+"
                    r"(?:[\w'’]+\s+){1,4}?(?:in|into|to|inside)\s+(?:the|its|their|your)\s+"
                    r"(?P<noun>body|text|content|contents)\b", "held")
_PUT_IN_FR = (r"\bavec\s+(?:la|le|les|votre|vos|ta|tes|ton|son|sa|ses)\s+[^.;!?]{0,60}?\bdedans\b"
              r"|(?<!pas )(?<!jamais )\b(?:ajouté|mis|inséré|copié|écrit)e?s?\s+[^.;!?]{0,40}?\bdedans\b", "held")
_PUT_IN_ZH = (r"(?<!没)(?<!未)(?<!没有)(?:加|放|写|添加|记|存|抄)(?:进|入|到)了?(?:笔记|便签|备忘录?|文档)?(?:里|中|里面|里头|去)", "held")
_PUT_IN_TH = (r"(?<!ไม่ได้)(?:ใส่|เพิ่ม|เขียน|จด)\S{0,40}?(?:ไว้)?(?:ลง)?ใน(?:โน้ต|บันทึก)", "held")
_EMPTINESS: dict[str, list[tuple[str, str]]] = {
    "en": [
        # a verbless "no text": "(no body — …)", "with no text yet"; not a subject ("no light is on")
        (rf"(?:^|[(\[—–:;]\s*|\s-\s*|\bwith\s+)no\s+{_NOUN}(?:\s+[a-z]+)?"  # "(no body text yet)"
         rf"(?=\s*(?:$|[—–,;:.)!\]]|\s-|(?:yet|at\s+all|in\s+it|inside|any\s*more)\b))", "empty"),
        # "it's only a title", "nothing but the heading" (an article: "it has just shipped" says no field)
        (rf"(?:\b(?:is|are|has|have|with|contains?)|'s)\s+(?:only|just|nothing\s+but|merely)\s+(?:a|an|the|its)\s+{_NOUN}\b",
         "only"),
        (rf"(?:\b(?:contains?|holds?)\s+no|\bwithout(?:\s+any)?)\s+{_NOUN}", "empty"),  # "contains no text"
        # a field left or kept empty: "I left the body empty", "kept it blank"
        (rf"\b(?:left|leave|leaving|kept|keep|keeping)\s+(?:(?:the|its|their)\s+{_NOUN}|it|them)\s+"
         rf"(?:empty|blank)\b", "empty"),
        # its text said to be cleared: "its text was cleared", "I wiped the body" (of a text still there, misstated)
        (rf"\b(?:its|the|their)\s+{_TEXT_NOUN}\s+(?:was|were|has\s+been|have\s+been|got|is\s+now|are\s+now)\s+"
         rf"(?:cleared|emptied|wiped|erased|blanked)\b", "empty"),
        (rf"\b(?:cleared|emptied|wiped|erased|blanked)\s+(?:out\s+)?(?:its|the|their)\s+{_TEXT_NOUN}\b", "empty"),
        (rf"\bstill\s+(?:has|have|contains?|holds?|keeps?)\s+(?:all\s+)?(?:its|their|the|some|his|her)\s+{_NOUN}", "held"),
        (r"\bstill\s+(?:says|reads|contains)\b", "held"),  # of the thing: "it still says “…”"
        (rf"\b(?:has|have|contains?|holds?)\s+(?:its|their|some|the)\s+{_NOUN}\s+(?:in\s+it|inside)\b", "held"),
        (rf"\b(?:its|the|their)\s+{_NOUN}\s+(?:is|are)\s+still\s+(?:there|in\s+(?:it|there|place)|intact|here)\b", "held"),
        _PUT_IN_EN,
        _PUT_IN_FIELD_EN,
    ],
    "fr": [
        (r"\b(?:est|semble|reste|sont|restent)\s+(?:(?:toujours|encore|maintenant|désormais|complètement|entièrement)\s+)?"
         r"vides?\b", "empty"),
        (r"\b(?:laiss|gard)[ée]e?s?\s+(?:(?:le|son|sa|la)\s+(?:texte|contenu|corps)\s+)?vides?\b",
         "empty"),  # "j'ai laissé le texte vide"
        (r"\b(?:aucun|pas\s+de|sans)\s+(?:texte|contenu|corps)\b|\bne\s+contient\s+rien\b|\brien\s+(?:d'écrit|n'est\s+écrit)\b",
         "empty"),
        (r"\b(?:contient|a|garde|conserve)\s+(?:toujours|encore)\s+(?:son|le|du|un|sa)\s+(?:texte|contenu)\b"
         r"|\b(?:son|le)\s+(?:texte|contenu)\s+est\s+(?:toujours|encore)\s+là\b", "held"),
        _PUT_IN_FR,
    ],
    "zh": [
        (r"(?<!不)(?:留空|空着)", "empty"),  # 正文留空: left empty
        (r"(?<!不)(?:是|为)空(?:的|白)?|(?<!不是)空白|没有(?:任何)?(?:内容|正文|文字|文本)|什么(?:都|也)没(?:有|写)|无内容"
         r"|(?<!不是)(?:一[条个份张])?空(?:的)?(?:笔记|便签|备忘录?|文档)", "empty"),
        (r"(?:内容|正文|文字|文本)(?:还|仍|依然|仍然)(?:在|保留)|(?:还|仍|依然|仍然)(?:有|保留着?)(?:内容|正文|文字|文本)", "held"),
        _PUT_IN_ZH,
    ],
    "th": [
        (r"ว่างเปล่า|(?:เนื้อหา|ข้อความ|โน้ต|บันทึก)\s*ว่าง|ไม่มี(?:เนื้อหา|ข้อความ)|ไม่มีอะไร(?:เขียน)?", "empty"),
        (r"ยัง(?:มี|คง)(?:เนื้อหา|ข้อความ)|(?:เนื้อหา|ข้อความ)ยัง(?:อยู่|คง)", "held"),
        _PUT_IN_TH,
    ],
}
_EMPTINESS_COMPILED = {language: [(re.compile(p, re.I), kind) for p, kind in rows] for language, rows in _EMPTINESS.items()}


def emptiness_said(text: str, language: str) -> list[tuple[str, str, str]]:
    """Each saying that a thing holds nothing or something in ``text`` (English's and the
    language's): (the words, the noun of the field they name or "", the kind)."""
    found = []
    for lang in dict.fromkeys(["en", language]):
        for pattern, kind in _EMPTINESS_COMPILED.get(lang, []):
            for match in pattern.finditer(text):
                noun = match.groupdict().get("noun") or ""
                found.append((match.group(0).strip(" ([—–:;-"), noun.lower(), kind))
    return found


# What can or cannot be done to a thing, said with the action's verb: "can still be cancelled",
# "can no longer be cancelled", "is cancellable", "peut encore être annulée", "ne peut plus être
# annulée", 还可以取消, 无法取消, ยังยกเลิกได้, ยกเลิกไม่ได้. A result may say it in a yes/no field named
# by the same verb (canCancel, isRefundable). The verbs of the apps' actions in the other languages
# are read as their English stems (annul-, 取消, ยกเลิก: cancel), a general vocabulary as the states'.
_VERB = r"(?P<verb>[^\W\d_]+)"
_ABILITY: dict[str, list[tuple[str, bool]]] = {
    "en": [
        (rf"\bcan\s+(?:still\s+|yet\s+|now\s+|easily\s+)?(?:be\s+)?{_VERB}", True),
        (rf"\b(?:is|are|'s|'re)\s+(?:still\s+)?{_VERB}(?:able|ible)\b", True),
        (rf"(?:\b(?:can\s*not|cannot|can\s+no\s+longer|no\s+longer|too\s+late\s+to)|\bcan't|\bcan’t)\s+"
         rf"(?:be\s+)?{_VERB}", False),
        # past the stage at which it can be done: "it's past the point where it can be cancelled"
        (rf"\b(?:past|beyond)\s+(?:the\s+)?(?:point|stage)\s+(?:where|when|at\s+which)\s+(?:it|they|you|we|i)\s+"
         rf"(?:can|could)\s+(?:still\s+)?(?:be\s+)?{_VERB}", False),
        (rf"\btoo\s+late\s+for\s+[\w-]+(?:\s+[\w-]+)?\s+to\s+be\s+{_VERB}", False),  # "too late for TK-88 to be refunded"
        (rf"(?:\b(?:is|are|'s|'re)\s+(?:not|no\s+longer)|\b(?:isn't|aren't|isn’t))\s+{_VERB}(?:able|ible)\b", False),
        # "it's still possible to cancel", "you're still able to cancel", "cancellation is still an option"
        (rf"(?<!im)(?<!not\s)(?<!longer\s)(?<!was\s)(?<!were\s)\b(?:possible|able|allowed|time)\s+to\s+{_VERB}", True),
        (rf"\b{_VERB}\s+is\s+(?:still\s+)?(?:possible|an\s+option|allowed)\b", True),
        (rf"\b(?:impossible|not\s+possible|no\s+longer\s+possible|not\s+allowed)\s+to\s+{_VERB}", False),
        (rf"\b{_VERB}\s+is\s+(?:no\s+longer|not)\s+(?:possible|an\s+option|allowed)\b", False),
    ],
    "fr": [
        (rf"(?<!ne\s)\bpeu(?:t|vent)\s+(?:encore\s+|toujours\s+|maintenant\s+)?(?:être\s+)?{_VERB}", True),
        (rf"(?<!n')\best\s+(?:encore\s+|toujours\s+)?{_VERB}able\b", True),
        (rf"(?<!plus\s)(?<!pas\s)\bpossible\s+de\s+(?:l['’]|la\s+|le\s+)?{_VERB}", True),
        (rf"\b(?:plus|pas)\s+possible\s+de\s+(?:l['’]|la\s+|le\s+)?{_VERB}", False),
        (rf"(?:\bne\s+peu(?:t|vent)\s+(?:plus|pas)\s+(?:être\s+)?|\bn'est\s+plus\s+){_VERB}", False),
    ],
    "zh": [
        (rf"(?<![不无没])(?:可以|能够|能|可)(?:再)?(?P<verb>取消|退货|退款|修改|预订|删除)", True),
        (rf"(?:不能|无法|没法|没办法|不可以|不可|不再能)(?:再)?(?P<verb>取消|退货|退款|修改|预订|删除)|(?P<verb2>取消|退货|退款|修改|删除)不了", False),
    ],
    "th": [
        (rf"(?P<verb>ยกเลิก|แก้ไข|ลบ|จอง|คืนเงิน)ได้(?!\s*ไม่)", True),
        (rf"(?P<verb>ยกเลิก|แก้ไข|ลบ|จอง|คืนเงิน)\s*ไม่ได้|ไม่สามารถ(?:ที่จะ)?(?P<verb2>ยกเลิก|แก้ไข|ลบ|จอง|คืนเงิน)", False),
    ],
}
# The apps' verbs in the other languages, by the English stem of five letters a field's name has.
_VERB_STEMS = {"annul": "cance", "取消": "cance", "ยกเลิก": "cance", "modif": "modif", "修改": "modif", "แก้ไข": "edit",
               "suppr": "delet", "删除": "delet", "ลบ": "delet", "réser": "book", "预订": "book", "จอง": "book",
               "rembo": "refun", "退款": "refun", "คืนเงิน": "refun", "退货": "retur"}
_ABILITY_COMPILED = {language: [(re.compile(p, re.I), can) for p, can in rows] for language, rows in _ABILITY.items()}


def abilities_said(text: str, language: str) -> list[tuple[str, str, bool, int]]:
    """Each saying that an action can or cannot be done: (the words, the verb's English stem of
    five letters, whether it can, where the words end)."""
    said = sorted(((match, can) for lang in dict.fromkeys(["en", language])
                   for pattern, can in _ABILITY_COMPILED.get(lang, []) for match in pattern.finditer(text)),
                  key=lambda m: m[0].start() - m[0].end())
    found, taken = [], []
    for match, can in said:  # the longest first: "past the point where it can be cancelled" holds "can be cancelled"
        if any(s <= match.start() and match.end() <= e for s, e in taken):
            continue
        taken.append(match.span())
        verb = (match.group("verb") or match.groupdict().get("verb2") or "").lower()
        stem = _VERB_STEMS.get(verb) or _VERB_STEMS.get(verb[:5]) or verb[:5]
        found.append((match.group(0).strip(), stem, can, match.end()))
    return found


# A count said of things: "3 items", "a table for 4", "party of 5", "4 personnes", 一共 3 件商品,
# 2位, สินค้า 3 ชิ้น, 4 ท่าน ("a table for" and "a party of" count people). The noun counted is read
# as a field's (its name, or what its description says it counts: "How many people the table
# seats"); words for people and for an order's lines in the suites' languages are read as
# "people" and "items".
_COUNTED_AS = [(re.compile(r"^(?:people|persons?|guests?|diners?|ppl|pax|personnes?|convives?|party|人|位|คน|ท่าน)$", re.I),
                "people"),
               (re.compile(r"^(?:items?|articles?|products?|units?|件|件商品|商品|ชิ้น|สินค้า)$", re.I), "items")]
# Small numbers said in words: "a table for two", "deux articles", 三件商品, สองท่าน (not French "un",
# "une": an article as often as a number).
_NUMBER_WORDS = {language: {word: n for n, words in enumerate(rows, 1) for word in words.split("|") if word}
                 for language, rows in {
    "en": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
    "fr": ["", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"],
    "zh": ["一", "二|两", "三", "四", "五", "六", "七", "八", "九", "十"],
    "th": ["หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า", "สิบ"],
}.items()}
_N = {language: r"\d+|" + "|".join(sorted(words, key=len, reverse=True)) for language, words in _NUMBER_WORDS.items()}
# Words of the closed classes that follow "one" as a pronoun, not a counted noun: "pick one you like",
# "one of them", "the one that's free", "one or two".
_NO_NOUN = r"(?!(?:you|i|we|they|he|she|it|of|that|which|who|whom|the|a|an|or|and|is|are|was|were|will|would|can|" \
           r"could|should|to|in|on|at|for|with|by|from|more|less|per|if|than|so)\b)"
_COUNTS: dict[str, list[str]] = {
    "en": [rf"(?<![\d:.,/-])\b(?P<n>{_N['en']})\s+{_NO_NOUN}(?P<noun>[a-z]+)(?:\s+(?P<noun2>[a-z]+))?",
           rf"\b(?P<people>table|party|reservation|booking|seating)\s+(?:for|of)\s+(?P<n>{_N['en']})\b(?![:.]\d)"],
    "fr": [rf"(?<![\d:.,/-])\b(?P<n>{_N['fr']})\s+(?P<noun>[^\W\d_]+)",
           rf"\b(?P<people>table|réservation)\s+pour\s+(?P<n>{_N['fr']})\b(?![:.h]\d)"],
    "zh": [rf"(?P<n>{_N['zh']})\s*(?P<noun>件商品|件|位|人)"],
    "th": [rf"(?P<noun>สินค้า)\s*(?P<n>{_N['th']})\s*ชิ้น|(?P<n2>{_N['th']})\s*(?P<noun2>ชิ้น|ท่าน|คน)"],
}
_COUNTS_COMPILED = {language: [re.compile(p, re.I) for p in rows] for language, rows in _COUNTS.items()}


def counted(noun: str) -> str:
    """A counted noun as the field words say it: "guests", 位 and "party" are "people"; "article" "items"."""
    return next((name for pattern, name in _COUNTED_AS if pattern.match(noun)), noun.lower())


def counts_said(text: str, language: str) -> list[tuple[str, float, list[str], tuple[int, int]]]:
    """Each count said: (the words, the number, the nouns it may count, nearest first, the number's span)."""
    found = []
    for lang in dict.fromkeys(["en", language]):
        for pattern in _COUNTS_COMPILED.get(lang, []):
            for match in pattern.finditer(text):
                groups = match.groupdict()
                number = "n" if groups.get("n") else "n2"
                nouns = ["people"] if groups.get("people") else \
                    [counted(groups[k]) for k in ("noun", "noun2") if groups.get(k)]
                said = (groups.get(number) or "").lower()
                value = float(said) if said.isdigit() else _NUMBER_WORDS[lang].get(said)
                if value is not None and nouns:
                    found.append((match.group(0).strip(), float(value), nouns, match.span(number)))
    return found


# Whose a thing is, said of it: the user's ("it's yours", "you own it", "vous appartient", 你自己的,
# ของคุณเอง) or another's ("shared with you", "someone else's", "partagée avec vous", 别人分享给你的,
# แชร์ให้คุณ). A result says it in an owner's field (facts.py: "The ID of the user who owns the note").
_OTHERS = r"(?:someone|somebody|another\s+(?:user|person|account)|a\s+(?:colleague|friend|coworker|contact))"
_OWNERSHIP: dict[str, list[tuple[str, bool]]] = {
    "en": [
        (r"\bshared\s+with\s+you\b|\b(?:someone|somebody|anyone)\s+else['’]s\b|\bsomeone\s+else\s+owns\b"
         rf"|\b(?:belongs|belonging)\s+to\s+{_OTHERS}|\bowned\s+by\s+{_OTHERS}"
         r"|\b(?:is\s+not|isn't|isn’t|not)\s+(?:yours|your\s+own)\b",
         False),
        (r"\b(?:you\s+own|owned\s+by\s+you|belongs\s+to\s+you|your\s+own)\b|(?:\b(?:is|it's|it’s|that's)\s+)yours\b", True),
    ],
    "fr": [
        (r"\bpartagée?s?\s+avec\s+vous\b|\bde\s+quelqu'un\s+d'autre\b|\bappartient\s+à\s+(?:quelqu'un|un\s+autre|une\s+autre)"
         r"|\bn'est\s+pas\s+(?:à\s+vous|la\s+vôtre|le\s+vôtre)\b", False),
        (r"\bvous\s+appartient\b|\best\s+(?:à\s+vous|la\s+vôtre|le\s+vôtre)\b", True),
    ],
    "zh": [(r"(?:别人|他人|其他人|某人|有人|同事|朋友)(?:分享|共享)给你|共享给你|不是你的|别人的", False),
           (r"你自己的|属于你|是你的", True)],
    "th": [(r"แชร์(?:ให้|กับ)คุณ|ของคนอื่น|ไม่ใช่ของคุณ", False), (r"ของคุณเอง|เป็นของคุณ", True)],
}
_OWNERSHIP_COMPILED = {language: [(re.compile(p, re.I), mine) for p, mine in rows] for language, rows in _OWNERSHIP.items()}


def ownership_said(text: str, language: str) -> list[tuple[str, bool]]:
    """Each saying whose a thing is: (the words, whether it is the user's)."""
    return [(match.group(0), mine) for lang in dict.fromkeys(["en", language])
            for pattern, mine in _OWNERSHIP_COMPILED.get(lang, []) for match in pattern.finditer(text)]
