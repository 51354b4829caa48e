"""Structural XML comparison for the golden ports: tags, text and child order,
ignoring indentation and runs of whitespace inside text."""

from __future__ import annotations

from pathlib import Path

from lxml import etree


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def first_difference(actual: bytes, expected: bytes) -> str | None:
    """None when the trees are equal, else a path and what differs there."""
    parser = etree.XMLParser(remove_blank_text=True)
    a = etree.fromstring(actual, parser)
    b = etree.fromstring(expected, parser)
    return _diff(a, b, f"/{b.tag}")


def _diff(a: etree._Element, b: etree._Element, path: str) -> str | None:
    if a.tag != b.tag:
        return f"{path}: tag {a.tag!r} != expected {b.tag!r}"
    if _norm(a.text) != _norm(b.text):
        return f"{path}: text {_norm(a.text)!r} != expected {_norm(b.text)!r}"
    if dict(a.attrib) != dict(b.attrib):
        return f"{path}: attributes {dict(a.attrib)} != expected {dict(b.attrib)}"
    ac, bc = list(a), list(b)
    for i, (x, y) in enumerate(zip(ac, bc)):
        found = _diff(x, y, f"{path}/{y.tag}[{i}]")
        if found:
            return found
    if len(ac) != len(bc):
        extra = [c.tag for c in (ac[len(bc):] or bc[len(ac):])]
        which = "unexpected" if len(ac) > len(bc) else "missing"
        return f"{path}: {which} children {extra}"
    return None


def assert_same_tree(actual: bytes, golden: Path) -> None:
    difference = first_difference(actual, golden.read_bytes())
    assert difference is None, f"differs from {golden.name}: {difference}\n{actual.decode()}"
