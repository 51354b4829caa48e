"""Suppressions kept in a file, for findings nobody can put a comment beside.

A Kotlin app's function XML is what KSP writes from the KDoc, and a comment in KDoc becomes
part of the description agents read, so a finding on an APK (or its code-less folder) cannot be
silenced where it is. ``droidsim lint --suppressions FILE`` reads them from a file shaped like
Android Lint's ``lint.xml``, kept in the app's repository::

    <lint>
        <suppress rule="D1" function="sendPayment" reason="the app asks for the user's PIN first" />
    </lint>

``rule`` takes one id or several (``F3,F4``) and ``reason`` is required, as in a directive;
``package`` and ``function`` (its name or full id) narrow it, else it covers every app linted.
A file with an entry that could silence nothing is refused whole, naming the line: a typo must
never pass for a deliberate, explained exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.lint.directives import Directive
from sim.lint.rules import RULES
from sim.xmlsafe import XmlError, parse_xml

_ATTRIBUTES = frozenset({"rule", "reason", "package", "function"})


@dataclass(frozen=True)
class Suppression:
    directive: Directive
    package: str | None = None
    function: str | None = None

    def covers(self, package: str, function_id: str | None) -> bool:
        """Whether it applies to a finding about ``function_id`` (None: about the app) of ``package``."""
        if self.package is not None and self.package != package:
            return False
        if self.function is None:
            return True
        return function_id is not None and self.function in (function_id, function_id.rsplit("#", 1)[-1])


def read_suppressions(path: Path) -> list[Suppression]:
    """The entries of the file at ``path``; XmlError naming the line of the first bad one."""
    root = parse_xml(Path(path), what="suppressions file")
    if root.tag != "lint":
        raise XmlError.at(root, f"the root element is <{root.tag}>, not <lint>")
    return [_suppression(element, str(path)) for element in root]


def _suppression(element, file: str) -> Suppression:
    if element.tag != "suppress":
        raise XmlError.at(element, f"<{element.tag}> is not <suppress rule=\"RULE\" reason=\"...\">")
    if unknown := sorted(set(element.attrib) - _ATTRIBUTES):
        raise XmlError.at(element, f"<suppress> has no attribute {', '.join(unknown)} "
                                   f"(it takes {', '.join(sorted(_ATTRIBUTES))})")
    rules = tuple(r.strip().upper() for r in element.get("rule", "").split(",") if r.strip())
    if not rules:
        raise XmlError.at(element, "<suppress> names no rule (the rule ids are in docs/lint-rules.md)")
    if unknown_rules := [r for r in rules if r not in RULES]:
        raise XmlError.at(element, f"<suppress> names unknown rule {', '.join(unknown_rules)} "
                                   f"(the rule ids are in docs/lint-rules.md)")
    reason = element.get("reason", "").strip()
    if not reason:
        raise XmlError.at(element, "<suppress> gives no reason: say why the rule does not apply")
    return Suppression(Directive(rules, reason, file, element.sourceline or 1),
                       element.get("package"), element.get("function"))
