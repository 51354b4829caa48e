"""droid.agent's modules depend one way: no two import each other, even only for type hints."""

from __future__ import annotations

import ast
from pathlib import Path

import droid.agent

PACKAGE = Path(droid.agent.__file__).parent
ROOT = PACKAGE.parent.parent  # the folder droid is imported from


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every droid.agent module this file names in an import, at any depth (TYPE_CHECKING too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("droid.agent")}


def test_no_module_of_droid_agent_imports_one_that_imports_it_back():
    graph = {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}
    packages = {name for name in graph if (ROOT / Path(*name.split("."))).is_dir()}
    cycles = []

    def visit(name: str, trail: tuple[str, ...]) -> None:
        for target in sorted(graph.get(name, ())):
            if target in packages:  # a package's __init__ re-exports its modules: not a dependency of theirs
                continue
            if target == trail[0]:
                cycles.append(" -> ".join((*trail, target)))
            elif target not in trail:
                visit(target, (*trail, target))

    assert "droid.agent.session" in graph
    for name in sorted(set(graph) - packages):
        visit(name, (name,))
    assert not cycles, "\n".join(sorted(set(cycles)))
