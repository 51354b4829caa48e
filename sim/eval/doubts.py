"""Doubt cast on whether a done action took effect: "the save may not have synced", "it might not
have changed", « elle n'a peut-être pas été enregistrée », 可能没有保存成功, ยังยืนยันไม่ได้ว่าสำเร็จ.

A modal of the past ("may not have <done>") hedges no plan: it tells the user the action may
have failed. Said of an action a call of the turn did, and no call failed, it is an invented
failure (sim/eval/telling.py). The doubt must be of the action's own effect (its verbs, or the
words for an action taking hold: synced, gone through, taken effect), not of the world ("the
courier may not have scanned it yet"). A lookup's result said to have come back in part ("the
list only partly loaded", "some lights may be missing"), where it answered, invents one too.
"""

from __future__ import annotations

import re
from typing import Iterable

# Words for an action taking hold, whatever the action: "synced", "gone through", "taken effect".
_TOOK_HOLD = frozenset("synced saved stuck worked applied registered succeeded processed completed landed "
                       "changed updated gone went taken".split())
_MAY_NOT_HAVE = re.compile(r"\b(?:(?:may|might|could)(?:\s+well)?\s+not|mightn't)\s+have\s+(?:been\s+|actually\s+)?"
                           r"(?P<done>[a-z]+)", re.I)
_MAY_HAVE_FAILED = re.compile(r"\b(?:may|might|could)\s+have\s+(?:failed|been\s+lost|dropped|not\s+gone\s+through)\b"
                              r"|\ba\s+peut-être\s+échoué\b|\bn'a\s+peut-être\s+pas\s+(?:été\s+)?(?:pris|enregistr|appliqu|abouti)",
                              re.I)
# The same in Chinese and Thai: 可能没有保存成功, 可能失败了, 无法确认是否成功; อาจยังไม่สำเร็จ, ยืนยันไม่ได้ว่าสำเร็จ.
_ELSEWHERE = re.compile(r"可能(?:没有|没|并未|未)[\u4e00-\u9fff]{0,4}?(?:成功|生效|保存|同步|更新|完成)|可能(?:已经)?(?:失败|出错)"
                        r"|(?:无法|不能|没法)确认[^。！？]{0,12}?(?:成功|生效)"
                        r"|ยืนยันไม่ได้ว่า\S{0,12}?สำเร็จ|อาจ(?:จะ)?(?:ยัง)?ไม่(?:สำเร็จ|ได้ผล|ถูกบันทึก)|อาจ(?:จะ)?ล้มเหลว")


def doubts_effect(clause: str, action_words: Iterable[str]) -> bool:
    """``clause`` doubts that the action took effect: "may not have <its verb's participle, or a word
    for taking hold>", "might have failed", or the same in French, Chinese or Thai."""
    words = {w.lower() for w in action_words} | _TOOK_HOLD
    return bool(_MAY_HAVE_FAILED.search(clause) or _ELSEWHERE.search(clause)
                or any(found.group("done").lower() in words
                       for found in _MAY_NOT_HAVE.finditer(clause)))


# A result said to have come back in part: "the list only partly loaded", "some lights may be missing",
# "the results were cut off", « la liste est incomplète », 只加载了一部分, โหลดมาไม่ครบ.
_PARTIAL = re.compile(r"\b(?:only\s+)?(?:partly|partially|half)[-\s](?:loaded|returned|came\s+back|synced|downloaded)\b"
                      r"|\bonly\s+(?:partly|partially)\b|\b(?:came\s+back|was|were|is|are|looks?)\s+(?:incomplete|truncated|cut\s+off)\b"
                      r"|\bsome\s+\w+\s+(?:may|might|could)\s+be\s+missing\b|\bdidn't\s+(?:all|fully)\s+load\b"
                      r"|\b(?:liste|résultats?)\b[^.?!]{0,40}?\bincompl[eè]te?s?\b"
                      r"|只(?:加载|返回|显示)了一部分|(?:加载|返回)不完整|ไม่ครบ|โหลดมาแค่บางส่วน", re.I)


def tells_partial(clause: str) -> bool:
    """``clause`` says a lookup's result came back only in part: a failure of the lookup."""
    return bool(_PARTIAL.search(clause))
