"""ResponseService: the AppFunctionService a code-less app runs, in the app's own process.

It answers from the package's installed response source (sim/responses/installed.py): the
cassette's recorded outcome when one matches the call, else the double, else what --on-miss
says: ERROR_NOT_SUPPORTED naming the function and its parameters (droidsim never makes up an
answer nobody asked for), or, only when asked, a value generated from the schema and marked
so in the response extras and in logcat.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionNotSupportedException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.metadata import AppFunctionMetadata, AppFunctionPackageMetadata
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.appfunctions.service import AppFunctionService, OutcomeReceiver
from droid.os.cancellation import CancellationSignal
from sim.responses.cassette import Cassette
from sim.responses.generated import GENERATED_EXTRA, GENERATED_NOTE, generated_response
from sim.responses.installed import (
    CASSETTE_FILE,
    DOUBLE_DIR,
    METADATA_FILE,
    ON_MISS_SCHEMA,
    ResponseSource,
    read_source,
    responses_dir,
)

log = logging.getLogger("droidsim.responses")
# The extra that marks a refusal for want of an answer, so that a caller (sim.testing's
# NoAnswerError) tells it from an ERROR_NOT_SUPPORTED the app itself answered; its value is
# the response source, in words.
NO_ANSWER_EXTRA = "droidsimNoAnswer"


class ResponseService(AppFunctionService):
    """One per service of a code-less app; the class attributes are set by
    ``service_class_for`` (the app runtime creates services without arguments)."""

    app_copy: Path
    service_name: str
    source: ResponseSource

    def on_create(self) -> None:
        folder = responses_dir(self.app_copy)
        self._metadata = AppFunctionPackageMetadata.FromString((folder / METADATA_FILE).read_bytes())
        self._cassette = (
            Cassette.read(folder / CASSETTE_FILE, self._metadata, self.source.cassette) if self.source.cassette else None
        )
        self._double: AppFunctionService | None = None
        if self.source.double:
            self._double = load_app_service_class(folder / DOUBLE_DIR, self.service_name)()
            self._double.context = self.context
            self._double.on_create()

    def on_destroy(self) -> None:
        if self._double is not None:
            self._double.on_destroy()

    def on_execute_function(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        recorded = self._cassette.answer(request.function_identifier, request.parameters) if self._cassette else None
        if isinstance(recorded, AppFunctionException):
            callback.on_error(recorded)
        elif recorded is not None:
            callback.on_result(recorded)
        elif self._double is not None:
            self._double.on_execute_function(request, calling_package, cancellation_signal, callback)
        elif self.source.on_miss == ON_MISS_SCHEMA and (function := self._declared(request.function_identifier)) is not None:
            callback.on_result(self._generated(request, function))
        else:
            callback.on_error(not_supported(request, self.source))

    def _declared(self, function_id: str) -> AppFunctionMetadata | None:
        return next((f for f in self._metadata.app_functions if f.id == function_id), None)

    def _generated(self, request: ExecuteAppFunctionRequest, function: AppFunctionMetadata) -> ExecuteAppFunctionResponse:
        log.warning("%s: %s with parameters %s: %s", request.target_package_name, request.function_identifier,
                    _parameters_text(request.parameters), GENERATED_NOTE)
        response = generated_response(function, self._metadata)
        return ExecuteAppFunctionResponse(response.result_document, AppFunctionData({GENERATED_EXTRA: GENERATED_NOTE}))


def service_class_for(app_copy: Path, service_name: str) -> type[ResponseService] | None:
    """The service class that answers for ``app_copy``; None for an app with code of its own."""
    source = read_source(app_copy)
    if source is None:
        return None
    attributes = {"app_copy": app_copy, "service_name": service_name, "source": source}
    return type("ResponseService", (ResponseService,), attributes)


def not_supported(request: ExecuteAppFunctionRequest, source: ResponseSource) -> AppFunctionNotSupportedException:
    return AppFunctionNotSupportedException(
        f"{request.target_package_name} has no answer for {request.function_identifier} with parameters "
        f"{_parameters_text(request.parameters)}: the app's own code does not run on droidsim, and its response "
        f"source ({source.describe()}) has none (docs/responses.md)",
        extras={NO_ANSWER_EXTRA: source.describe()},
    )


def _parameters_text(parameters: AppFunctionData) -> str:
    return json.dumps(to_json(parameters), sort_keys=True, ensure_ascii=False)
