"""AccessHistory: every execution attempt, who made it and how it ended, in SQLite.

Android logs successful calls for the access-history provider; here every attempt is kept,
denials included, because "who tried to call what" is what a developer checks. Each caller
keeps its newest MAX_ENTRIES_PER_CALLER attempts (Android expires entries by age instead):
a caller flooding the device pushes out only its own rows, never anyone else's, and the
table stays bounded by the number of identities, which installs bound.

A call does not wait for SQLite: ``record`` queues the entry and a writer thread commits the
queue in one transaction (a group commit), at most WRITE_DELAY after the oldest entry queued.
Every read (``entries``, the dump) and every deletion writes the queue first, so readers see
every recorded attempt; a clean shutdown (``close``) writes it too. A SIGKILL loses what is
still queued: the attempts that ended in the last WRITE_DELAY, plus one commit's duration,
before the kill (docs/reliability.md).
"""

from __future__ import annotations

import itertools
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
# Seconds an entry may wait in the queue: one commit then carries every call of that window.
WRITE_DELAY = 0.05
# A queue this long is written at once, whatever its age.
WRITE_BATCH = 512

FIELDS = "agent_package, agent_uid, target_package, function_id, access_time_ms, duration_ms, result_code, result_message"
_ROW = "(?, ?, ?, ?, ?, ?, ?, ?)"


class AccessHistory:
    def __init__(self, store: DeviceStore) -> None:
        self._store = store
        self._queue: list[tuple] = []
        self._queue_lock = threading.Lock()
        # Held from taking the queue to committing it, so batches commit in the order recorded.
        self._write_lock = threading.Lock()
        self._queued = threading.Event()
        self._closing = threading.Event()
        self._writer: threading.Thread | None = None
        # Inserts per caller since its last trim (touched by the writer only, under _write_lock).
        self._inserts_since_trim: dict[int, int] = {}

    def record(
        self,
        caller: CallingIdentity,
        target_package: str,
        function_id: str,
        access_time_ms: int,
        duration_ms: int,
        outcome: object,
    ) -> None:
        """Queue the attempt for the writer thread; the call goes on without waiting for it."""
        if isinstance(outcome, AppFunctionException):
            code, message = outcome.error_code, outcome.error_message or ""
        else:
            code, message = RESULT_SUCCESS, ""
        entry = (caller.package_name, caller.uid, target_package, function_id, access_time_ms, duration_ms,
                 code, message)
        with self._queue_lock:
            self._queue.append(entry)
            queued = len(self._queue)
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_queued, name="access-history", daemon=True)
                self._writer.start()
        if queued == 1 or queued == WRITE_BATCH:  # the window opens, or it is full
            self._queued.set()

    def _write_queued(self) -> None:
        """The writer thread: wait for a first entry, let the window fill (WRITE_DELAY, or until
        the queue is full or the history closes), commit it."""
        while not self._closing.is_set():
            self._queued.wait()
            self._queued.clear()
            # close() sets _closing before _queued: either it is seen here or it ends the wait.
            if not self._closing.is_set():
                self._queued.wait(WRITE_DELAY)
                self._queued.clear()
            self.flush()

    def flush(self) -> None:
        """Commit every queued entry now, in one transaction."""
        with self._write_lock:
            self._commit_queue()

    def _commit_queue(self) -> None:
        with self._queue_lock:
            batch, self._queue = self._queue, []
        if not batch:
            return
        with self._store.transaction() as db:
            # One statement per WRITE_BATCH rows (within SQLite's limit on parameters): executemany
            # hands the GIL back and forth with SQLite for every row, holding up other threads.
            for start in range(0, len(batch), WRITE_BATCH):
                chunk = batch[start:start + WRITE_BATCH]
                db.execute(f"INSERT INTO access_history ({FIELDS}) VALUES {', '.join([_ROW] * len(chunk))}",
                           list(itertools.chain.from_iterable(chunk)))
            for uid in self._due_for_trim(batch):
                _trim(db, uid)

    def _due_for_trim(self, batch: list[tuple]) -> list[int]:
        """The callers of ``batch`` that reached TRIM_EVERY inserts since their last trim."""
        due = []
        for entry in batch:
            uid = entry[1]
            count = self._inserts_since_trim.get(uid, 0) + 1
            self._inserts_since_trim[uid] = 0 if count >= TRIM_EVERY else count
            if count >= TRIM_EVERY:
                due.append(uid)
        return sorted(set(due))

    def close(self) -> None:
        """Stop the writer and commit what it had not (a clean shutdown loses nothing)."""
        self._closing.set()
        self._queued.set()
        if self._writer is not None:
            self._writer.join()
        self.flush()

    def entries(self, agent_uid: int | None = None) -> list[AccessHistoryEntry]:
        """Oldest first; only ``agent_uid``'s attempts when given. Queued attempts included."""
        self.flush()
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
        with self._write_lock:
            with self._queue_lock:
                self._queue = []
            with self._store.transaction() as db:
                db.execute("DELETE FROM access_history")

    def forget_package(self, package_name: str) -> None:
        """Uninstall drops the package's history as an agent and as a target, as Android does."""
        with self._write_lock:
            self._commit_queue()
            with self._store.transaction() as db:
                db.execute(
                    "DELETE FROM access_history WHERE agent_package = ? OR target_package = ?",
                    (package_name, package_name),
                )


def _trim(db: sqlite3.Connection, uid: int) -> None:
    """Drop ``uid``'s attempts beyond its newest MAX_ENTRIES_PER_CALLER; no one else's."""
    db.execute(
        "DELETE FROM access_history WHERE agent_uid = ? AND id <= (SELECT id FROM access_history "
        "WHERE agent_uid = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
        (uid, uid, MAX_ENTRIES_PER_CALLER),
    )
