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
