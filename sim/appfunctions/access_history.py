"""AccessHistory: every execution attempt, who made it and how it ended, in SQLite.

Android logs successful calls for the access-history provider; here every attempt is kept,
denials included, because "who tried to call what" is what a developer checks. The newest
MAX_ENTRIES are kept (Android expires entries by age instead).
"""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException
from droid.os.binder import CallingIdentity
from droidsim.v1.app_function_manager_pb2 import AccessHistoryEntry
from sim.data.store import DeviceStore

RESULT_SUCCESS = 0
MAX_ENTRIES = 10_000
# Trimming costs a statement, so it runs once every this many inserts.
TRIM_EVERY = 100

FIELDS = "agent_package, agent_uid, target_package, function_id, access_time_ms, duration_ms, result_code, result_message"


class AccessHistory:
    def __init__(self, store: DeviceStore) -> None:
        self._store = store

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
            cursor = db.execute(
                f"INSERT INTO access_history ({FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (caller.package_name, caller.uid, target_package, function_id, access_time_ms, duration_ms,
                 code, message),
            )
            if cursor.lastrowid % TRIM_EVERY == 0:
                db.execute("DELETE FROM access_history WHERE id <= ?", (cursor.lastrowid - MAX_ENTRIES,))

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
