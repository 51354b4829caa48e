"""The descriptions of an app that agents read, and how to tell a developer to fix one."""

from __future__ import annotations

from typing import Iterator

from sim.lint.model import App, Function, Scope, Text


def described_texts(app: App) -> Iterator[tuple[Scope, Text]]:
    """Every function's description, parameter and return descriptions, and the
    description of every type and property the app defines, with their scope."""
    for function in app.functions:
        for text in function.texts():
            yield function.scope, text
    for info in app.types.values():
        if info.defined_by_app:
            for text in info.texts():
                yield info.scope, text


def where_to_write(function: Function | None, what: str) -> str:
    """Where a description lives: the docstring for Python declarations, else the XML."""
    if function is not None and function.code is not None:
        if what == "description":
            return "the docstring's summary"
        if what == "return value":
            return "the docstring's Returns: section"
        if what.startswith("parameter"):
            return "the docstring's Args: section"
        return "the docstring"
    return "its <description> in the function XML"
