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

This module is the app side of that contract, with what both apps declare alike (a person's
name, calculate), and imports nothing of the device (the apps run it in their own processes):
only the standard library and ``droid``.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import json
import math
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from droid.appfunctions import (
    AppFunctionAppUnknownException,
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    app_function_serializable,
)

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

    def require(self, collection: str, key: str, what: str) -> Any:
        """The record, or ``AppFunctionElementNotFoundException`` naming it (``what``: User, Order...)."""
        record = self.get(collection, key)
        if record is None:
            raise AppFunctionElementNotFoundException(f"{what} {key} not found")
        return record

    def scan(self, collection: str, where: str = "", arguments: tuple = ()) -> list[tuple[str, Any]]:
        """(key, record) of the collection's records, in the data's order; ``where``: an SQL condition
        on the columns the loader indexed (``origin``, ``destination`` of flights: storage.py)."""
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
# The databases this process read last, in memory, by path: reused while the file is the one read
# (or written) then, as a reset replaces it with another file. A few: tests run many devices in one process.
_OPEN: "collections.OrderedDict[str, tuple[tuple, sqlite3.Connection]]" = collections.OrderedDict()
_OPEN_MAX = 4


@contextlib.contextmanager
def open_records(data_dir: Path, domain: str, *, writes: bool) -> Iterator[Records]:
    """A session on the app's database. A function that ``writes`` (τ²'s write tools) has what it
    changed written back when it ends, raised or not; one that reads (τ²'s read tools, which change
    nothing) writes nothing back, and is spared comparing every record it read. The file is read whole into memory and replaced whole (a new file renamed
    over it), never opened by SQLite in place: SQLite resolves a file's path to its real name,
    which an app running under its own uid may be unable to reach (its folder is handed to it
    as /proc/self/fd/N when the folders above are closed to it)."""
    path = Path(data_dir) / DATABASE_FILE
    with _CALLS:
        connection = _connection(path, domain)
        records = Records(connection)
        try:
            yield records
        finally:
            try:
                if writes and records.write_back():
                    connection.commit()
                    _replace(path, connection.serialize())
                _keep(path, connection)
            except BaseException:
                _OPEN.pop(str(path), None)
                raise


def _identity(path: Path) -> tuple:
    status = path.stat()
    return status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


def _connection(path: Path, domain: str) -> sqlite3.Connection:
    try:
        identity = _identity(path)
        kept = _OPEN.get(str(path))
        if kept is not None and kept[0] == identity:
            return kept[1]
        image = path.read_bytes()
    except FileNotFoundError:
        raise AppFunctionAppUnknownException(
            f"No {domain} database is loaded in this app: `droidsim eval tau2` loads one from a τ² or "
            f"τ-bench data folder into {DATABASE_FILE} in the app's data folder before each case") from None
    connection = sqlite3.connect(":memory:", check_same_thread=False)
    connection.deserialize(image)
    return connection


def _keep(path: Path, connection: sqlite3.Connection) -> None:
    _OPEN[str(path)] = (_identity(path), connection)
    _OPEN.move_to_end(str(path))
    while len(_OPEN) > _OPEN_MAX:
        _OPEN.popitem(last=False)


def _replace(path: Path, data: bytes) -> None:
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class PersonName:
    """A person's name (named in each app's own namespace, as every type of its functions).

    Attributes:
        first_name: The first name.
        last_name: The last name.
    """

    first_name: str
    last_name: str

    @classmethod
    def of(cls, record: dict[str, str]) -> "PersonName":
        return cls(record["first_name"], record["last_name"])


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
