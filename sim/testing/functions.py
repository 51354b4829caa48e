"""Which function a test means, and its values in Python.

A test names a function the way it is easiest to type: the method itself
(``OrderFunctionService.fetch_order_details``), its full id, or its declared name after
``#`` (``fetch_order_details``, ``getBalance``); parameters by Python name (``order_id``) or
wire name (``orderId``). This module turns that into a request and the response back into a
Python value: for a Python app with the entry point's own codec and classes, for every other
app (an APK, a code-less folder) from the installed metadata (sim.testing.metadata_values).
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from droid.appfunctions import codec
from droid.appfunctions.analysis import FunctionSpec, ParameterSpec, analyze
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.declarations import FUNCTION_ATTR
from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
from droid.appfunctions.exceptions import AppFunctionInvalidArgumentException, AppFunctionNotSupportedException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.metadata import AppFunctionComponentsMetadata, AppFunctionMetadata
from droid.appfunctions.typeref import Kind
from sim.pm.unindexed import Unindexed, not_indexed_words
from sim.testing.values import as_declared, unknown_key


class FunctionLookupError(LookupError):
    """The test named no function, or more than one; the message lists what it could mean."""


class NoAnswerError(AppFunctionNotSupportedException):
    """A call nothing answers: the app's own code does not run on droidsim (an APK, a
    code-less folder) and its response source has no answer for these parameters (no cassette
    entry matches, no double, ``on_miss="refuse"``). Still an ERROR_NOT_SUPPORTED, as the
    device answers it; ``parameters`` is the JSON to record for it (docs/responses.md)."""

    def __init__(self, message: str, *, package_name: str, function_id: str, parameters: dict[str, Any]) -> None:
        super().__init__(message)
        self.package_name = package_name
        self.function_id = function_id
        self.parameters = parameters


class Typing(Protocol):
    """How one function takes a test's Python values and gives back its answer."""

    @property
    def names(self) -> list[str]:
        """The parameter names a test writes, for the error that refuses another."""

    def parameter_name(self, key: str) -> str | None:
        """The wire name a test's key (Python or declared) stands for; None for none."""

    def parameters(self, values: dict[str, Any]) -> AppFunctionData:
        """The request's parameters from values by wire name; TypeError for a form the function
        does not take, AppFunctionInvalidArgumentException for a value of the wrong type."""

    def json_value(self, name: str, value: Any) -> Any:
        """The value of parameter ``name`` (a wire name) as the JSON a model would send."""

    def result(self, return_value: Any) -> Any:
        """The response's value as a Python value."""


