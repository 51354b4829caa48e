"""How descriptions are written: present, neutral, plain, calm, complete (F1-F4, F6, A3).

Agents pick a function from its description as MCP clients pick a tool, so
each of these is a pattern the guide names, matched in plain words.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator

from sim.lint.checks.texts import described_texts, in_kotlin_too, where_to_write
from sim.lint.findings import Issue
from sim.lint.model import App, Function, Scope, Text
from sim.lint.rules import WARNING

#: Longer than this and a description stops being concise (F1).
MAX_DESCRIPTION_CHARS = 600

_I = re.IGNORECASE

_PROMPT = [re.compile(p, _I) for p in (
    r"\byou\s+(must|should|shall|need\s+to|have\s+to|are\s+required\s+to|may\s+not|must\s+not|cannot|can't|are\s+an?)\b",
    r"\b(always|never)\s+(ask|tell|say|mention|reveal|respond|reply|answer|call|use|confirm|show|include|return"
    r"|invoke|share|assume)\b",
    r"\b(do\s+not|don't|dont)\s+(tell|say|mention|reveal|respond|reply|answer|show|ask|share|disclose|inform)\b",
    r"\b(ask|tell|inform|remind|warn)\s+the\s+user\b",
    r"\b(make\s+sure|ensure|remember)\s+(to|that\s+you|you)\b",
    r"\b(respond|reply|answer)\s+(only\s+)?(with|in)\b",
    r"\bas\s+an?\s+(ai|assistant|agent|language\s+model)\b",
    r"\b(ignore|disregard)\s+(all\s+|any\s+)?(previous|prior|above|earlier|other)\s+instructions\b",
)]

_FILLER = [re.compile(p, _I) for p in (
    r"^(this|the)\s+(app\s*)?(function|method|tool|api|endpoint|appfunction|action)\b",
    r"^(a|an)\s+(app\s*)?(function|method|tool|appfunction)\s+(that|which|to|for)\b",
    r"^(function|method|tool)\s+(that|which|to|for)\b",
    r"^((this|it)\s+)?(is\s+)?used\s+(to|for)\b",
    r"^(this|the)\s+(parameter|argument|param|field|property|value|type|class)\s+"
    r"(is|that|which|used|specifies|represents|contains|holds)\b",
    r"^(allows|lets|enables)\s+(you|the\s+(user|agent|assistant)|users|agents)\s+to\b",
)]

_MARKUP = [
    (re.compile(r"\*\*[^*\n]+\*\*"), "bold markup"),
    (re.compile(r"(?<!\w)__[^_\n]+__(?!\w)"), "bold markup"),
    (re.compile(r"!{2,}"), "repeated exclamation marks"),
]
_CAPS_RUN = re.compile(r"\b[A-Z]{2,}(?:\s+[A-Z]{2,})+\b")
_CAPS_WORD = re.compile(r"\b[A-Z]{2,}\b")
_EMPHASIS_WORDS = frozenset({
    "IMPORTANT", "CRITICAL", "MUST", "NEVER", "ALWAYS", "WARNING", "NOTE", "ONLY", "NOT", "URGENT",
    "REQUIRED", "MANDATORY", "ATTENTION", "CAUTION", "VERY",
})

_ORDERING = [re.compile(p, _I) for p in (
    r"\b(first|beforehand)\s*,?\s+(call|use|invoke|run|search|look\s+up|find|fetch|get|list|check|ask|create|retrieve)\b",
    r"\b(call|use|invoke|run)\b[^.;]{0,60}?\b(first|beforehand)\b",
    r"\b(before|after|once)\s+(calling|using|invoking|running|you\s+(call|use|have\s+called|have\s+used))\b",
    r"\bthen\s+(call|use|invoke|run)\b",
    r"\b(must|should)\s+be\s+(called|used|run)\s+(after|before|first)\b",
    r"\brequires?\s+(a\s+)?(prior|previous|preceding)\s+call\b",
)]


def check_descriptions(app: App) -> Iterator[Issue]:
    for scope, text in described_texts(app):
        for issue in (*_prompt(scope, text), *_filler(scope, text), *_shouting(scope, text), *_ordering(scope, text)):
            yield replace(issue, fix=in_kotlin_too(app, scope, text, issue.fix))
    app_text = Text("app", app.description, app.scope.line)
    yield from _prompt(app.scope, app_text)
    yield from _shouting(app.scope, app_text)
    for function in app.functions:
        yield from _presence(app, function)


def _presence(app: App, function: Function) -> Iterator[Issue]:
    """F1 and F6: the description is there and short; so is every parameter's and the result's."""
    text = function.description.strip()
    if not text:
        yield Issue(
            "F1", function.scope, f"{function.name} has no description, so agents cannot tell when to call it.",
            f"Write one in {where_to_write(app, function, 'description')}: a verb and a resource, then the result "
            f"(\"Fetches the status and items of an order.\").",
        )
    elif len(text) > MAX_DESCRIPTION_CHARS:
        yield Issue(
            "F1", function.scope,
            f"The description of {function.name} is {len(text)} characters long (more than {MAX_DESCRIPTION_CHARS}).",
            "Put the key information in the first sentence and cut the rest; call ordering goes in the app "
            "description.",
            severity=WARNING,
        )
    for parameter in function.parameters:
        if not parameter.metadata.description.strip():
            yield Issue(
                "F6", function.scope, f"Parameter '{parameter.name}' of {function.name} is not described.",
                f"Describe what to pass, with an example, in {where_to_write(app, function, 'parameter', parameter.name)}.",
                line=parameter.line,
            )
    if function.returns_value and not function.metadata.response.description.strip():
        yield Issue(
            "F6", function.scope, f"The return value of {function.name} is not described.",
            f"Say what the function returns in {where_to_write(app, function, 'return')}.",
        )


def _prompt(scope: Scope, text: Text) -> Iterator[Issue]:
    match = _first_match(_PROMPT, text.text)
    if match:
        yield Issue(
            "F2", scope,
            f"The {text.what} instructs the agent (\"{match}\") instead of describing what the function does.",
            "Describe the purpose and the result in neutral words; agents have their own instructions for "
            "how to talk to the user.",
            line=text.line,
        )


def _filler(scope: Scope, text: Text) -> Iterator[Issue]:
    match = _first_match(_FILLER, text.text.strip())
    if match:
        yield Issue(
            "F3", scope, f"The {text.what} opens with filler (\"{match}\").",
            "Start with the key information: a verb and a resource (\"Books a table ...\"), or for a value "
            "what it is (\"The order's ID ...\").",
            line=text.line,
        )


def _shouting(scope: Scope, text: Text) -> Iterator[Issue]:
    found = _shout(text)
    if found:
        yield Issue(
            "F4", scope, f"The {text.what} shouts to get attention ({found}).",
            "Write it in plain sentence case; state limits as facts (\"Only orders that have not shipped "
            "can be cancelled.\").",
            line=text.line,
        )


def _shout(text: Text) -> str | None:
    """Emphasis markup, a run of capitalised words, or one emphatic capitalised word;
    a value's own enum values (READING LIGHT) are not shouting."""
    for pattern, kind in _MARKUP:
        if m := pattern.search(text.text):
            return f"{kind} \"{m.group(0)}\""
    enum = {word for value in text.enum_values for word in value.split()}
    for m in _CAPS_RUN.finditer(text.text):
        if not set(m.group(0).split()) <= enum:
            return f"capitals \"{m.group(0)}\""
    for m in _CAPS_WORD.finditer(text.text):
        if m.group(0) in _EMPHASIS_WORDS and m.group(0) not in enum:
            return f"capitals \"{m.group(0)}\""
    return None


def _ordering(scope: Scope, text: Text) -> Iterator[Issue]:
    match = _first_match(_ORDERING, text.text)
    if match:
        yield Issue(
            "A3", scope, f"The {text.what} tells the agent in what order to call functions (\"{match}\").",
            "Move call ordering to the app description (res/xml/app_metadata.xml), which agents read to "
            "plan calls across functions.",
            line=text.line,
        )


def _first_match(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for pattern in patterns:
        if m := pattern.search(text):
            return m.group(0)
    return None
