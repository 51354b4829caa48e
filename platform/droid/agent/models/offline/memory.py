"""What the offline model remembers of the conversation, and how it looks things up.

- ``Memory.recall(param)``: the latest value a parameter of that name had, in a
  call the model made or in a result it got (``noteId`` of the note just created),
  used only when the prompt points back ("cancel *it*", "*its* text", "the first
  one"); ``the first`` / ``the second`` pick from the latest list of results.
- ``Memory.last_call``: the previous call, for a follow-on such as "And in
  Fahrenheit?" (same function, the new values over the old).
- ``resolve(phrase, items, key)``: which listed item a phrase names ("the bedside
  lamp" -> ``bedroom-lamp``), by words in common weighted by how rare they are
  among the items; None when two items tie (then the model asks).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable

from droid.agent.confirmation import name_words
from droid.agent.messages import ASSISTANT, TOOL, Message, ToolRequest
from droid.agent.models.offline import lexicon
from droid.agent.models.offline.choosing import STOPWORDS, same, words_of

_BACK = re.compile(
    r"\b(?:it|its|it's|that|this|them|those|the same|same|one|first|second|last|ça|celle|celui)\b"
    r"|มัน|อันนั้น|อันนี้|它|这个|那个|第一个",
    re.I,
)
_ORDINALS = {"first": 0, "second": 1, "third": 2, "premier": 0, "première": 0, "第一": 0, "แรก": 0}


def points_back(text: str) -> bool:
    return bool(_BACK.search(text))


def ordinal(text: str) -> int | None:
    lower = text.lower()
    hits = [(lower.find(word), index) for word, index in _ORDINALS.items() if word in lower]
    return min(hits)[1] if hits else None


class Memory:
    def __init__(self, messages: Iterable[Message]) -> None:
        self.values: dict[str, Any] = {}
        self.lists: list[list[dict[str, Any]]] = []
        self.calls: list[ToolRequest] = []
        for message in messages:
            if message.role == ASSISTANT:
                for request in message.tool_requests:
                    self.calls.append(request)
                    self.values.update({k: v for k, v in request.args.items() if v is not None})
            elif message.role == TOOL and message.tool_response is not None:
                self._remember(message.tool_response.output)

    def _remember(self, output: Any) -> None:
        items = output.get("result") if isinstance(output, dict) and set(output) == {"result"} else output
        if isinstance(items, list):
            listed = [i for i in items if isinstance(i, dict)]
            if listed:
                self.lists.append(listed)
            return
        if isinstance(items, dict) and "error" not in items:
            self.values.update({k: v for k, v in items.items() if isinstance(v, (str, int, float))})

    @property
    def last_call(self) -> ToolRequest | None:
        return self.calls[-1] if self.calls else None

    def recall(self, param: str, text: str) -> Any:
        position = ordinal(text)
        if position is not None and self.lists:
            items = self.lists[-1]
            if position < len(items) and param in items[position]:
                return items[position][param]
        return self.values.get(param)

    def items_with(self, key: str) -> list[dict[str, Any]] | None:
        """The latest listed items that carry ``key`` (e.g. lights with a ``lightId``)."""
        for items in reversed(self.lists):
            if all(key in item for item in items):
                return items
        return None


def resolve(phrase_english: str, items: list[dict[str, Any]], key: str, ignore: set[str]) -> tuple[Any, bool]:
    """(the id of the item the phrase names, whether the phrase named any item at all)."""
    wanted = [w for w in words_of(phrase_english) if w not in STOPWORDS and w not in ignore]
    if not wanted:
        return None, False
    texts = [set(_item_words(item)) for item in items]
    frequency = {w: sum(1 for t in texts if any(same(w, x) for x in t)) for w in wanted}
    scores = []
    for item, words in zip(items, texts):
        score = sum(math.log(1 + len(items) / frequency[w]) for w in wanted
                    if frequency[w] and any(same(w, x) for x in words))
        scores.append((score, item))
    scores.sort(key=lambda s: -s[0])
    if not scores or scores[0][0] == 0:
        return None, False
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        return None, True
    return scores[0][1].get(key), True


def _item_words(item: dict[str, Any]) -> list[str]:
    words: list[str] = []
    for value in item.values():
        if isinstance(value, str):
            words += words_of(lexicon.to_english(value.replace("-", " ")))
    return words


def entity_of(param: str) -> str:
    """``lightId`` -> "light": what an id parameter identifies."""
    words = [w for w in name_words(param) if w not in ("id", "ids", "number", "code")]
    return words[-1] if words else param
