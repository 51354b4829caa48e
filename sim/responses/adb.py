"""Recording from a phone or emulator: ``adb shell cmd app_function execute-app-function``.

The platform's shell command (AppFunctionManagerServiceShellCommand, Android 16 QPR2 and
later; docs/responses.md) prints, on success, the result document as JSON with every property
an array (AppSearchDataJsonConverter.convertGenericDocumentToJson: a GenericDocument does not
say whether a property is repeated), indented by 2; on failure one line::

    Error executing app function: android.app.appfunctions.AppFunctionException: MESSAGE (code N). See logcat for more details.

and "Timed out", "Error: ..." or "Exception: ..." when it could not run the call at all. The
app's XML (the code-less folder) types the answers back: an array stands for one value
unless the XML declares a list, and a property the platform left out is null.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from droid.appfunctions.data import PROPERTY_RETURN_VALUE
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.metadata import AppFunctionDataTypeMetadata, AppFunctionPackageMetadata, DataType
from sim.responses.cassette import typed_parameters
from sim.responses.record import PlannedCall, RecordError, error_entry
from sim.responses.types import object_properties, resolved, shared_types

if TYPE_CHECKING:
    from sim.pm.app_parser import ParsedApp

_ERROR = re.compile(
    r"^Error executing app function: (?P<class>[\w.$]+): (?P<message>.*) \(code (?P<code>-?\d+)\)\. "
    r"See logcat for more details\.\s*$", re.DOTALL)
# Each call's own timeout, as the shell command's --timeout-duration; adb itself gets a grace.
CALL_TIMEOUT_SECONDS = 30
_ADB_GRACE_SECONDS = 30


class AdbTarget:
    """``adb`` (a path or a name on PATH), optionally ``-s SERIAL``; ``app_dir``'s XML types
    the calls and the answers (the phone's own listing does not say which values are lists)."""

    def __init__(self, metadata: AppFunctionPackageMetadata, adb: str = "adb", serial: str | None = None) -> None:
        self._metadata = metadata
        self._adb = [adb, *(["-s", serial] if serial else [])]

    def metadata(self, package: str) -> AppFunctionPackageMetadata:
        if package != self._metadata.package_name:
            raise RecordError(f"the calls file is for {package}, the app folder is {self._metadata.package_name}")
        return self._metadata

    def run(self, package: str, call: PlannedCall, metadata: AppFunctionPackageMetadata) -> dict:
        # Typed first, so a double parameter goes as 2.0, not 2 (the platform types JSON by its look).
        parameters = to_json(typed_parameters(call.function, call.parameters, metadata, "parameters"))
        command = ["cmd", "app_function", "execute-app-function", "--package", package, "--function", call.function.id,
                   "--parameters", json.dumps(parameters, ensure_ascii=False),
                   "--timeout-duration", str(CALL_TIMEOUT_SECONDS)]
        output = self._shell(" ".join(shlex.quote(part) for part in command), call)
        return outcome_of(output, call, metadata)

    def _shell(self, command: str, call: PlannedCall) -> str:
        try:
            done = subprocess.run([*self._adb, "shell", command], capture_output=True, text=True,
                                  timeout=CALL_TIMEOUT_SECONDS + _ADB_GRACE_SECONDS)
        except FileNotFoundError:
            raise RecordError(f"{self._adb[0]}: not found (install Android's platform-tools, or pass --adb PATH)") from None
        except subprocess.TimeoutExpired:
            raise RecordError(f"{call.function.id}: adb did not answer within "
                              f"{CALL_TIMEOUT_SECONDS + _ADB_GRACE_SECONDS} s") from None
        if done.returncode != 0 and not done.stdout.startswith("Error executing app function:"):
            problem = (done.stdout + done.stderr).strip() or f"exit status {done.returncode}"
            raise RecordError(f"{call.function.id}: adb shell failed: {problem}")
        return done.stdout


def outcome_of(output: str, call: PlannedCall, metadata: AppFunctionPackageMetadata) -> dict:
    """What the shell command's output says the call answered, as a cassette entry's outcome."""
    failed = _ERROR.match(output)
    if failed:
        message = failed["message"]
        return error_entry(int(failed["code"]), None if message == "null" else message)
    try:
        document = json.loads(output)
    except json.JSONDecodeError:
        raise RecordError(f"{call.function.id}: the device did not run the call: {output.strip()[:500]}") from None
    if not isinstance(document, dict):
        raise RecordError(f"{call.function.id}: expected the result document (a JSON object), got {output.strip()[:200]}")
    if PROPERTY_RETURN_VALUE not in document or not call.function.HasField("response"):
        return {"response": None}
    shared = shared_types(metadata)
    return {"response": _property(document[PROPERTY_RETURN_VALUE], call.function.response.value_type, shared,
                                  f"{call.function.id}: response")}


def _property(value: Any, data_type: AppFunctionDataTypeMetadata, shared: dict, where: str) -> Any:
    """One property as the platform printed it (an array, or null) as the value the XML declares."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected the array the platform prints for a property, got {json.dumps(value)[:100]}")
    data_type = resolved(data_type, shared)
    if data_type.type == DataType.ARRAY:
        return [_value(item, data_type.item_type, shared, f"{where}[{i}]") for i, item in enumerate(value)]
    if len(value) != 1:
        raise RecordError(f"{where}: one value is declared, the platform printed {len(value)}")
    return _value(value[0], data_type, shared, where)


def _value(value: Any, data_type: AppFunctionDataTypeMetadata, shared: dict, where: str) -> Any:
    data_type = resolved(data_type, shared)
    if data_type.type == DataType.BYTES:
        raise RecordError(f"{where}: the platform's shell prints no readable bytes; record this call another way")
    if isinstance(value, dict) and data_type.type in (DataType.OBJECT, DataType.ALL_OF):
        properties, _ = object_properties(data_type, shared)
        return {
            name: _property(value.get(name), declared, shared, f"{where}.{name}")
            for name, declared in properties.items()
            if name in value or declared.is_nullable
        }
    return value


def metadata_of_folder(app_dir: Path) -> AppFunctionPackageMetadata:
    """The package's functions and types as install reads them from its folder (no code runs)."""
    return parsed_folder(app_dir).metadata


def parsed_folder(app_dir: Path) -> ParsedApp:
    """The app as install reads its folder for the newest SDK (no code runs); RecordError says what install refuses."""
    from sim.pm.app_parser import parse_app
    from sim.pm.code_verifier import InProcessCodeVerifier
    from sim.pm.install_error import InstallError

    try:
        return parse_app(app_dir, InProcessCodeVerifier(), lambda manifest: None)
    except InstallError as error:
        raise RecordError(str(error)) from None

