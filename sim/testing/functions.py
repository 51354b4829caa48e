"""Which function a test means, and its values in Python.

A test names a function the way it is easiest to type: the method itself
(``OrderFunctionService.fetch_order_details``), its full id, or its short id
(``fetch_order_details``); parameters by Python name (``order_id``) or wire name
(``orderId``). This module turns that into a request and the response back into
the declared Python type, with the entry point's own codec.
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from droid.appfunctions import codec
from droid.appfunctions.analysis import FunctionSpec, ParameterSpec, analyze
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.declarations import FUNCTION_ATTR
from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
from droid.appfunctions.json_codec import parameters_from_json, to_json
from droid.appfunctions.metadata import AppFunctionComponentsMetadata, AppFunctionMetadata
from droid.appfunctions.typeref import Kind, wire_name
from sim.testing.values import as_declared, unknown_key


class FunctionLookupError(LookupError):
    """The test named no function, or more than one; the message lists what it could mean."""


@dataclass(frozen=True)
class FunctionRef:
    """A function on the device: its package, full id and, when its service is an entry
    point, the spec that encodes its parameters and decodes its result."""

    package_name: str
    function_id: str
    metadata: AppFunctionMetadata
    components: AppFunctionComponentsMetadata
    spec: FunctionSpec | None = None

    @property
    def short_id(self) -> str:
        return self.function_id.rsplit("#", 1)[-1]

    def parameters(self, values: dict[str, Any]) -> AppFunctionData:
        """The request's parameters from Python values keyed by Python or wire name."""
        if self.spec is None:  # a platform-layer service: only the metadata describes it
            wire = {p.name for p in self.metadata.parameters}
            named = {_wire_key(key, wire, self.function_id): value for key, value in values.items()}
            return parameters_from_json(self.metadata, named, self.components)
        python_values = {}
        for key, value in values.items():
            param = self.parameter_named(key)
            if param is None:
                raise TypeError(_unknown_parameter(key, self.function_id, [p.py_name for p in self.spec.parameters]))
            python_values[param.py_name] = as_declared(param.type, value, param.py_name)
        return codec.encode_arguments(self.spec, **python_values)

    def parameter_named(self, key: str) -> ParameterSpec | None:
        """The entry point's parameter ``key`` names, by Python or wire name."""
        assert self.spec is not None
        return next((p for p in self.spec.parameters if key in (p.py_name, p.wire_name)), None)

    def result(self, return_value: Any) -> Any:
        """The response's value as the declared return type (a dataclass, a ``date``...)."""
        if self.spec is None:
            return to_json(return_value)
        if self.spec.returns.kind is Kind.UNIT:  # `-> None`: the response carries no value
            return None
        return codec.decode_value(self.spec.returns, return_value, "returnValue")


def function_of(method: Callable[..., Any]) -> tuple[type, str]:
    """The entry point class and full id of a declared method (bound or not)."""
    method = getattr(method, "__func__", method)
    if not callable(method) or getattr(method, FUNCTION_ATTR, None) is None:
        raise FunctionLookupError(f"{method!r} is not an @app_function method")
    owner: Any = sys.modules.get(method.__module__)
    for part in method.__qualname__.split(".")[:-1]:
        owner = getattr(owner, part, None)
    if not (isinstance(owner, type) and issubclass(owner, AppFunctionServiceEntryPoint)):
        raise FunctionLookupError(f"{method.__qualname__} is not defined on an AppFunctionServiceEntryPoint class")
    return owner, f"{owner.service_name}#{method.__name__}"


def spec_of(cls: type, function_id: str) -> FunctionSpec | None:
    if not (isinstance(cls, type) and issubclass(cls, AppFunctionServiceEntryPoint)):
        return None
    return analyze(cls).function(function_id)


def choose(name: str, candidates: Iterable[tuple[str, str]], package: str | None) -> tuple[str, str]:
    """The one (package, id) that ``name`` (a full or short id) names among ``candidates``."""
    candidates = [(p, f) for p, f in candidates if package is None or p == package]
    hits = [(p, f) for p, f in candidates if name == f or name == f.rsplit("#", 1)[-1]]
    if len(hits) == 1:
        return hits[0]
    where = f" in {package}" if package else " on the device"
    if not hits:
        close = difflib.get_close_matches(name, [f.rsplit("#", 1)[-1] for _, f in candidates] + [f for _, f in candidates])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise FunctionLookupError(f"no function {name!r}{where}{hint}")
    raise FunctionLookupError(
        f"{name!r} could be any of {', '.join(f'{f} ({p})' for p, f in hits)}: use the full id or package="
    )


def _wire_key(key: str, wire: set[str], function_id: str) -> str:
    if key in wire:
        return key
    if wire_name(key) in wire:
        return wire_name(key)
    raise TypeError(_unknown_parameter(key, function_id, sorted(wire)))


def _unknown_parameter(key: str, function_id: str, names: list[str]) -> str:
    return unknown_key(repr(key), key, names, f"a parameter of {function_id}")
