"""Stand-ins for CTS's TestAppFunctionService and TestAppFunctionService2: each answers any
function with its own class name and the function id, so a case sees which service a call bound."""

from __future__ import annotations

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse


class _NamesItself(AppFunctionService):
    IDS: frozenset[str] = frozenset()

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        callback.on_result(ExecuteAppFunctionResponse.of(f"{type(self).__name__}:{request.function_identifier}"))


class TestAppFunctionService(_NamesItself):
    IDS = frozenset({"add"})


class TestAppFunctionService2(_NamesItself):
    IDS = frozenset({"echo"})
