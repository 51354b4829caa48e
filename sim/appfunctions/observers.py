"""AppFunctionObservers: who observes app functions, and telling them what changed.

The index reports every change (install, update, uninstall; an enabled state that flips);
each observer hears only about packages and functions it may see, with the same discovery
rule search uses, so observing reveals nothing a search would not. Each open observation
holds a gRPC worker thread of the device, so one uid may hold only a few.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Iterable

from droid.os.binder import CallingIdentity
from droid.os.exceptions import IllegalStateException
from droidsim.v1.app_function_observer_pb2 import AppFunctionChangeEvent, ObservedAppFunctionNames, ObservedPackageNames
from droidsim.v1.metadata_pb2 import AppFunctionName
from sim.appfunctions.caller_validator import CallerValidator
from sim.appfunctions.index import FunctionIndex

log = logging.getLogger("droidsim.app_function")

MAX_OBSERVERS_PER_UID = 4

Deliver = Callable[[AppFunctionChangeEvent], None]


class AppFunctionObservers:
    def __init__(self, validator: CallerValidator, index: FunctionIndex) -> None:
        self._validator = validator
        self._index = index
        self._lock = threading.Lock()
        self._observers: dict[object, tuple[CallingIdentity, Deliver]] = {}

    def register(self, caller: CallingIdentity, deliver: Deliver) -> Callable[[], None]:
        """Start telling ``caller`` about changes; returns the (idempotent) unregister."""
        token = object()
        with self._lock:
            held = sum(1 for identity, _ in self._observers.values() if identity.uid == caller.uid)
            if held >= MAX_OBSERVERS_PER_UID:
                raise IllegalStateException(
                    f"{caller.package_name} already observes app functions {held} times "
                    f"(at most {MAX_OBSERVERS_PER_UID}); cancel an observation first"
                )
            self._observers[token] = (caller, deliver)

        def unregister() -> None:
            with self._lock:
                self._observers.pop(token, None)

        return unregister

    def packages_changed(self, package_names: Iterable[str]) -> None:
        names = list(package_names)
        for caller, deliver in self._snapshot():
            visible = [n for n in names if self._validator.discovery_reach(caller, n) is not None]
            if visible:
                _send(deliver, AppFunctionChangeEvent(packages_changed=ObservedPackageNames(package_names=visible)))

    def states_changed(self, functions: Iterable[tuple[str, str]]) -> None:
        keys = list(functions)
        for caller, deliver in self._snapshot():
            visible = []
            for package_name, function_id in keys:
                indexed = self._index.lookup(package_name, function_id)
                reach = self._validator.discovery_reach(caller, package_name)
                if indexed is not None and self._validator.permits(reach, indexed.metadata):
                    visible.append(AppFunctionName(package_name=package_name, function_identifier=function_id))
            if visible:
                _send(deliver, AppFunctionChangeEvent(states_changed=ObservedAppFunctionNames(function_names=visible)))

    def _snapshot(self) -> list[tuple[CallingIdentity, Deliver]]:
        with self._lock:
            return list(self._observers.values())


def _send(deliver: Deliver, event: AppFunctionChangeEvent) -> None:
    try:
        deliver(event)
    except Exception:  # one broken observer must not stop an install or the others
        log.exception("an app function observer failed")
