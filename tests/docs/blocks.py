"""The code blocks of README.md and docs/*.md, and how each is checked.

The convention (docs/testing.md, "The documentation's own examples"):

- a ``python`` block runs; the python blocks of one file run in order in one namespace,
  so a later block may use what an earlier one defined (as a reader who pastes them does);
- a ``python`` block after ``<!-- pytest -->`` is a test module: pytest runs it, and every
  test in it must pass;
- each command of a ``sh`` block runs: ``droidsim ...`` (or ``.venv/bin/droidsim``) against a
  device the harness boots as ``make sim`` does, and must exit 0; ``make TARGET`` must name
  a target of the Makefile; ``python -m MODULE --option`` must name options MODULE has;
- a block after ``<!-- fragment: REASON -->`` is not run: an excerpt, a synopsis with
  placeholders, output. The reason is required;
- blocks in other languages (json, xml, output without a language) are not run, but an
  untagged block that holds a droidsim, make or python command is refused: tag it ``sh``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

RUN_LANGUAGES = {"python": "python", "py": "python", "sh": "sh", "bash": "sh", "shell": "sh", "console": "sh"}
_FENCE = re.compile(r"^(?P<indent> {0,3})```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!--\s*(?P<kind>fragment|pytest)\s*(?::\s*(?P<reason>.*?))?\s*-->\s*$")
_ANY_MARKER = re.compile(r"<!--\s*(fragment|pytest)\b")
_COMMAND_WORDS = ("droidsim", ".venv/bin/droidsim", "make", "python", ".venv/bin/python", "pytest")


class DocConventionError(ValueError):
    """A block breaks the convention; the message names the file and line."""


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence
    language: str  # "python", "sh", or what the fence says
    source: str
    kind: str  # "run", "pytest", "fragment" or "text"
    reason: str = ""

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"


def read_blocks(path: Path) -> list[Block]:
    text = path.read_text()
    blocks = []
    for match in _FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        language = RUN_LANGUAGES.get(match["lang"].lower(), match["lang"].lower())
        body = match["body"]
        marker = _MARKER.search(before)
        if marker is None and _ANY_MARKER.search(before):
            raise DocConventionError(f"{path.name}:{line}: malformed marker {before.strip()!r}")
        if marker is not None and marker["kind"] == "fragment":
            if not (marker["reason"] or "").strip():
                raise DocConventionError(f"{path.name}:{line}: a fragment marker needs a reason: <!-- fragment: WHY -->")
            blocks.append(Block(path, line, language, body, "fragment", marker["reason"].strip()))
        elif marker is not None:  # pytest
            if language != "python":
                raise DocConventionError(f"{path.name}:{line}: <!-- pytest --> marks a python block, not {language!r}")
            blocks.append(Block(path, line, language, body, "pytest"))
        elif language in ("python", "sh"):
            blocks.append(Block(path, line, language, body, "run"))
        else:
            if not match["lang"] and _looks_like_commands(body):
                raise DocConventionError(
                    f"{path.name}:{line}: an untagged block holds commands: tag it ```sh (or mark it a fragment)"
                )
            blocks.append(Block(path, line, language, body, "text"))
    return blocks


def _looks_like_commands(body: str) -> bool:
    return any(line.split(" ", 1)[0] in _COMMAND_WORDS for line in body.splitlines() if line.strip())


def _words(line: str) -> list[str]:
    """shlex's words up to a comment; a ``#`` inside a word (a function id) is no comment."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split, lexer.commenters = True, ""
    words = []
    for word in lexer:
        if word.startswith("#"):
            break
        words.append(word)
    return words


def commands(block: Block) -> list[tuple[int, list[str]]]:
    """Each command of a sh block as argv, with its line in the file; continuations joined,
    comments dropped."""
    found, pending, start = [], "", 0
    for offset, raw in enumerate(block.source.splitlines()):
        if not pending:
            start = block.line + 1 + offset
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        argv = _words(pending + raw)
        pending = ""
        if argv:
            found.append((start, argv))
    return found
