"""AppWorkerBudget: how many of the device's gRPC workers installed apps may hold together.

Each call holds a worker of the device's gRPC server until it returns, and each open stream
(observing app functions, watching access changes) for as long as it is open. Each app is
bounded on its own (calls in flight, observations), but several apps each within their bounds
could still hold every worker, and the shell would wait behind them. So all app uids
together hold at most ``workers - reserved``; one more call or stream of an app is refused at
once with ERROR_LIMIT_EXCEEDED, and the reserved workers are always there for the shell, root
and the system (uids below FIRST_APPLICATION_UID), which are not counted.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from droid.appfunctions.exceptions import AppFunctionLimitExceededException
from droid.os.binder import FIRST_APPLICATION_UID, CallingIdentity

# Enough for the shell and a few tools to be served while apps hold all they may.
RESERVED_WORKERS = 32


class AppWorkerBudget:
    def __init__(self, workers: int, reserved: int = RESERVED_WORKERS) -> None:
        if not 0 < reserved < workers:
            raise ValueError(f"reserved workers must be between 1 and {workers - 1}, not {reserved}")
        self.limit = workers - reserved
        self._lock = threading.Lock()
        self._held = 0

    @contextlib.contextmanager
    def hold(self, caller: CallingIdentity) -> Iterator[None]:
        """Hold a worker for the body on behalf of ``caller``; raises when apps hold all theirs."""
        if caller.uid < FIRST_APPLICATION_UID:
            yield
            return
        with self._lock:
            if self._held >= self.limit:
                raise AppFunctionLimitExceededException(
                    f"installed apps already hold {self._held} of this device's workers, all that apps may "
                    f"hold together; {caller.package_name}'s call was refused, try again when one ends"
                )
            self._held += 1
        try:
            yield
        finally:
            with self._lock:
                self._held -= 1
