"""android.os.CancellationSignal: a caller's way to give up on a call in flight."""

from __future__ import annotations

import threading
from typing import Callable

from droid.os.exceptions import OperationCanceledException


class CancellationSignal:
    """Cancel once; every listener set before or after the cancel runs exactly once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._listeners: list[Callable[[], None]] = []

    @property
    def is_canceled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with self._lock:
            if self._cancelled:
                return
            self._cancelled = True
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener()

    def set_on_cancel_listener(self, listener: Callable[[], None]) -> None:
        """Android keeps one listener; a remote and a local party may both listen here."""
        with self._lock:
            if not self._cancelled:
                self._listeners.append(listener)
                return
        listener()

    def throw_if_canceled(self) -> None:
        if self._cancelled:
            raise OperationCanceledException("The operation has been canceled.")
