"""ResponseService: the AppFunctionService a code-less app runs, in the app's own process.

It answers from the package's installed response source (sim/responses/installed.py): the
cassette's recorded outcome when one matches the call, else the double (its class for the
function's ``@AppFunction`` class, whichever service was bound), else what --on-miss
says: ERROR_NOT_SUPPORTED naming the function and its parameters (droidsim never makes up an
answer nobody asked for), or, only when asked, a value generated from the schema and marked
so in the response extras and in logcat.
"""

from __future__ import annotations

import json
import logging
import traceback
from pathlib import Path

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import (
    AppFunctionAppUnknownException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionNotSupportedException,
)
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.kotlin_strings import missing_parameter_message
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.metadata import AppFunctionMetadata, AppFunctionPackageMetadata
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.appfunctions.service import AppFunctionService, OutcomeReceiver
from droid.os.cancellation import CancellationSignal
from sim.responses.cassette import Cassette, typed_parameters
from sim.responses.doubles import double_class
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
    """One per bound service of a code-less app; the class attributes are set by
    ``service_class_for`` (the app runtime creates services without arguments)."""

    app_copy: Path
    service_name: str  # the service the call bound
    source: ResponseSource

    def on_create(self) -> None:
        folder = responses_dir(self.app_copy)
        self._metadata = AppFunctionPackageMetadata.FromString((folder / METADATA_FILE).read_bytes())
        self._cassette = (
            Cassette.read(folder / CASSETTE_FILE, self._metadata, self.source.cassette) if self.source.cassette else None
        )
        self._doubles: dict[str, AppFunctionService] = {}

    def on_destroy(self) -> None:
        for double in self._doubles.values():
            double.on_destroy()

    def _double_for(self, function: AppFunctionMetadata | None) -> AppFunctionService | None:
        """The double's class for this function (sim/responses/doubles.py), created at its first call."""
        if not self.source.double or function is None:
            return None
        class_name = double_class(function)
        double = self._doubles.get(class_name)
        if double is None:
            double = load_app_service_class(responses_dir(self.app_copy) / DOUBLE_DIR, class_name)()
            double.context = self.context
            double.on_create()
            self._doubles[class_name] = double
        return double

    def on_execute_function(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        function = self._declared(request.function_identifier)
        if function is not None and function.service_name != self.service_name:
            # Android 16 binds a package's first service whatever declared the function; the
            # app's code of that service does not know it (lint R1), as an entry point here.
            callback.on_error(AppFunctionFunctionNotFoundException(
                f"{self.service_name} has no function {request.function_identifier!r}"))
            return
        try:
            parameters = self._typed(function, request.parameters)
        except AppFunctionInvalidArgumentException as error:
            callback.on_error(error)
            return
        recorded = self._cassette.answer(request.function_identifier, parameters) if self._cassette else None
        if isinstance(recorded, AppFunctionException):
            callback.on_error(recorded)
        elif recorded is not None:
            callback.on_result(recorded)
        elif (double := self._double_for(function)) is not None:
            double.on_execute_function(request, calling_package, cancellation_signal,
                                       _DoubleOutcome(callback, request.function_identifier,
                                                      responses_dir(self.app_copy) / DOUBLE_DIR, self.source.double or ""))
        elif self.source.on_miss == ON_MISS_SCHEMA and function is not None:
            callback.on_result(self._generated(request, function))
        else:
            callback.on_error(not_supported(request, self.source))

    def _typed(self, function: AppFunctionMetadata | None, parameters: AppFunctionData) -> AppFunctionData:
        """The parameters as the function declares them, as the app's generated code reads them
        before any of its own runs: a wrongly typed, missing or null value is ERROR_INVALID_ARGUMENT
        whatever answers. A property that is no parameter is ignored, as Jetpack's dispatcher does."""
        if function is None:
            return parameters
        declared = {p.name for p in function.parameters}
        values = {name: value for name, value in to_json(parameters).items() if name in declared}
        for parameter in function.parameters:  # refused in androidx's words, as its dispatcher does
            if parameter.name not in values and parameter.is_required and not parameter.data_type.is_nullable:
                raise AppFunctionInvalidArgumentException(missing_parameter_message(parameter.name, parameter.data_type))
        return typed_parameters(function, values, self._metadata, "")

    def _declared(self, function_id: str) -> AppFunctionMetadata | None:
        return next((f for f in self._metadata.app_functions if f.id == function_id), None)

    def _generated(self, request: ExecuteAppFunctionRequest, function: AppFunctionMetadata) -> ExecuteAppFunctionResponse:
        log.warning("%s: %s with parameters %s: %s", request.target_package_name, request.function_identifier,
                    _parameters_text(request.parameters), GENERATED_NOTE)
        response = generated_response(function, self._metadata)
        return ExecuteAppFunctionResponse(response.result_document, AppFunctionData({GENERATED_EXTRA: GENERATED_NOTE}))


class _DoubleOutcome:
    """The double's outcome, passed on; an exception the double raised (ERROR_APP_UNKNOWN_ERROR)
    names the function and the place in the double's own files, and the log has its traceback."""

    logs_failures = True  # the entry point leaves the traceback to on_error, which names the double's files

    def __init__(self, callback: OutcomeReceiver, function_id: str, double_dir: Path, double_name: str) -> None:
        self._callback, self._function_id, self._dir, self._name = callback, function_id, double_dir, double_name

    def on_result(self, result: ExecuteAppFunctionResponse) -> None:
        self._callback.on_result(result)

    def on_error(self, error: AppFunctionException) -> None:
        cause = error.__cause__
        returned_by = getattr(cause, "returned_by", None)
        if returned_by is not None:  # a value the double returned that its declaration does not allow
            if Path(returned_by.co_filename).is_relative_to(self._dir):
                place = f"{Path(returned_by.co_filename).relative_to(self._dir)}:{returned_by.co_firstlineno}"
                error = AppFunctionAppUnknownException(
                    f"{error.error_message}; {returned_by.co_name} ({place}) returned it (the double {self._name})")
        elif isinstance(error, AppFunctionAppUnknownException) and cause is not None:
            place = self._place(cause)
            log.error("the double %s raised %s in %s%s; its traceback:\n%s", self._name, error.error_message,
                      self._function_id, place, self._traceback(cause))
            error = AppFunctionAppUnknownException(
                f"{self._function_id}: {error.error_message}{place} (the double {self._name}; its traceback is in "
                "droidsim logcat)")
        self._callback.on_error(error)

    def _place(self, cause: BaseException) -> str:
        """`` at bookings.py:87 in getBooking``: the innermost frame in the double's files."""
        frames = [f for f in traceback.extract_tb(cause.__traceback__) if Path(f.filename).is_relative_to(self._dir)]
        if not frames:
            return ""
        frame = frames[-1]
        return f" at {Path(frame.filename).relative_to(self._dir)}:{frame.lineno} in {frame.name}"

    def _traceback(self, cause: BaseException) -> str:
        text = "".join(traceback.format_exception(cause))
        return text.replace(f"{self._dir}/", f"{self._name}/")


def service_class_for(app_copy: Path, service_name: str) -> type[ResponseService] | None:
    """The class of the service ``service_name`` of ``app_copy``; None for an app with code of its own."""
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
