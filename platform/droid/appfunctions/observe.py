"""Observing app functions: AppFunctionManager.observe_app_functions, as on Android.

The observer hears about changes after it registers, never before:
``on_app_function_metadata_changed(package_names)`` when packages it may see are installed,
updated or uninstalled, and ``on_app_function_states_changed(function_names)`` when functions
it may see are enabled or disabled. It then searches again for what it needs, as Android's
example flow does. Callbacks run on the caller's executor, never on the device's threads.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from droid.appfunctions.requests import AppFunctionName
from droidsim.v1.app_function_observer_pb2 import AppFunctionChangeEvent

# Android's Executor is one method, execute(Runnable): here any callable that runs a
# zero-argument callable later, e.g. loop.call_soon_threadsafe or ThreadPoolExecutor().submit.
Executor = Callable[[Callable[[], None]], Any]


class AppFunctionObserver(Protocol):
    def on_app_function_metadata_changed(self, package_names: set[str]) -> None: ...

    def on_app_function_states_changed(self, function_names: set[AppFunctionName]) -> None: ...


class AppFunctionObservation:
    """What observe_app_functions returns: ``cancel()`` ends the observation (idempotent)."""

    def __init__(self, cancel: Callable[[], None]) -> None:
        self._cancel = cancel
        self._cancelled = False

    def cancel(self) -> None:
        if not self._cancelled:
            self._cancelled = True
            self._cancel()


def dispatcher(executor: Executor, observer: AppFunctionObserver) -> Callable[[AppFunctionChangeEvent], None]:
    """The binder callback: each event, turned into one observer call run on ``executor``."""

    def deliver(event: AppFunctionChangeEvent) -> None:
        kind = event.WhichOneof("change")
        if kind == "packages_changed":
            names = set(event.packages_changed.package_names)
            executor(lambda: observer.on_app_function_metadata_changed(names))
        elif kind == "states_changed":
            functions = {
                AppFunctionName(f.package_name, f.function_identifier) for f in event.states_changed.function_names
            }
            executor(lambda: observer.on_app_function_states_changed(functions))

    return deliver
