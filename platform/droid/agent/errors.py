"""Errors of the agent runtime, and the error map a failed tool call becomes.

A failed call is not fatal: the runtime turns the exception into a structured
map and gives it to the model, which can explain the problem or try again::

    {"error": {"code": 1500, "code_name": "ERROR_RESOURCE_NOT_FOUND",
               "type": "AppFunctionElementNotFoundException",
               "category": "ERROR_CATEGORY_REQUEST_ERROR",
               "message": "Order ORD-0000 not found"}}

An exception that is not an AppFunctionException (a bug in a local tool) gets
the platform's code for an app failure, ERROR_APP_UNKNOWN_ERROR, and its own
Python type name, as Android reports an app's unexpected exception.
"""

from __future__ import annotations

from typing import Any

from droid.appfunctions.exceptions import AppFunctionException, category_of, error_name

_CATEGORY_NAMES = {
    AppFunctionException.ERROR_CATEGORY_UNKNOWN: "ERROR_CATEGORY_UNKNOWN",
    AppFunctionException.ERROR_CATEGORY_REQUEST_ERROR: "ERROR_CATEGORY_REQUEST_ERROR",
    AppFunctionException.ERROR_CATEGORY_SYSTEM: "ERROR_CATEGORY_SYSTEM",
    AppFunctionException.ERROR_CATEGORY_APP: "ERROR_CATEGORY_APP",
}


class AgentError(Exception):
    """A misuse of the runtime or a failure it cannot hand to the model."""


class ToolsNotSupportedError(AgentError):
    """Tools were given to a model that cannot call them."""


class ModelError(AgentError):
    """The model backend failed (unreachable server, bad response, timeout, exhausted script)."""


class ToolResultError(AgentError):
    """A tool returned a value that has no JSON form (an object of a class of its own, NaN)."""


class ContextLengthExceededError(ModelError):
    """The server refused the request because the conversation no longer fits the model's context.

    ``Agent(context_overflow="drop_oldest")`` makes the session drop its oldest turns and retry
    instead (see docs/agent.md, "Model servers").
    """


def error_map(exc: BaseException) -> dict[str, Any]:
    """The structured error the model receives for a failed call."""
    if isinstance(exc, AppFunctionException):
        code = exc.error_code
        message = exc.error_message or ""
    else:
        code = AppFunctionException.ERROR_APP_UNKNOWN_ERROR
        message = str(exc) or type(exc).__name__
    return make_error_map(code, type(exc).__name__, message)


def make_error_map(code: int, exception_type: str, message: str) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "code_name": error_name(code),
            "type": exception_type,
            "category": _CATEGORY_NAMES.get(category_of(code), "ERROR_CATEGORY_UNKNOWN"),
            "message": message,
        }
    }


def is_error_map(output: Any) -> bool:
    return isinstance(output, dict) and isinstance(output.get("error"), dict) and "code" in output["error"]
