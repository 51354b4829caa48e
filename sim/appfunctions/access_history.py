"""AccessHistory: every execution attempt, who made it and how it ended, in SQLite.

Android logs successful calls for the access-history provider; here every attempt is kept,
denials included, because "who tried to call what" is what a developer checks. Each caller
keeps its newest MAX_ENTRIES_PER_CALLER attempts (Android expires entries by age instead):
a caller flooding the device pushes out only its own rows, never anyone else's, and the
table stays bounded by the number of identities, which installs bound.
"""

from __future__ import annotations

import sqlite3
import threading

from droid.appfunctions.exceptions import AppFunctionException
from droid.os.binder import CallingIdentity
from droidsim.v1.app_function_manager_pb2 import AccessHistoryEntry
from sim.data.store import DeviceStore

RESULT_SUCCESS = 0
MAX_ENTRIES_PER_CALLER = 2_000
# Trimming costs a statement, so it runs once every this many inserts by one caller.
TRIM_EVERY = 100

FIELDS = "agent_package, agent_uid, target_package, function_id, access_time_ms, duration_ms, result_code, result_message"


class AccessHistory:
    def __init__(self, store: DeviceStore) -> None:
        self._store = store
        self._inserts_since_trim: dict[int, int] = {}
        self._lock = threading.Lock()

    def _due_for_trim(self, uid: int) -> bool:
        with self._lock:
            count = self._inserts_since_trim.get(uid, 0) + 1
            self._inserts_since_trim[uid] = 0 if count >= TRIM_EVERY else count
        return count >= TRIM_EVERY

    def record(
        self,
        caller: CallingIdentity,
        target_package: str,
        function_id: str,
        access_time_ms: int,
        duration_ms: int,
        outcome: object,
    ) -> None:
        if isinstance(outcome, AppFunctionException):
            code, message = outcome.error_code, outcome.error_message or ""
        else:
            code, message = RESULT_SUCCESS, ""
        with self._store.transaction() as db:
            db.execute(
                f"INSERT INTO access_history ({FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (caller.package_name, caller.uid, target_package, function_id, access_time_ms, duration_ms,
                 code, message),
            )
            if self._due_for_trim(caller.uid):
                _trim(db, caller.uid)

    def entries(self, agent_uid: int | None = None) -> list[AccessHistoryEntry]:
        """Oldest first; only ``agent_uid``'s attempts when given."""
        where, args = ("WHERE agent_uid = ?", (agent_uid,)) if agent_uid is not None else ("", ())
        rows = self._store.query(f"SELECT id, {FIELDS} FROM access_history {where} ORDER BY id", args)
        return [
            AccessHistoryEntry(
                id=r[0], agent_package_name=r[1], agent_uid=r[2], target_package_name=r[3],
                function_identifier=r[4], access_time_millis=r[5], duration_millis=r[6],
                result_code=r[7], result_message=r[8],
            )
            for r in rows
        ]

    def clear(self) -> None:
        with self._store.transaction() as db:
            db.execute("DELETE FROM access_history")

    def forget_package(self, package_name: str) -> None:
        """Uninstall drops the package's history as an agent and as a target, as Android does."""
        with self._store.transaction() as db:
            db.execute(
                "DELETE FROM access_history WHERE agent_package = ? OR target_package = ?", (package_name, package_name)
            )


def _trim(db: sqlite3.Connection, uid: int) -> None:
    """Drop ``uid``'s attempts beyond its newest MAX_ENTRIES_PER_CALLER; no one else's."""
    db.execute(
        "DELETE FROM access_history WHERE agent_uid = ? AND id <= (SELECT id FROM access_history "
        "WHERE agent_uid = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
        (uid, uid, MAX_ENTRIES_PER_CALLER),
    )
