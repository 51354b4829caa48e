"""Each function stands alone and is unmistakable (F5, F8, F9).

These compare a function with the other functions of its app and with peers:
the functions of the other apps in the run and, with ``--device``, of every
installed package. Similarity is rapidfuzz's, on normalised names and
descriptions; the thresholds are below and in docs/lint-rules.md.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from rapidfuzz import fuzz, utils

from sim.lint.checks.texts import described_texts, in_kotlin_too
from sim.lint.findings import Issue
from sim.lint.model import App, Function
from sim.lint.peers import Peer
from sim.lint.words import INTENT_OF, name_forms, name_words, resource_words, verb

#: A description this similar (rapidfuzz token_sort_ratio, 0-100) to another is a near-duplicate ...
DUPLICATE_DESCRIPTION = 90
#: ... and so is a pair whose 0.3 x name similarity + 0.7 x description similarity reaches this.
DUPLICATE_COMBINED = 85

_STEERING = [re.compile(p, re.IGNORECASE) for p in (
    r"\b(call|invoke|use|run|trigger)\s+(the\s+)?[`'\"]?[\w.#]+[`'\"]?\s+(function|tool|appfunction)\b",
    r"\b(instead\s+of|rather\s+than|in\s+place\s+of)\s+[^.;]{0,40}?\b(functions?|tools?|apps?)\b",
    r"\b(ignore|don't\s+use|do\s+not\s+use|never\s+use|avoid|override|disable|replace)\s+(the\s+|any\s+|all\s+)?"
    r"(other|another|competing|similar)\s+(functions?|tools?|apps?)\b",
    r"\b(prefer|choose|pick)\s+(this|it)\s+(function\s+|tool\s+)?(over|to|instead)\b",
)]

_GENERIC_WORDS = frozenset({
    "do", "run", "execute", "handle", "process", "perform", "manage", "action", "func", "function", "call",
    "invoke", "helper", "util", "utils", "misc", "main", "api", "op", "stuff", "thing", "dispatch", "go",
    "it", "this", "something", "test", "temp", "tmp", "foo", "bar", "baz",
})
_NUMBERED = re.compile(r"^(f|fn|func|function|method|op|action|handler|tool|task|test|tmp|temp)_?\d*$", re.I)
_ACTION_PARAMETERS = frozenset({"action", "operation", "op", "mode", "verb", "method", "command", "kind"})


def check_references(app: App, peers: Sequence[Peer]) -> Iterator[Issue]:
    """F5: a description names another function or tries to steer agents off others."""
    names = {f.name for f in app.functions} | {p.name for p in peers}
    forms = {form: name for name in names if len(name_words(name)) >= 2 for form in name_forms(name)}
    reference = (
        re.compile(r"(?<![\w])(" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True))) + r")(?![\w])")
        if forms else None
    )
    owners = {f.id: f.name for f in app.functions}
    for scope, text in described_texts(app):
        own = owners.get(scope.function_id or "")
        named = None
        if reference is not None:
            named = next((m.group(1) for m in reference.finditer(text.text) if forms[m.group(1)] != own), None)
        steering = next((m.group(0) for p in _STEERING if (m := p.search(text.text))), None)
        if named or steering:
            said = f"names the function {named}" if named else f"steers agents (\"{steering}\")"
            yield Issue(
                "F5", scope, f"The {text.what} {said}; each description must guide the use of its own "
                "function only.",
                in_kotlin_too(app, scope, text, "Describe only this function. Put the order in which functions "
                              "are used in the app description, and never try to influence other functions or apps."),
                line=text.line,
            )


def check_purpose(app: App) -> Iterator[Issue]:
    """F8: readable names, one purpose per function, no two functions for one intent."""
    seen: dict[tuple[str, tuple[str, ...]], Function] = {}
    for function in app.functions:
        words = name_words(function.name)
        problem = _unclear(function, words, app.kotlin)
        if problem:
            yield Issue("F8", function.scope, f"{function.name}: {problem[0]}", problem[1])
        key = _intent(words)
        if key is None:
            continue
        if key in seen:
            other = seen[key]
            yield Issue(
                "F8", function.scope,
                f"{function.name} and {other.name} serve the same intent ({key[0]} {' '.join(key[1])}); "
                f"agents pick the wrong one when several functions look alike.",
                "Keep one function per use case: merge them, or make each name say how it differs.",
            )
        else:
            seen[key] = function


def check_duplicates(app: App, peers: Sequence[Peer]) -> Iterator[Issue]:
    """F9: a name and description nearly identical to another function's."""
    earlier: list[Function] = []
    for function in app.functions:
        candidates = [(f.name, f.description, f"{f.name} in this app") for f in earlier] + [
            (p.name, p.description, f"{p.name} of {p.package} ({p.origin})") for p in peers
        ]
        best = max(
            ((similarity(function.name, function.description, n, d), label) for n, d, label in candidates),
            default=(0.0, ""),
        )
        if best[0] >= DUPLICATE_COMBINED:
            yield Issue(
                "F9", function.scope,
                f"{function.name} is nearly identical to {best[1]} (similarity {best[0]:.0f}/100); an agent "
                f"may call the wrong one, and a copy can impersonate another app's function.",
                "Give it a name and description that say what only this function does (its resource, "
                "scope or result).",
            )
        earlier.append(function)


def similarity(name_a: str, description_a: str, name_b: str, description_b: str) -> float:
    """0-100: how interchangeable two functions look to an agent (0 when either is undescribed)."""
    if not description_a.strip() or not description_b.strip():
        return 0.0
    description = fuzz.token_sort_ratio(description_a, description_b, processor=utils.default_process)
    if description >= DUPLICATE_DESCRIPTION:
        return max(description, DUPLICATE_COMBINED)
    name = fuzz.ratio(" ".join(name_words(name_a)), " ".join(name_words(name_b)))
    return 0.3 * name + 0.7 * description


def _unclear(function: Function, words: list[str], kotlin: bool) -> tuple[str, str] | None:
    name = function.name
    if len(re.sub(r"[^A-Za-z]", "", name)) < 3 or _NUMBERED.match(name) or (words and set(words) <= _GENERIC_WORDS):
        return (
            "the name does not say what the function does.",
            f"Name it with a verb and a resource, in words a person reads "
            f"({'bookTable, updateSettings' if kotlin else 'book_table, update_settings'}).",
        )
    if any(w in ("and", "or") for w in words[1:-1]):
        return (
            "the name joins several actions, so the function has more than one purpose.",
            "Split it into one function per action, each with its own description.",
        )
    for parameter in function.parameters:
        chooser = name_words(parameter.name)[-1:]
        intents = {INTENT_OF.get(v.lower(), "") for v in parameter.metadata.data_type.enum_values} - {""}
        if chooser and chooser[0] in _ACTION_PARAMETERS and len(intents) > 1:
            return (
                f"parameter '{parameter.name}' chooses between actions ({', '.join(sorted(intents))}), so the "
                f"function has several purposes.",
                "Write one function per action; agents choose better between focused functions.",
            )
    return None


def _intent(words: list[str]) -> tuple[str, tuple[str, ...]] | None:
    if not words:
        return None
    action = verb(words[0], frozenset(INTENT_OF)) or words[0]
    resource = resource_words("_".join(words))
    return (INTENT_OF.get(action, action), resource) if resource else None
