"""Python source as the lint reads it: syntax trees, comments and call graphs.

Nothing here imports or runs app code: ``ast`` and ``tokenize`` read the files,
so the same analysis serves ``droidsim lint`` and the install-time lint, which
must not execute an app inside the device.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from sim.lint.directives import Directive, parse_directive

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


class SourceError(Exception):
    """A Python file that cannot be read or parsed."""


@dataclass
class CodeModule:
    path: Path
    tree: ast.Module
    lines: list[str]
    comments: dict[int, str]
    directives: dict[int, Directive]
    # Local name -> dotted origin: ``import time as t`` gives t -> time,
    # ``from time import sleep`` gives sleep -> time.sleep.
    aliases: dict[str, str] = field(default_factory=dict)
    _parents: dict[ast.AST, ast.AST] = field(default_factory=dict)

    @classmethod
    def parse(cls, path: Path) -> CodeModule:
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text, filename=str(path))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as e:
            raise SourceError(f"{path}: cannot parse it: {e}") from None
        comments = _comments(text)
        directives = {
            line: d for line, text in comments.items() if (d := parse_directive(text, str(path), line)) is not None
        }
        module = cls(path, tree, text.splitlines(), comments, directives)
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                module._parents[child] = node
            if isinstance(node, ast.Import):
                for a in node.names:
                    module.aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    module.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        return module

    # ------------------------------------------------------------------ lookup
    def top_level(self, kind: type, name: str) -> ast.AST | None:
        for node in self.tree.body:
            if isinstance(node, kind) and getattr(node, "name", None) == name:
                return node
        return None

    def definition_at(self, name: str, first_line: int) -> ast.AST | None:
        """The def or class ``name`` whose first line (its first decorator) is ``first_line``."""
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                if first_line in (first_line_of(node), node.lineno):
                    return node
        return None

    def statement_of(self, node: ast.AST) -> ast.stmt:
        while not isinstance(node, ast.stmt) and node in self._parents:
            node = self._parents[node]
        return node  # type: ignore[return-value]

    def enclosing_function(self, node: ast.AST) -> FunctionNode | None:
        parent = self._parents.get(node)
        while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parent = self._parents.get(parent)
        return parent

    def enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        parent = self._parents.get(node)
        while parent is not None and not isinstance(parent, ast.ClassDef):
            parent = self._parents.get(parent)
        return parent

    def methods(self, cls: ast.ClassDef) -> dict[str, FunctionNode]:
        """A class's methods, with those of its bases defined in this module (base first)."""
        found: dict[str, FunctionNode] = {}
        for base in cls.bases:
            if isinstance(base, ast.Name):
                parent = self.top_level(ast.ClassDef, base.id)
                if isinstance(parent, ast.ClassDef) and parent is not cls:
                    found.update(self.methods(parent))
        for node in cls.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[node.name] = node
        return found

    # ------------------------------------------------------------------ directives
    def directives_for(self, node: ast.stmt) -> list[Directive]:
        """Directives written for a definition or statement: in the comment block
        right above it (above its decorators) or on its header lines."""
        start = first_line_of(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            end = max(node.lineno, node.body[0].lineno - 1)
        else:
            end = node.end_lineno or node.lineno
        lines = list(range(start, end + 1))
        above = start - 1
        while above >= 1 and self.lines[above - 1].strip().startswith("#"):
            lines.append(above)
            above -= 1
        return [self.directives[n] for n in sorted(lines) if n in self.directives]

    # ------------------------------------------------------------------ names
    def dotted(self, expr: ast.expr) -> str:
        """``time.sleep`` for ``time.sleep`` / ``t.sleep`` (import time as t) / ``sleep``
        (from time import sleep); attribute chains keep their root (``self.store.get``)."""
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if isinstance(expr, ast.Name):
            parts.append(self.aliases.get(expr.id, expr.id))
        elif isinstance(expr, ast.Call):
            parts.append(self.dotted(expr.func) + "()")
        else:
            return ""
        return ".".join(reversed(parts))


def first_line_of(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([d.lineno for d in decorators] + [node.lineno])  # type: ignore[attr-defined]


def _comments(text: str) -> dict[int, str]:
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, IndentationError):
        pass  # ast.parse accepted the file; a tokenizer quirk only costs directives
    return found


class ModuleCache:
    """Each file parsed once per lint run."""

    def __init__(self) -> None:
        self._modules: dict[Path, CodeModule] = {}

    def get(self, path: Path) -> CodeModule:
        path = Path(path).resolve()
        if path not in self._modules:
            self._modules[path] = CodeModule.parse(path)
        return self._modules[path]


# ---------------------------------------------------------------------- call graph
def reachable(module: CodeModule, root: FunctionNode, cls: ast.ClassDef | None) -> list[FunctionNode]:
    """``root`` and the helpers it calls in its own module: ``self.<method>(...)``
    on its class (and bases in the module) and module-level functions, transitively.
    Calls into other modules or objects are not followed; the lint says "as far
    as the code can tell"."""
    methods = module.methods(cls) if cls is not None else {}
    functions = {
        n.name: n for n in module.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    seen: dict[int, FunctionNode] = {}
    pending: list[FunctionNode] = [root]
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        for call in calls(node):
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
                target = methods.get(func.attr)
            elif isinstance(func, ast.Name):
                target = functions.get(func.id)
            else:
                target = None
            if target is not None:
                pending.append(target)
    return sorted(seen.values(), key=lambda n: n.lineno)


def calls(node: ast.AST) -> Iterator[ast.Call]:
    for child in body_nodes(node):
        if isinstance(child, ast.Call):
            yield child


def body_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes a function runs when called: its body without the bodies of
    nested functions, lambdas and classes (they run only if called, e.g. in a
    worker thread through ``asyncio.to_thread``)."""
    is_def = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    pending = list(node.body) if is_def else list(ast.iter_child_nodes(node))  # type: ignore[attr-defined]
    while pending:
        child = pending.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(child))


def local_names(node: FunctionNode) -> set[str]:
    """Names bound inside a function: its parameters and assignment targets."""
    names = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    for extra in (node.args.vararg, node.args.kwarg):
        if extra is not None:
            names.add(extra.arg)
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child is not node:
            names.add(child.name)
    return names - {"self", "cls"}


def root_name(expr: ast.expr) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Subscript, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None
