"""Binder exceptions across gRPC: a status plus a BinderException in the trailers."""

from __future__ import annotations

import grpc

from droid.appfunctions.exceptions import AppFunctionException
from droid.binder.wire import error_from_proto, error_to_proto
from droid.os.exceptions import BINDER_EXCEPTIONS, SecurityException
from droidsim.v1 import data_pb2

TRAILER_KEY = "droidsim-exception-bin"

_STATUS_BY_TYPE = {
    "IllegalArgumentException": grpc.StatusCode.INVALID_ARGUMENT,
    "IllegalStateException": grpc.StatusCode.FAILED_PRECONDITION,
    "SecurityException": grpc.StatusCode.PERMISSION_DENIED,
    "UnsupportedOperationException": grpc.StatusCode.UNIMPLEMENTED,
    "AppFunctionException": grpc.StatusCode.ABORTED,
}


def to_status(error: BaseException) -> tuple[grpc.StatusCode, str, tuple[tuple[str, bytes], ...]]:
    """The status, details and trailers that carry ``error`` to the client."""
    if isinstance(error, AppFunctionException):
        message = data_pb2.BinderException(
            type="AppFunctionException",
            message=error.error_message or "",
            app_function_error=error_to_proto(error),
        )
    else:
        message = data_pb2.BinderException(type=type(error).__name__, message=str(error))
    status = _STATUS_BY_TYPE.get(message.type, grpc.StatusCode.UNKNOWN)
    return status, f"{message.type}: {message.message}", ((TRAILER_KEY, message.SerializeToString()),)


def from_rpc_error(error: grpc.RpcError) -> BaseException:
    """The exception a failed call stands for; a plain transport failure stays an RpcError."""
    for key, value in error.trailing_metadata() or ():
        if key == TRAILER_KEY:
            message = data_pb2.BinderException.FromString(value)
            if message.type == "AppFunctionException":
                return error_from_proto(message.app_function_error)
            return BINDER_EXCEPTIONS.get(message.type, RuntimeError)(message.message)
    if error.code() == grpc.StatusCode.UNAUTHENTICATED:
        return SecurityException(error.details() or "not authenticated")
    return error
