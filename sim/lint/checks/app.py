"""The app description, the agents' first look at an app (A1, A2).

It lives in the app metadata XML (``appfn:description``), is written by hand,
starts with the app's domain and lists concisely the tasks its functions allow.
"""

from __future__ import annotations

import re
from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App
from sim.lint.words import name_words, resource_words, singular

#: Longer than this and an app description is no longer a concise list of tasks (A2).
MAX_APP_DESCRIPTION_CHARS = 600

_PLACEHOLDER = re.compile(r"^\s*(todo|tbd|fixme|lorem ipsum|description|app description|placeholder)\b", re.I)
_FILLER_OPENING = re.compile(
    r"^\s*((this|the|our|my)\s+(app|application)\b|(an?|the)\s+(app|application)\s+(that|which|to|for)\b"
    r"|welcome\b|(app|application)\s+(that|which|for|to)\b)",
    re.I,
)


def check_app_description(app: App) -> Iterator[Issue]:
    if not app.functions:
        return
    text = app.description.strip()
    fix_place = "appfn:description in res/xml/app_metadata.xml (referenced by the manifest's "\
        "android.app.appfunctions.app_metadata property)"
    if not text or _PLACEHOLDER.match(text):
        state = "is a placeholder" if text else "is missing"
        yield Issue(
            "A1", app.scope, f"The app description {state}; agents read it first to decide whether "
            f"this app can help.",
            f"Write it by hand in {fix_place}: the app's domain, then the tasks its functions allow.",
        )
        return
    if m := _FILLER_OPENING.match(text):
        yield Issue(
            "A2", app.scope, f"The app description opens with \"{m.group(0).strip()}\" instead of the app's domain.",
            "Start with the domain (\"Restaurant table booking: ...\"), then list the tasks.",
        )
    if len(text) > MAX_APP_DESCRIPTION_CHARS:
        yield Issue(
            "A2", app.scope,
            f"The app description is {len(text)} characters long (more than {MAX_APP_DESCRIPTION_CHARS}).",
            "List the tasks concisely; details belong in each function's description.",
        )
    unlisted = [f.name for f in app.functions if not _mentions(text, f.name)]
    if unlisted:
        yield Issue(
            "A2", app.scope, f"The app description does not list the task of {', '.join(unlisted)}.",
            "Name each task the functions allow (\"... cancel an order that has not shipped yet\").",
        )


def _mentions(description: str, function_name: str) -> bool:
    """Whether the description names the resource the function acts on."""
    said = {singular(w) for w in name_words(description)}
    wanted = resource_words(function_name) or tuple(name_words(function_name)[:1])
    return any(w in said or any(s.startswith(w) for s in said if len(w) >= 4) for w in wanted)
