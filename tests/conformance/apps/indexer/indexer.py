"""The indexer conformance app's services: each answers with its own class name and the text,
so a case sees which service a call bound (implemented_function_ids is the base's None: any id)."""

from __future__ import annotations

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse


class EchoService(AppFunctionService):
    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        text = request.parameters.get_string("text") or ""
        callback.on_result(ExecuteAppFunctionResponse.of(f"{type(self).__name__}:{text}"))


class UnboundService(EchoService):
    """Declared by a case without android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"."""
