"""YAML read with the line of every value, so a suite error can point at the line.

PyYAML's composer gives nodes with marks; we turn the node tree into plain
Python values and keep ``{path: line}`` beside it, where a path is the tuple of
keys and list indexes pydantic reports as an error's ``loc``.
"""

from __future__ import annotations

from pathlib import Path
import re
from typing import Any

import yaml

from sim.no_alias_yaml import NoAliasLoader

Path_ = tuple[Any, ...]


class SuiteLoader(NoAliasLoader):
    """YAML 1.1 minus its surprises for suites: ``19:00`` stays text (not the base-60 number
    1140) and ``yes``/``no``/``on``/``off`` stay words (a user may well answer "no");
    only ``true``/``false`` are booleans, as in YAML 1.2. No aliases (sim/no_alias_yaml.py)."""

    what = "a suite"


SuiteLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
SuiteLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                  list("tTfF"))
SuiteLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"),
                                  list("-+0123456789"))
SuiteLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|\.[0-9_]+|\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


class YamlError(ValueError):
    """The file is not YAML at all (or uses a construct a suite has no use for)."""

    def __init__(self, file: Path, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file, self.line, self.message = file, line, message


def load_with_lines(file: Path) -> tuple[Any, dict[Path_, int]]:
    text = Path(file).read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=SuiteLoader)
    except yaml.MarkedYAMLError as error:
        # The context (where an unclosed bracket or quote began) is where the fix goes, if known.
        mark = error.context_mark or error.problem_mark
        raise YamlError(file, (mark.line + 1) if mark else 1, str(error.problem or error)) from None
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    return _value(node, (), lines, file), lines


def _value(node: yaml.Node, path: Path_, lines: dict[Path_, int], file: Path) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.start_mark)
            if key in out:
                raise YamlError(file, key_node.start_mark.line + 1, f"duplicate key {key!r}")
            out[key] = _value(value_node, (*path, key), lines, file)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_value(item, (*path, i), lines, file) for i, item in enumerate(node.value)]
    loader = SuiteLoader("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as error:
        raise YamlError(file, node.start_mark.line + 1, str(error.problem)) from None


def line_of(lines: dict[Path_, int], loc: Path_) -> int:
    """The line of the deepest part of ``loc`` the file has (a missing field: its parent's)."""
    loc = tuple(loc)
    while loc and loc not in lines:
        loc = loc[:-1]
    return lines.get(loc, 1)
