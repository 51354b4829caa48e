"""PendingCall: one call in flight, and the hand-off of its outcome to the thread waiting for it."""

from __future__ import annotations

import threading
from typing import Callable

from sim.zygote.runtime import Outcome


class PendingCall:
    """The first outcome wins, whoever delivers it (the app, a cancellation, a death).

    The waiting thread sleeps on a lock released once, the cheapest wake-up CPython has (a
    ``concurrent.futures.Future`` costs a condition variable and a second lock). It is woken
    either with its outcome or, by a ReplyChannel, with the job of reading the app's socket
    (``promote``): one release either way, decided under ``_mutex``.
    """

    __slots__ = ("app_done", "outcome", "interrupt", "_mutex", "_ready", "_woken")

    def __init__(self) -> None:
        self.app_done = False  # the app (or its death) has answered, cancelled or not
        self.outcome: Outcome | None = None
        # Set while the waiting thread reads the socket itself: a settle from outside
        # (a cancellation, a death) must wake it from that read, not from the lock.
        self.interrupt: Callable[[], None] | None = None
        self._mutex = threading.Lock()
        self._ready = threading.Lock()
        self._ready.acquire()
        self._woken = False

    def deliver(self, outcome: Outcome) -> None:
        """The app's outcome (or its process's death)."""
        self.app_done = True
        self.settle(outcome)

    def settle(self, outcome: Outcome) -> bool:
        """Give the caller ``outcome`` unless it has one already; whether it was the first."""
        with self._mutex:
            if self.outcome is not None:
                return False
            self.outcome = outcome
            wake, self._woken = not self._woken, True
        if wake:
            self._ready.release()
        interrupt = self.interrupt
        if interrupt is not None:
            interrupt()
        return True

    def promote(self) -> bool:
        """Wake the waiting thread without an outcome, to take over reading; False if it had one."""
        with self._mutex:
            if self._woken:
                return False
            self._woken = True
        self._ready.release()
        return True

    def wait(self) -> Outcome | None:
        """The outcome, or None when woken by ``promote`` (a settle after that wakes a later wait)."""
        self._ready.acquire()
        with self._mutex:
            if self.outcome is None:
                self._woken = False
            return self.outcome
