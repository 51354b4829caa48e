"""How close a request is to each tool's own words: BM25 over name, description and parameters.

Each tool is one document: the words of its name, its description (the function's
KDoc, with ``Returns: …``), and each parameter's name and description (where the
examples live: ``ORD-8492`` makes ``ord`` a word of ``fetch_order_details``). The
request is the query. A tool whose description says what the user said ranks above
one whose description does not, and a gutted description ranks lower. ``choosing``
uses the ranking twice: only the closest tools are weighed at all, and the share of
the best score is one (small) term of a tool's score beside its name's words.

BM25 is ``bm25s`` (maintained, numpy only, scores every document of a query in one
sparse product), not our own: the index is built once per catalog and kept, so a
prompt costs one vectorised pass over the catalog however many tools it has.
Words are compared give or take an ending (``light``/``lights``,
``cancel``/``cancellation``): their first six letters, less a plural ``s``.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any, Sequence

from droid.agent.confirmation import name_words
from droid.agent.messages import ToolDeclaration
from droid.agent.models.offline import lexicon

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_STEM = 6
# Words every description may have; they say nothing about which tool is meant.
_FILLER = frozenset("a an the of for to in on at by with from and or is are be it its this that as if "
                    "returns return null otherwise when".split())


def stem(word: str) -> str:
    word = word.lower()
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:_STEM]


def terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text) if w.lower() not in _FILLER]


class ToolIndex:
    """A BM25 index of a catalog; ``scores(words)`` gives each tool's relevance by name."""

    def __init__(self, documents: Sequence[tuple[str, list[str]]]) -> None:
        import bm25s  # numpy and a sparse index: loaded when the offline model first chooses

        # bm25s sets its own logger to DEBUG on import, so every index it builds printed a line
        # on the stderr of every agent, eval and MCP run; its warnings still show.
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        self.names = [name for name, _ in documents]
        self._vocabulary = {t for _, words in documents for t in words}
        self._bm25 = bm25s.BM25()
        # A document without a word would be dropped from the index; a tool is never empty.
        self._bm25.index([words or ["\x00"] for _, words in documents], show_progress=False)

    def scores(self, words: Sequence[str]) -> dict[str, float]:
        """Each tool's BM25 score for these words (0 for a tool that shares none of them)."""
        query = [t for t in dict.fromkeys(stem(w) for w in words) if t in self._vocabulary]
        if not query:
            return dict.fromkeys(self.names, 0.0)
        return dict(zip(self.names, (float(s) for s in self._bm25.get_scores(query))))


def tool_index(tools: Sequence[ToolDeclaration], *, translate: bool = True) -> ToolIndex:
    """The index of this catalog, built once and kept for the next prompt on the same tools.
    ``translate``: read descriptions through the offline model's lexicon, as the model does;
    eval's retrieval measure (sim/eval/retrieval.py) reads them as their author wrote them."""
    return _cached(tuple((t.name, t.description, _parameters_text(t)) for t in tools), translate)


@lru_cache(maxsize=8)
def _cached(documents: tuple[tuple[str, str, str], ...], translate: bool) -> ToolIndex:
    return ToolIndex([(name, terms(f"{' '.join(name_words(name))} "
                                   f"{lexicon.to_english(description) if translate else description} {parameters}"))
                      for name, description, parameters in documents])


def _parameters_text(tool: ToolDeclaration) -> str:
    parts = []
    for name, schema in (tool.parameters.get("properties") or {}).items():
        parts.append(" ".join(name_words(name)))
        parts.append(_described(schema))
    return " ".join(parts)


def _described(schema: Any) -> str:
    """A parameter's description, and those of the fields of an object it takes."""
    if not isinstance(schema, dict):
        return ""
    text = [schema.get("description") or ""]
    for field in (schema.get("properties") or {}).values():
        if isinstance(field, dict):
            text.append(field.get("description") or "")
    return " ".join(text)