@dataclass(frozen=True)
class FunctionRef:
    """A function on the device: its package, full id, and how its values are typed (by the
    app's code for a Python app, by the installed metadata otherwise)."""

    package_name: str
    function_id: str
    metadata: AppFunctionMetadata
    components: AppFunctionComponentsMetadata
    typing: Typing

    @property
    def short_id(self) -> str:
        return self.function_id.rsplit("#", 1)[-1]

    def parameters(self, values: dict[str, Any]) -> AppFunctionData:
        """The request's parameters from Python values keyed by Python or wire name."""
        named = {}
        for key, value in values.items():
            name = self.typing.parameter_name(key)
            if name is None:
                raise TypeError(unknown_key(repr(key), key, self.typing.names, f"a parameter of {self.function_id}"))
            named[name] = value
        return self.typing.parameters(named)

    def result(self, return_value: Any) -> Any:
        """The response's value as a Python value (the app's dataclass, a ``date``...)."""
        return self.typing.result(return_value)

    def wire_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Arguments as a model sends them: wire names, values as JSON (a ``date`` as its
        document, as in ``call``). A key the function does not declare, or a value already JSON,
        is sent as written: a script may make the model send a bad call."""
        sent = {}
        for key, value in arguments.items():
            name = self.typing.parameter_name(key)
            if name is None:
                sent[key] = value
            else:
                sent[name] = value if _is_json(value) else self.typing.json_value(name, value)
        return sent


# How a test names a function: a full or short id, the method itself, or a FunctionRef.
FunctionName = str | Callable[..., Any] | FunctionRef


@dataclass(frozen=True)
class CodeTyping:
    """A Python app's function, typed by its entry point's spec (which install checked against
    the installed XML): arguments and results are the app's own classes."""

    spec: FunctionSpec

    @property
    def names(self) -> list[str]:
        return [p.py_name for p in self.spec.parameters]

    def parameter_name(self, key: str) -> str | None:
        param = self._parameter(key)
        return None if param is None else param.wire_name

    def parameters(self, values: dict[str, Any]) -> AppFunctionData:
        python_values = {}
        for name, value in values.items():
            param = self._parameter(name)
            assert param is not None
            python_values[param.py_name] = as_declared(param.type, value, param.py_name)
        try:
            return codec.encode_arguments(self.spec, **python_values)
        except codec.EncodingError as error:  # a wrong type: refused as the shell refuses it
            raise AppFunctionInvalidArgumentException(f"Parameter {error}") from None

    def json_value(self, name: str, value: Any) -> Any:
        param = self._parameter(name)
        assert param is not None
        return to_json(codec.encode_value(param.type, as_declared(param.type, value, name), name))

    def result(self, return_value: Any) -> Any:
        if self.spec.returns.kind is Kind.UNIT:  # `-> None`: the response carries no value
            return None
        return codec.decode_value(self.spec.returns, return_value, "returnValue")

    def _parameter(self, key: str) -> ParameterSpec | None:
        return next((p for p in self.spec.parameters if key in (p.py_name, p.wire_name)), None)


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


def _marker_hint(sdk: int | None) -> str:
    """How a test says it is for the SDKs that do index it: the plugin's marker, with the others'."""
    from sim.platform_version import VERSIONS

    others = [str(v) for v in sorted(VERSIONS) if v != sdk]
    if sdk is None or not others:
        return ""
    return f" (a test of it is for SDK {' or '.join(others)}: @pytest.mark.droid_sdk({', '.join(others)}))"


def choose(name: str, candidates: Iterable[tuple[str, str]], package: str | None,
           unindexed: Iterable[Unindexed] = (), sdk: int | None = None) -> tuple[str, str]:
    """The one (package, id) that ``name`` (a full or short id) names among ``candidates``;
    ``unindexed``: what the packages declare that this device's SDK (``sdk``) does not index."""
    candidates = [(p, f) for p, f in candidates if package is None or p == package]
    hits = [(p, f) for p, f in candidates if name == f or name == f.rsplit("#", 1)[-1]]
    if len(hits) == 1:
        return hits[0]
    where = f" in {package}" if package else " on the device"
    if not hits:
        declared = not_indexed_words(unindexed, name, package)
        if declared is not None:
            raise FunctionLookupError(f"no function {name!r}{where}: {declared}{_marker_hint(sdk)}")
        close = difflib.get_close_matches(name, [f.rsplit("#", 1)[-1] for _, f in candidates] + [f for _, f in candidates])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise FunctionLookupError(f"no function {name!r}{where}{hint} {_listing(candidates)}")
    raise FunctionLookupError(
        f"{name!r} could be any of {', '.join(f'{f} ({p})' for p, f in hits)}: use the full id or package="
    )


def _listing(candidates: list[tuple[str, str]], at_most: int = 30) -> str:
    """The functions a test may name, by package: ``(the functions: com.x: a, b; com.y: c)``."""
    if not candidates:
        return "(no installed app has functions)"
    by_package: dict[str, list[str]] = {}
    for package, function_id in candidates[:at_most]:
        by_package.setdefault(package, []).append(function_id.rsplit("#", 1)[-1])
    more = f"; and {len(candidates) - at_most} more" if len(candidates) > at_most else ""
    listed = "; ".join(f"{package}: {', '.join(names)}" for package, names in by_package.items())
    return f"(the functions: {listed}{more})"


def _is_json(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json(v) for k, v in value.items())
    return False
