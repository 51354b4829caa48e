"""ResponseService: the AppFunctionService a code-less app runs, in the app's own process.

It answers from the package's installed response source (sim/responses/installed.py) and
refuses everything else with ERROR_NOT_SUPPORTED, naming the function and its parameters:
droidsim never makes up an answer a developer did not ask for.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from droid.appfunctions.exceptions import AppFunctionNotSupportedException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.appfunctions.service import AppFunctionService, OutcomeReceiver
from droid.os.cancellation import CancellationSignal
from sim.responses.installed import ResponseSource, read_source

log = logging.getLogger("droidsim.responses")


class ResponseService(AppFunctionService):
    """One per service of a code-less app; ``app_copy`` and ``source`` are set by
    ``service_class_for`` (the app runtime creates services without arguments)."""

    app_copy: Path
    source: ResponseSource

    def on_execute_function(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        callback.on_error(not_supported(request, self.source))


def service_class_for(app_copy: Path) -> type[ResponseService] | None:
    """The service class that answers for ``app_copy``; None for an app with code of its own."""
    source = read_source(app_copy)
    if source is None:
        return None
    return type("ResponseService", (ResponseService,), {"app_copy": app_copy, "source": source})


def not_supported(request: ExecuteAppFunctionRequest, source: ResponseSource) -> AppFunctionNotSupportedException:
    parameters = json.dumps(to_json(request.parameters), sort_keys=True, ensure_ascii=False)
    return AppFunctionNotSupportedException(
        f"{request.target_package_name} has no answer for {request.function_identifier} with parameters "
        f"{parameters}: the app's own code does not run on droidsim, and its response source ({source.describe()}) "
        "has none (docs/responses.md)"
    )
