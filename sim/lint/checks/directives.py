"""L1: a suppression directive that cannot silence anything is itself a finding,
so a typo never passes for a deliberate, explained exception."""

from __future__ import annotations

from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App, Scope
from sim.lint.rules import RULES

_FORM = "droidsim-lint: disable=RULE[,RULE] reason"


def check_directives(app: App) -> Iterator[Issue]:
    for directive in app.all_directives():
        unknown = [r for r in directive.rules if r not in RULES]
        if directive.malformed:
            problem = f"is not of the form \"{_FORM}\""
        elif unknown:
            problem = f"names unknown rule {', '.join(unknown)}"
        elif not directive.reason:
            problem = "gives no reason"
        else:
            continue
        yield Issue(
            "L1", Scope(directive.file, directive.line), f"This suppression directive {problem}, so it silences "
            f"nothing.",
            f"Write \"{_FORM}\" with rule ids from docs/lint-rules.md and the reason the rule does not apply"
            + (" (in a Kotlin app, where KSP writes the XML, in a --suppressions file instead)." if app.kotlin else "."),
        )
