"""CallsInFlight: how many calls each app may have running at once.

An app with no permissions at all can still call: into functions it may reach, or into
nothing, to be denied. Without a bound, one app calling a slow function from many threads
would hold every worker of the device and freeze it for everyone. Each app uid gets
``CallLimits.max_calls_in_flight``; a call beyond it is refused at once with
ERROR_LIMIT_EXCEEDED, so the app's excess never queues ahead of other apps or the shell.
The shell, root and the system (uids below FIRST_APPLICATION_UID) are not counted.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from droid.appfunctions.exceptions import AppFunctionLimitExceededException
from droid.os.binder import FIRST_APPLICATION_UID, CallingIdentity


class CallsInFlight:
    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._counts: dict[int, int] = {}

    @contextlib.contextmanager
    def slot(self, caller: CallingIdentity) -> Iterator[AppFunctionLimitExceededException | None]:
        """Hold one of the caller's slots for the body; yields the refusal when none is free."""
        if caller.uid < FIRST_APPLICATION_UID:
            yield None
            return
        with self._lock:
            running = self._counts.get(caller.uid, 0)
            if running >= self._limit:
                refusal = AppFunctionLimitExceededException(
                    f"{caller.package_name} already has {running} calls in flight, this device's limit per "
                    "app (droidsim device start --max-calls-in-flight)"
                )
            else:
                refusal = None
                self._counts[caller.uid] = running + 1
        if refusal is not None:
            yield refusal
            return
        try:
            yield None
        finally:
            with self._lock:
                left = self._counts[caller.uid] - 1
                if left:
                    self._counts[caller.uid] = left
                else:
                    del self._counts[caller.uid]
