"""Suppression directives: ``droidsim-lint: disable=RULE[,RULE] reason``.

The same text works in a Python comment (``# droidsim-lint: ...``) and in an XML
comment (``<!-- droidsim-lint: ... -->``). Comments change neither the code nor
the schema-validated XML, and they stay out of the descriptions agents read,
which a docstring directive would not. The reason is required: it is what
``droidsim lint --show-suppressed`` prints next to the silenced finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKER = "droidsim-lint:"
_DIRECTIVE = re.compile(
    r"droidsim-lint:\s*disable\s*=\s*(?P<rules>[A-Za-z0-9]+(?:\s*,\s*[A-Za-z0-9]+)*)(?P<reason>.*)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Directive:
    """One directive; ``rules`` as written (upper-cased), ``reason`` may be empty."""

    rules: tuple[str, ...]
    reason: str
    file: str
    line: int
    # Set when the comment mentions droidsim-lint but is not "disable=RULE reason".
    malformed: bool = False

    def silences(self, rule: str) -> bool:
        return not self.malformed and bool(self.reason) and rule in self.rules


def parse_directive(comment: str, file: str, line: int) -> Directive | None:
    """The directive in a comment's text, or None when the comment has none."""
    if MARKER not in comment:
        return None
    match = _DIRECTIVE.search(comment)
    if match is None:
        return Directive((), "", file, line, malformed=True)
    rules = tuple(r.strip().upper() for r in match["rules"].split(","))
    reason = match["reason"].strip().lstrip("-:—–").strip()
    return Directive(rules, reason, file, line)
