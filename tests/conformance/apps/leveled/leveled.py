"""The leveled app's service: one noOp per access level, so the conformance suite can see who
the device lets through to each level (it answers with the calling package it was given)."""

from __future__ import annotations

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse


class LeveledAppFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({"noOp_accessLevelSelf", "noOp_accessLevelSystem", "noOp_accessLevelAndroidTrusted"})

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        callback.on_result(ExecuteAppFunctionResponse.of(calling_package))
