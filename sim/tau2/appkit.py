"""What the τ² apps (benchmarks/tau2/) run on: their database in the app's own storage, and calculate.

An app's state is its domain's database, kept as an SQLite file in the app's data folder
(``tau2.db``), as an Android app keeps its data: one table per collection (``orders``,
``users``...) holding one JSON record per key, in the order the data lists them, and a
``meta`` table naming the dialect (τ² or τ-bench v1). Whoever loads a case's data writes
that file (sim/tau2/storage.py builds it); the app reads and writes records through
``open_records``, one session per call.

A session reads each record once (the same dict however often a call asks for it, as
τ²'s tools hold one object per record) and, when the call ends, writes back every record
whose JSON changed, whether the call returned or raised: τ²'s tools change records in place
and some raise after changing one, which leaves that change in the database. A port that
rolled it back would score differently from the benchmark.

This module is the app side of that contract and imports nothing of the device (the apps
run it in their own processes): only the standard library and ``droid``.
"""

from __future__ import annotations

import ast
import contextlib
import json
import math
import os
import sqlite3
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterator

from droid.appfunctions import AppFunctionAppUnknownException, AppFunctionInvalidArgumentException

DATABASE_FILE = "tau2.db"
TAU2 = "tau2"
TAU_BENCH_V1 = "tau-bench-v1"


def record_text(record: Any) -> str:
    """A record as stored: JSON with sorted keys, as τ²'s hash writes it (1 and 1.0 stay apart)."""
    return json.dumps(record, sort_keys=True)


class Records:
    """One call's records; see the module docstring."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._loaded: dict[tuple[str, str], tuple[str | None, Any]] = {}  # (collection, key) -> (stored text, record)

    def dialect(self) -> str:
        row = self._connection.execute("SELECT value FROM meta WHERE name = 'dialect'").fetchone()
        return row[0] if row else TAU2

    def get(self, collection: str, key: str) -> Any | None:
        """The record, or None when the collection has no such key."""
        if (collection, key) not in self._loaded:
            row = self._connection.execute(f"SELECT record FROM {collection} WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            self._loaded[collection, key] = (row[0], json.loads(row[0]))
        return self._loaded[collection, key][1]

    def scan(self, collection: str, where: str = "", arguments: tuple = ()) -> list[tuple[str, Any]]:
        """(key, record) of every record (``where``: an SQL condition on ``key`` and ``record``), in the data's order."""
        query = f"SELECT key, record FROM {collection}{f' WHERE {where}' if where else ''} ORDER BY rowid"
        found = []
        for key, text in self._connection.execute(query, arguments):
            if (collection, key) not in self._loaded:
                self._loaded[collection, key] = (text, json.loads(text))
            found.append((key, self._loaded[collection, key][1]))
        return found

    def put(self, collection: str, key: str, record: Any) -> None:
        """The record under ``key``: a new key goes at the end of the collection's order (as a
        key added to a dict), an existing one keeps its place."""
        stored = self._loaded[collection, key][0] if self.get(collection, key) is not None else None
        self._loaded[collection, key] = (stored, record)

    def write_back(self) -> bool:
        """Store every record whose JSON changed; whether any did."""
        wrote = False
        for (collection, key), (stored, record) in self._loaded.items():
            text = record_text(record)
            if stored is None:
                self._connection.execute(f"INSERT INTO {collection} (key, record) VALUES (?, ?)", (key, text))
            elif text != stored:
                self._connection.execute(f"UPDATE {collection} SET record = ? WHERE key = ?", (text, key))
            wrote = wrote or text != stored
        return wrote


# One call at a time reads and writes the database of an app process (its calls may run on several threads).
_CALLS = threading.Lock()


@contextlib.contextmanager
def open_records(data_dir: Path, domain: str) -> Iterator[Records]:
    """A session on the app's database; what it changed is written back when the call ends,
    raised or not. The file is read whole into memory and replaced whole (a new file renamed
    over it), never opened by SQLite in place: SQLite resolves a file's path to its real name,
    which an app running under its own uid may be unable to reach (its folder is handed to it
    as /proc/self/fd/N when the folders above are closed to it)."""
    path = Path(data_dir) / DATABASE_FILE
    with _CALLS:
        try:
            image = path.read_bytes()
        except FileNotFoundError:
            raise AppFunctionAppUnknownException(
                f"No {domain} database is loaded in this app: `droidsim eval tau2` loads one from a τ² or "
                f"τ-bench data folder into {DATABASE_FILE} in the app's data folder before each case") from None
        connection = sqlite3.connect(":memory:")
        try:
            connection.deserialize(image)
            records = Records(connection)
            try:
                yield records
            finally:
                if records.write_back():
                    connection.commit()
                    _replace(path, connection.serialize())
        finally:
            connection.close()


def _replace(path: Path, data: bytes) -> None:
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


# --- calculate --------------------------------------------------------------------------------

_ARITHMETIC = frozenset("0123456789+-*/(). ")
_OPERATORS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b,
}
# Python reads these characters as arithmetic (** and // included); a power whose result
# would need more bits than this is refused rather than computed for minutes.
_MAX_POWER_BITS = 65_536


def calculate(expression: str) -> str:
    """τ²'s calculate: the characters checked, the arithmetic Python reads in them, the result
    as float rounded to 2 places (``'2 + 2'`` -> ``'4.0'``). τ² hands the text to ``eval``; this
    walks the same syntax tree, so a malformed or impossible expression fails as it does there."""
    if not all(char in _ARITHMETIC for char in expression):
        raise AppFunctionInvalidArgumentException("Invalid characters in expression")
    try:
        value = _evaluate(ast.parse(expression, mode="eval").body)
        return str(round(float(value), 2))
    except (SyntaxError, ArithmeticError, TypeError, ValueError) as error:
        raise AppFunctionInvalidArgumentException(f"Cannot calculate {expression!r}: {error}") from None


def _evaluate(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _power(_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    raise TypeError(f"{type(node).__name__} is not arithmetic")


def _power(base: Any, exponent: Any) -> Any:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if exponent * math.log2(abs(base)) > _MAX_POWER_BITS:
            raise OverflowError("the result is too large")
    return base ** exponent
