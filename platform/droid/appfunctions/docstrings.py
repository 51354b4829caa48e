"""Docstrings as KDoc: descriptions for functions, parameters, returns and properties.

docstring-parser reads Google, reST (``:param x:``) and NumPy styles. The text
before any section becomes the description (paragraphs kept); a parameter's or
property's text and the Returns text are joined into one line, as KDoc tags are.
A dataclass documents its properties under ``Attributes:``/``Args:`` (Google),
``:ivar x:``/``:param x:`` (reST) or ``Attributes``/``Parameters`` (NumPy).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import docstring_parser


@dataclass(frozen=True)
class Docs:
    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    returns: str = ""

    def lookup(self, py_name: str, wire_name: str) -> str:
        """A parameter's text, documented under its Python or its wire name."""
        return self.params.get(py_name) or self.params.get(wire_name) or ""


EMPTY = Docs()

# reST fields that document attributes, beyond the ":param x:" the parser knows.
_ATTRIBUTE_KEYS = frozenset({"ivar", "var", "cvar", "attribute", "attr", "property", "prop", "field"})


def one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def parse(doc: str | None) -> Docs:
    if not doc or not doc.strip():
        return EMPTY
    parsed = docstring_parser.parse(inspect.cleandoc(doc))
    description = (parsed.description or "").strip()
    params: dict[str, str] = {}
    for meta in parsed.meta:
        if isinstance(meta, docstring_parser.DocstringParam):
            name = meta.arg_name.split()[0] if meta.arg_name else ""
        elif meta.args and meta.args[0] in _ATTRIBUTE_KEYS and len(meta.args) > 1:
            name = meta.args[-1]  # reST ":ivar [type] name:"
        else:
            continue
        name = name.lstrip("*")
        if name and name not in params:
            params[name] = one_line(meta.description)
    returns = one_line(parsed.returns.description) if parsed.returns else ""
    return Docs(description, params, returns)


def function_docs(fn: Any) -> Docs:
    return parse(getattr(fn, "__doc__", None))


def class_docs(cls: type) -> Docs:
    """The class docstring, ignoring the signature text ``@dataclass`` writes when
    a class has none."""
    doc = cls.__dict__.get("__doc__")
    if doc and doc.startswith(cls.__name__ + "("):
        try:
            generated = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            generated = None
        if doc == generated:
            return EMPTY
    return parse(doc)
