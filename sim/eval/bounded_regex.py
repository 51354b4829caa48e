"""A suite's regular expressions, matched with a time bound.

A suite is written by whoever wrote it, and its patterns (``phrases:`` cues, ``regex:``
matchers) are matched against what a model replies: one with catastrophic backtracking,
``(.|.)*QQQ``, holds a run for ever on a reply of forty characters. Patterns cannot all be
checked before use (telling which ones backtrack exponentially takes an analysis of the
expression's ambiguity that no library offers), but a match can be bounded: the ``regex``
package (mrab-regex, the well-kept engine dateparser already brings) matches as ``re`` does
and takes a timeout per call. A match that runs past MATCH_SECONDS raises PatternTimeout,
which names the pattern and the bound, and the run ends with it instead of hanging.
"""

from __future__ import annotations

import regex

# Far past what any sane pattern takes on a reply (microseconds), and short enough that a
# run with a bad pattern ends at once.
MATCH_SECONDS = 1.0
IGNORECASE = regex.IGNORECASE
# Raised for a pattern that does not compile.
PatternError = regex.error


class PatternTimeout(RuntimeError):
    """A suite's pattern ran past MATCH_SECONDS on one text."""


class BoundedPattern:
    """A compiled pattern whose ``search``, ``fullmatch`` and ``sub`` end within MATCH_SECONDS;
    ``shown`` is how an error names it (the pattern itself by default)."""

    def __init__(self, pattern: str, flags: int = 0, shown: str | None = None) -> None:
        self._compiled = regex.compile(pattern, flags | regex.VERSION0)
        self._shown = shown or f"pattern /{pattern}/"

    @property
    def pattern(self) -> str:
        return self._compiled.pattern

    def search(self, text: str) -> regex.Match | None:
        return self._bounded(self._compiled.search, text)

    def fullmatch(self, text: str) -> regex.Match | None:
        return self._bounded(self._compiled.fullmatch, text)

    def sub(self, replacement: str, text: str) -> str:
        return self._bounded(lambda text, timeout: self._compiled.sub(replacement, text, timeout=timeout), text)

    def _bounded(self, match: object, text: str):
        try:
            return match(text, timeout=MATCH_SECONDS)  # type: ignore[operator]
        except TimeoutError:
            raise PatternTimeout(f"the suite's {self._shown} ran past {MATCH_SECONDS:g} s on a text of "
                                 f"{len(text)} characters, the bound on a suite's patterns (catastrophic "
                                 "backtracking? rewrite it without nested or overlapping repeats)") from None
