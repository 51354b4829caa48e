"""AppFunctionServiceEntryPoint: an AppFunctionService made of decorated methods.

The Jetpack compiler generates a service subclass that routes
``onExecuteFunction`` by function id; here the base class does the routing:

- the id ``<service_name>#<method>`` picks the method (unknown → FunctionNotFound);
- the parameters are decoded and checked by declared type (→ InvalidArgument
  naming the parameter);
- an ``async def`` runs as a task on the app's event loop (the thread that calls
  ``on_execute_function``); a plain ``def`` runs in a worker thread;
- the return value is encoded by declared type into the response;
- an ``AppFunctionException`` raised by the app reaches the caller as it is, a
  cancelled call (the caller's CancellationSignal, or the coroutine cancelled)
  as ``AppFunctionCancelledException``, anything else as
  ``AppFunctionAppUnknownException``;
- an ``async def`` step that holds the event loop for more than 100 ms logs a
  StrictMode warning naming the function (logger ``"StrictMode"``).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import time
import types
from typing import Any, ClassVar, Generator

from droid.appfunctions import codec
from droid.appfunctions.analysis import EntryPointSpec, FunctionSpec, analyze, function_ids
from droid.appfunctions.exceptions import (
    AppFunctionAppUnknownException,
    AppFunctionCancelledException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
)
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.appfunctions.service import AppFunctionService, OutcomeReceiver
from droid.appfunctions.typeref import AppFunctionCompileError
from droid.os.cancellation import CancellationSignal

log = logging.getLogger("droid.appfunctions")
strict_mode_log = logging.getLogger("StrictMode")

#: How long one step of an ``async def`` may hold the event loop before StrictMode warns.
STRICT_MODE_THRESHOLD_S = 0.100


class AppFunctionServiceEntryPoint(AppFunctionService):
    """Base class of an app's function service (``@AppFunctionServiceEntryPoint``).

    Set ``service_name`` to the manifest ``<service android:name>`` (fully
    qualified) and ``xml_file_name`` to the asset's name without ``.xml`` (the
    manifest's ``android.app.appfunctions.v2`` property names ``<it>.xml``), then
    declare functions with ``@app_function``::

        class OrderFunctionService(AppFunctionServiceEntryPoint):
            service_name = "com.example.orders.OrderFunctionService"
            xml_file_name = "order_functions"

            @app_function(described_by_docstring=True)
            async def fetch_order_details(self, order_id: str) -> OrderDetails:
                \"\"\"Fetches details and delivery status for an order.

                Args:
                    order_id: The order identifier, for example ORD-8492.
                \"\"\"

    The device sets ``self.context`` and calls ``on_create`` before the first call.
    """

    service_name: ClassVar[str]
    xml_file_name: ClassVar[str]
    #: Prefix for serializable class names; defaults to the package of service_name.
    type_namespace: ClassVar[str | None] = None

    # ------------------------------------------------------------------ introspection
    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return function_ids(cls)

    @classmethod
    def app_function_spec(cls) -> EntryPointSpec:
        """The analysed declarations (raises AppFunctionCompileError when invalid)."""
        return analyze(cls)

    @property
    def calling_package(self) -> str:
        """The package whose call is running: the platform's ``callingPackage`` of
        ``onExecuteFunction`` (Kotlin's ``AppFunctionContext.callingPackageName`` before
        androidx alpha12). Read it inside a function; there is none outside a call."""
        package = _CALLING_PACKAGE.get(None)
        if package is None:
            raise RuntimeError("calling_package is known only while an AppFunction of this service runs")
        return package

    # ------------------------------------------------------------------ execution
    def on_execute_function(
        self,
        request: ExecuteAppFunctionRequest,
        calling_package: str,
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        try:
            fn = analyze(type(self)).function(request.function_identifier)
        except AppFunctionCompileError as e:
            log.error("%s: invalid AppFunction declarations: %s", type(self).__qualname__, e)
            callback.on_error(AppFunctionAppUnknownException(f"invalid AppFunction declarations: {e}"))
            return
        if fn is None:
            callback.on_error(
                AppFunctionFunctionNotFoundException(
                    f"{type(self).service_name} has no function {request.function_identifier!r}"
                )
            )
            return
        try:
            kwargs = codec.decode_arguments(fn, request.parameters)
        except AppFunctionException as e:
            callback.on_error(e)
            return

        call = contextvars.copy_context()  # the call's own context: what calling_package reads
        call.run(_CALLING_PACKAGE.set, calling_package)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            # No event loop here (a plain unit test or script): run to completion now.
            call.run(asyncio.run, self._run(fn, kwargs, cancellation_signal, callback))
            return
        task = loop.create_task(self._run(fn, kwargs, cancellation_signal, callback), context=call)
        _TASKS.add(task)
        task.add_done_callback(_TASKS.discard)

    async def _run(
        self,
        fn: FunctionSpec,
        kwargs: dict[str, Any],
        cancellation_signal: CancellationSignal,
        callback: OutcomeReceiver,
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            method = getattr(self, fn.method_name)
            if fn.is_async:
                work: Any = loop.create_task(_strict_mode(method(**kwargs), fn.id))
            else:
                # The worker sees the caller's context variables (e.g. the calling identity).
                context = contextvars.copy_context()
                work = loop.run_in_executor(None, functools.partial(context.run, method, **kwargs))
            cancellation_signal.set_on_cancel_listener(lambda: loop.call_soon_threadsafe(work.cancel))
            result = await work
        except asyncio.CancelledError:
            callback.on_error(AppFunctionCancelledException(f"{fn.id} was cancelled"))
            return
        except AppFunctionException as e:
            callback.on_error(e)
            return
        except (Exception, SystemExit) as e:
            if not getattr(callback, "logs_failures", False):  # one that logs them itself, in its own terms
                log.warning("%s failed", fn.id, exc_info=True)
            unknown = AppFunctionAppUnknownException(_message(e))
            unknown.__cause__ = e  # in the app's process, for a wrapper that names where it was raised
            callback.on_error(unknown)
            return
        try:
            value = codec.encode_value(fn.returns, result, "return value")
        except codec.EncodingError as e:
            log.warning("%s returned a value that does not match its declaration: %s", fn.id, e)
            unknown = AppFunctionAppUnknownException(f"{fn.id}: {e}")
            unknown.__cause__ = e
            e.returned_by = getattr(method, "__code__", None)  # for a wrapper that names the method's place
            callback.on_error(unknown)
            return
        callback.on_result(ExecuteAppFunctionResponse.of(value))


_TASKS: set[asyncio.Task] = set()
_CALLING_PACKAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar("appfunction_calling_package", default=None)


def _message(error: BaseException) -> str:
    """``<Type>: <message>`` (the type alone when there is no message). Jetpack passes
    ``e.message`` alone, but a Python message often means nothing without its type
    (``KeyError('nope')`` says ``'nope'``): docs/differences.md."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def _strict_mode(coro: Any, name: str) -> Any:
    return await _timed(coro, name)


@types.coroutine
def _timed(coro: Any, name: str) -> Generator[Any, Any, Any]:
    """Drive ``coro`` step by step, warning when one step holds the loop too long."""
    send: Any = None
    throw: BaseException | None = None
    while True:
        start = time.perf_counter()
        try:
            yielded = coro.throw(throw) if throw is not None else coro.send(send)
        except StopIteration as stop:
            _check_step(name, start)
            return stop.value
        except BaseException:
            _check_step(name, start)
            raise
        _check_step(name, start)
        try:
            send, throw = (yield yielded), None
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as e:  # CancelledError from Task.cancel(), etc.
            send, throw = None, e


def _check_step(name: str, start: float) -> None:
    elapsed = time.perf_counter() - start
    if elapsed > STRICT_MODE_THRESHOLD_S:
        strict_mode_log.warning(
            "StrictMode policy violation: %s blocked the main thread (event loop) for %d ms; "
            "await non-blocking calls or move blocking work off the loop (asyncio.to_thread, "
            "or declare the function with plain def)",
            name,
            int(elapsed * 1000),
        )
