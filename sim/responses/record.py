"""``droidsim responses record CALLS_FILE --out CASSETTE``: run calls, write what they answered.

The calls file (YAML or JSON) names the package and lists the calls::

    package: com.example.orders
    calls:
      - function: fetch_order_details     # the name after '#', or the whole id
        parameters: {orderId: ORD-8492}

A target runs each call and says what it answered, as JSON typed by the function's XML: a
droidsim device (``DeviceTarget``) or a phone or emulator through adb (sim/responses/adb.py).
The cassette written is checked as install will check it, so it installs as it stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol

from droid.appfunctions.exceptions import AppFunctionException, error_name
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.metadata import AppFunctionMetadata, AppFunctionPackageMetadata
from droid.appfunctions.requests import AppFunctionSearchSpec, ExecuteAppFunctionRequest
from sim.responses.cassette import CassetteError, check_cassette, functions_by_key, read_cassette_file, typed_parameters


class RecordError(ValueError):
    """A call could not be recorded; the message names the call and what went wrong."""


@dataclass(frozen=True)
class PlannedCall:
    key: str  # the function as the calls file names it; the cassette keeps that name
    function: AppFunctionMetadata
    parameters: dict


class Target(Protocol):
    def metadata(self, package: str) -> AppFunctionPackageMetadata:
        """The package's functions and types, which type the calls and their answers."""

    def run(self, package: str, call: PlannedCall, metadata: AppFunctionPackageMetadata) -> dict:
        """``{"response": JSON}`` or ``{"error": {"code": NAME, "message": TEXT}}``."""


def read_calls(path: Path) -> tuple[str, list[dict]]:
    try:
        content = read_cassette_file(path)
    except CassetteError as error:
        raise RecordError(str(error)) from None
    if not isinstance(content, Mapping) or not isinstance(content.get("package"), str) or not isinstance(
            content.get("calls"), list):
        raise RecordError(f"{path.name}: a calls file is a mapping with `package` and `calls`: a list of "
                          "{function, parameters}")
    return content["package"], content["calls"]


def planned_calls(calls: list, metadata: AppFunctionPackageMetadata, label: str) -> list[PlannedCall]:
    functions = functions_by_key(metadata)
    planned = []
    for index, call in enumerate(calls):
        where = f"{label}: calls[{index}]"
        if not isinstance(call, Mapping) or "function" not in call or set(call) - {"function", "parameters"}:
            raise RecordError(f"{where}: expected a mapping with function and parameters")
        function = functions.get(str(call["function"]))
        if function is None:
            raise RecordError(f"{where}: {metadata.package_name} declares no function {call['function']!r}")
        parameters = dict(call.get("parameters") or {})
        try:
            typed_parameters(function, parameters, metadata, "parameters")
        except AppFunctionException as error:
            raise RecordError(f"{where}: {(error.error_message or '').removeprefix('Parameter ')}") from None
        planned.append(PlannedCall(str(call["function"]), function, parameters))
    return planned


def record(calls_file: Path, target: Target) -> dict:
    """The cassette of ``calls_file``'s calls run against ``target``, checked."""
    package, calls = read_calls(calls_file)
    metadata = target.metadata(package)
    cassette: dict[str, Any] = {"package": package, "calls": {}}
    for call in planned_calls(calls, metadata, calls_file.name):
        outcome = target.run(package, call, metadata)
        cassette["calls"].setdefault(call.key, []).append({"parameters": call.parameters, **outcome})
    try:
        check_cassette(cassette, metadata, calls_file.name)
    except CassetteError as error:
        raise RecordError(f"the recorded answers do not fit the XML: {error}") from None
    return cassette


def write_cassette(cassette: dict, out: Path) -> None:
    import yaml

    header = (f"# Recorded by `droidsim responses record` from {cassette['package']}; install it with the app's build: "
              f"droidsim install app/build/outputs/apk/debug/app-debug.apk --responses {out.name}\n")
    out.write_text(header + yaml.safe_dump(cassette, sort_keys=False, allow_unicode=True, width=100))


def error_entry(code: int, message: str | None) -> dict:
    """A recorded error, its code by its ERROR_ name where it has one."""
    name = error_name(code)
    return {"error": {"code": code if name == f"ERROR_{code}" else name, "message": message}}


class DeviceTarget:
    """A droidsim device, through a Context (the shell's, or an agent's)."""

    def __init__(self, context: Any) -> None:
        self._manager = context.app_function_manager

    def metadata(self, package: str) -> AppFunctionPackageMetadata:
        functions = self._manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({package})))
        if not functions:
            raise RecordError(f"{package}: no functions on the device (is it installed, and may this caller see it?)")
        metadata = AppFunctionPackageMetadata(package_name=package)
        metadata.components.CopyFrom(functions[0].package_metadata.components)
        for function in functions:
            metadata.app_functions.append(function)
        return metadata

    def run(self, package: str, call: PlannedCall, metadata: AppFunctionPackageMetadata) -> dict:
        document = typed_parameters(call.function, call.parameters, metadata, "parameters")
        try:
            response = self._manager.execute_app_function(ExecuteAppFunctionRequest(package, call.function.id, document))
        except AppFunctionException as error:
            return error_entry(error.error_code, error.error_message)
        return {"response": to_json(response.return_value)}
