"""UndecodableRequestGuard: a request body that is not the method's message is the client's error.

gRPC answers a body its deserializer cannot parse (garbage, invalid UTF-8 in a string,
nesting beyond protobuf's depth limit) with INTERNAL "Exception deserializing request!" and
logs a traceback, as if the device had failed. This interceptor makes it INVALID_ARGUMENT
naming what could not be decoded; only that call fails, and the device keeps serving.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

import grpc

log = logging.getLogger("droidsim.server")


class _Undecodable:
    """What a guarded deserializer returns instead of raising."""

    def __init__(self, error: Exception) -> None:
        self.error = error


class UndecodableRequestGuard(grpc.ServerInterceptor):
    def __init__(self) -> None:
        # Handlers are fixed per method, so each is wrapped once.
        self._guarded: dict[str, grpc.RpcMethodHandler] = {}

    def intercept_service(self, continuation: Callable, handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(handler_call_details)
        if handler is None or handler.request_streaming or handler.request_deserializer is None:
            return handler
        method = handler_call_details.method
        guarded = self._guarded.get(method)
        if guarded is None:
            guarded = self._guarded[method] = _guard(handler, method)
        return guarded


def _guard(handler: Any, method: str) -> Any:
    decode = handler.request_deserializer

    def decode_or_keep_error(raw: bytes) -> Any:
        try:
            return decode(raw)
        except Exception as error:  # whatever the deserializer raises, the bytes were bad
            return _Undecodable(error)

    def refuse_undecodable(behaviour: Callable) -> Callable:
        def run(request: Any, context: grpc.ServicerContext) -> Any:
            if isinstance(request, _Undecodable):
                log.warning("refused an undecodable request to %s: %s", method, request.error)
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"The request to {method} could not be decoded: {request.error}")
            return behaviour(request, context)

        return run

    if handler.unary_unary is not None:
        return handler._replace(request_deserializer=decode_or_keep_error, unary_unary=refuse_undecodable(handler.unary_unary))
    return handler._replace(request_deserializer=decode_or_keep_error, unary_stream=refuse_undecodable(handler.unary_stream))
