"""DeviceStore: the device's durable state in one SQLite file.

Every acknowledged change is committed before the call returns (WAL, so a
SIGKILL never loses it), and each change is one transaction, so a crash leaves
either all of it or none.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS packages (
    package_name TEXT PRIMARY KEY,
    uid INTEGER NOT NULL UNIQUE,
    app_dir TEXT NOT NULL,
    system INTEGER NOT NULL,
    source_hash TEXT NOT NULL,
    credential_hash TEXT NOT NULL,
    manifest BLOB NOT NULL,
    metadata BLOB NOT NULL,
    installed_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS enabled_overrides (
    package_name TEXT NOT NULL,
    function_id TEXT NOT NULL,
    state INTEGER NOT NULL,
    PRIMARY KEY (package_name, function_id)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- Runtime (dangerous) permissions granted with `pm grant`; install-time grants are derived
-- from the manifest and the package's privileged status, as Android recomputes them at boot.
CREATE TABLE IF NOT EXISTS runtime_permissions (
    package_name TEXT NOT NULL,
    permission TEXT NOT NULL,
    PRIMARY KEY (package_name, permission)
);
-- Agent access flags per (agent, target) pair (AppIdAppFunctionAccessPolicy's state).
CREATE TABLE IF NOT EXISTS access_flags (
    agent_package TEXT NOT NULL,
    target_package TEXT NOT NULL,
    flags INTEGER NOT NULL,
    PRIMARY KEY (agent_package, target_package)
);
-- Every execution attempt; result_code 0 is success, else the AppFunctionException code.
CREATE TABLE IF NOT EXISTS access_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_package TEXT NOT NULL,
    agent_uid INTEGER NOT NULL,
    target_package TEXT NOT NULL,
    function_id TEXT NOT NULL,
    access_time_ms INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    result_code INTEGER NOT NULL,
    result_message TEXT NOT NULL
);
-- Retention is per caller (sim/appfunctions/access_history.py).
CREATE INDEX IF NOT EXISTS access_history_by_agent_uid ON access_history (agent_uid, id);
"""


# The tables besides ``packages`` whose rows belong to a package, by their package columns.
PACKAGE_COLUMNS = {
    "enabled_overrides": ("package_name",),
    "runtime_permissions": ("package_name",),
    "access_flags": ("agent_package", "target_package"),
    "access_history": ("agent_package", "target_package"),
}


@dataclass(frozen=True)
class PackageRow:
    package_name: str
    uid: int
    app_dir: str
    system: bool
    source_hash: str
    credential_hash: str
    manifest: bytes
    metadata: bytes
    installed_at: float


class DeviceStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic change; concurrent callers queue on the lock, none is lost."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # packages
    def packages(self) -> list[PackageRow]:
        rows = self.query(
            "SELECT package_name, uid, app_dir, system, source_hash, credential_hash, manifest, "
            "metadata, installed_at FROM packages ORDER BY package_name"
        )
        return [PackageRow(r[0], r[1], r[2], bool(r[3]), *r[4:]) for r in rows]

    def put_package(self, db: sqlite3.Connection, row: PackageRow) -> None:
        db.execute(
            "INSERT OR REPLACE INTO packages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.package_name, row.uid, row.app_dir, int(row.system), row.source_hash,
             row.credential_hash, row.manifest, row.metadata, row.installed_at),
        )

    def delete_package(self, db: sqlite3.Connection, package_name: str) -> None:
        """Every row about a package, in the caller's transaction: an uninstall cut short by a
        crash leaves no grant, flag or history for a later install of the name to inherit."""
        db.execute("DELETE FROM packages WHERE package_name = ?", (package_name,))
        for table, columns in PACKAGE_COLUMNS.items():
            where = " OR ".join(f"{column} = ?" for column in columns)
            db.execute(f"DELETE FROM {table} WHERE {where}", (package_name,) * len(columns))

    def next_uid(self, db: sqlite3.Connection, first: int) -> int:
        (highest,) = db.execute("SELECT MAX(uid) FROM packages").fetchone()
        return max(first, (highest or 0) + 1)

    # enabled state
    def enabled_overrides(self) -> dict[tuple[str, str], int]:
        rows = self.query("SELECT package_name, function_id, state FROM enabled_overrides")
        return {(pkg, fn): state for pkg, fn, state in rows}

    # settings
    def setting(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def put_setting(self, key: str, value: str | None) -> None:
        with self.transaction() as db:
            if value is None:
                db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def close(self) -> None:
        with self._lock:
            self._db.close()
