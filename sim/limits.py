"""CallLimits: how much one execution request may carry, and for how long it may run.

A device that agents leave running must refuse an oversized or pathological request with
a clear error instead of spending its memory on it, and never let one caller's request
affect another's. The bounds are the device's configuration (``Device(limits=...)``,
``droidsim device start --max-parameters-bytes ...``); docs/reliability.md lists them.

- ``max_parameters_bytes`` bounds a request's parameters and extras as encoded on the binder,
  measured as received, before they are decoded (only remote calls have bytes to measure).
- ``max_depth``, ``max_list_length`` and ``max_string_length`` bound the shape of every
  parameters and extras document, in-process or remote; an error names the path
  (``parameters.note.attachments[3]``).
- ``execution_timeout`` (off by default, as on current Android) ends a call that runs longer.
- ``max_calls_in_flight`` bounds how many calls one app may have running at once
  (sim/appfunctions/calls_in_flight.py), so no app can hold every worker of the device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionLimitExceededException
from droid.binder.channel import MAX_MESSAGE_BYTES
from droid.binder.wire import EncodedData, Shape
from droidsim.v1 import app_function_manager_pb2 as afm_pb2

MIB = 1024 * 1024
# CTS sends 1 MB and echoes 5 MB (spec/platform-android.md §4); a little more fits.
DEFAULT_MAX_PARAMETERS_BYTES = 8 * MIB
# The binder's message limit, less room for the rest of the call.
MAX_PARAMETERS_BYTES_CEILING = MAX_MESSAGE_BYTES - MIB
DEFAULT_MAX_DEPTH = 16
# protobuf's decoder stops at 100 message levels, three per document level; the app hop
# wraps a request in two more, and a result wraps the return value in one more document.
MAX_DEPTH_CEILING = 30
DEFAULT_MAX_LIST_LENGTH = 100_000
DEFAULT_MAX_STRING_LENGTH = DEFAULT_MAX_PARAMETERS_BYTES
# Well below the gRPC server's 128 workers: several apps at their limit leave room for the rest.
DEFAULT_MAX_CALLS_IN_FLIGHT = 16

_BOUNDED_KINDS = (str, bytes, AppFunctionData)


@dataclass(frozen=True)
class CallLimits:
    max_parameters_bytes: int = DEFAULT_MAX_PARAMETERS_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_list_length: int = DEFAULT_MAX_LIST_LENGTH
    max_string_length: int = DEFAULT_MAX_STRING_LENGTH
    # Seconds; None: a call may run as long as its app takes.
    execution_timeout: float | None = None
    max_calls_in_flight: int = DEFAULT_MAX_CALLS_IN_FLIGHT

    def __post_init__(self) -> None:
        _require(1 <= self.max_parameters_bytes <= MAX_PARAMETERS_BYTES_CEILING,
                 f"max_parameters_bytes must be between 1 and {MAX_PARAMETERS_BYTES_CEILING} "
                 f"(what the binder carries), not {self.max_parameters_bytes}")
        _require(1 <= self.max_depth <= MAX_DEPTH_CEILING,
                 f"max_depth must be between 1 and {MAX_DEPTH_CEILING} (what the binder decodes), not {self.max_depth}")
        _require(self.max_list_length >= 1, f"max_list_length must be at least 1, not {self.max_list_length}")
        _require(self.max_string_length >= 1, f"max_string_length must be at least 1, not {self.max_string_length}")
        _require(self.max_calls_in_flight >= 1, f"max_calls_in_flight must be at least 1, not {self.max_calls_in_flight}")
        _require(self.execution_timeout is None or self.execution_timeout > 0,
                 f"execution_timeout must be positive (or None for none), not {self.execution_timeout}")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def oversized_request(message: afm_pb2.ExecuteAppFunctionRequest, limits: CallLimits) -> AppFunctionLimitExceededException | None:
    """The refusal of a received request whose parameters and extras exceed the byte limit."""
    size = message.parameters.ByteSize() + message.extras.ByteSize()
    if size <= limits.max_parameters_bytes:
        return None
    return AppFunctionLimitExceededException(
        f"The request's parameters are {size} bytes, more than this device's limit of "
        f"{limits.max_parameters_bytes} bytes (droidsim device start --max-parameters-bytes)"
    )


def shape_violation(data: AppFunctionData, limits: CallLimits, path: str) -> AppFunctionLimitExceededException | None:
    """The refusal of a document nested, listed or sized beyond the limits, naming the path.

    A document still encoded (a remote request) is checked by its shape and decoded only to
    find the path of a problem it has."""
    if type(data) is EncodedData:  # len() would decode it
        if _fits(data.shape, limits):
            return None
    elif not data:
        return None
    problem = _first_problem(data, limits, path, 1)
    return AppFunctionLimitExceededException(problem) if problem else None


def _fits(shape: Shape, limits: CallLimits) -> bool:
    return (shape.depth <= limits.max_depth and shape.widest <= limits.max_list_length
            and shape.longest_list <= limits.max_list_length and shape.longest_value <= limits.max_string_length)


def _first_problem(data: AppFunctionData, limits: CallLimits, path: str, depth: int) -> str | None:
    if depth > limits.max_depth:
        return f"{path} nests documents deeper than this device's limit of {limits.max_depth} levels"
    if len(data) > limits.max_list_length:
        return f"{path} has {len(data)} properties, more than this device's limit of {limits.max_list_length}"
    for name, value in data.items():
        where = f"{path}.{name}"
        if type(value) is list:
            if len(value) > limits.max_list_length:
                return f"{where} is a list of {len(value)} items, more than this device's limit of {limits.max_list_length}"
            if not value or not isinstance(value[0], _BOUNDED_KINDS):
                continue  # a list holds one kind: numbers and booleans have no size to bound
            for index, item in enumerate(value):
                problem = _value_problem(item, limits, f"{where}[{index}]", depth)
                if problem:
                    return problem
        else:
            problem = _value_problem(value, limits, where, depth)
            if problem:
                return problem
    return None


def _value_problem(value: Any, limits: CallLimits, where: str, depth: int) -> str | None:
    if isinstance(value, AppFunctionData):
        return _first_problem(value, limits, where, depth + 1)
    if isinstance(value, (str, bytes)) and len(value) > limits.max_string_length:
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{where} holds {len(value)} {unit}, more than this device's limit of {limits.max_string_length}"
    return None
