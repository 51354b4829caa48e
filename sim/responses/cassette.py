"""Cassettes: recorded request -> response pairs (VCR style), typed by the app's own XML.

The file format is docs/responses.md's: ``calls`` maps each function (its name after ``#``,
or its whole id) to a list of entries, each ``parameters`` plus either ``response`` (the
return value) or ``error`` (``code``: an ``ERROR_`` name or number, ``message``).

Every value is converted with the function's declared types when the cassette is installed
(``check_cassette``), so a stale cassette fails then, naming file, function and path; the app
process converts it again the same way (``Cassette``), and a call matches an entry when their
parameters are the same typed document (an absent value and a null are the same).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException
from droid.appfunctions.json_codec import parameters_from_json, value_from_json
from droid.appfunctions.metadata import AppFunctionMetadata, AppFunctionPackageMetadata, function_name
from droid.appfunctions.requests import ExecuteAppFunctionResponse

# A cassette is read whole by the device; bounded as an app folder is.
MAX_CASSETTE_BYTES = 16 * 1024 * 1024
_ENTRY_KEYS = {"parameters", "response", "error"}
_ERROR_KEYS = {"code", "message"}


class CassetteError(ValueError):
    """A cassette that cannot be used as it stands; the message names file, function and path."""


def read_cassette_file(path: Path) -> Any:
    """The cassette's content, YAML or JSON (JSON is YAML). Anchors and aliases are refused:
    one line of aliases can stand for gigabytes once expanded. A refusal quotes nothing of the
    file: a suite may name any file as its cassette (a key, a credentials file), and the
    refusal is printed, logged and kept with the run's results; where the problem is and what
    the parser met there (a scalar, a tab) is enough to fix a cassette."""
    import yaml

    try:
        if not path.is_file():
            raise CassetteError(f"{path}: not a file")
        if path.stat().st_size > MAX_CASSETTE_BYTES:
            raise CassetteError(f"{path}: larger than {MAX_CASSETTE_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CassetteError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise CassetteError(f"{path}: cannot be read: {error.strerror}") from None
    try:
        content = yaml.load(text, Loader=_no_alias_loader())  # noqa: S506 - a SafeLoader without aliases
        # JSON's values only: YAML's binary, sets and NaN have no place in a typed document.
        return json.loads(json.dumps(content, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise CassetteError(f"{path.name}: holds a value JSON has no form for: {error}") from None
    except yaml.YAMLError as error:
        raise CassetteError(f"{path.name}: not YAML or JSON{_where(error)}") from None
    except RecursionError:
        raise CassetteError(f"{path.name}: nests too deep to be a cassette") from None


def _where(error: Exception) -> str:
    """`` (line L, column C: PROBLEM)``, the parser's own words without the line it quotes."""
    mark, problem = getattr(error, "problem_mark", None), getattr(error, "problem", None)
    if mark is None:
        return ""
    return f" (line {mark.line + 1}, column {mark.column + 1}" + (f": {problem})" if problem else ")")


def check_shape(content: Any, label: str) -> None:
    """A cassette's outline, checked before anything in it is typed or quoted: a file that is no
    cassette at all (a key, a config file) is refused without a word of what it holds."""
    if not isinstance(content, Mapping) or not isinstance(content.get("calls"), Mapping):
        raise CassetteError(f"{label}: a cassette is a mapping with `calls`: function -> list of recorded calls")
    unknown = sorted(set(content) - {"package", "calls"})
    if unknown:
        raise CassetteError(f"{label}: unknown key {unknown[0]!r} (a cassette has `package` and `calls`)")


@functools.cache
def _no_alias_loader() -> type:
    import yaml

    from sim.no_alias_yaml import NoAliasLoader

    class CassetteLoader(NoAliasLoader):
        what = "a cassette"

    # Dates stay text (2025-06-14), as JSON would have them: the declared type decides.
    CassetteLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return CassetteLoader


@dataclass(frozen=True)
class Recorded:
    """One entry, typed: the parameters it matches and what it answers."""

    parameters: AppFunctionData
    outcome: ExecuteAppFunctionResponse | AppFunctionException


@dataclass(frozen=True)
class CheckedCassette:
    """``calls``: as the device keeps them (as written, every entry's keys checked); ``recorded``:
    how many calls of each indexed function id; ``unindexed``: the same for functions the app
    declares in files this device does not index (kept, for a device of another SDK)."""

    calls: dict
    recorded: dict[str, int]
    unindexed: dict[str, int]


def check_cassette(content: Any, metadata: AppFunctionPackageMetadata, label: str,
                   unindexed: AppFunctionPackageMetadata | None = None) -> CheckedCassette:
    """Every value checked against the declared types, the ``unindexed`` functions' too, so that
    one cassette serves a device of either SDK and a typo fails on both; a CassetteError names
    ``label`` (the file's name), the function as the cassette wrote it, the entry and the path."""
    declared = metadata
    if unindexed is not None and unindexed.app_functions:
        declared = AppFunctionPackageMetadata()
        declared.CopyFrom(metadata)
        declared.app_functions.extend(unindexed.app_functions)
        declared.components.data_types.extend(unindexed.components.data_types)
    typed = _typed_calls(content, declared, label)
    indexed = {f.id for f in metadata.app_functions}
    counts = {function_id: len(entries) for function_id, entries in typed.values()}
    return CheckedCassette(
        {key: [entry for entry, _ in entries] for key, (_, entries) in typed.items()},
        {function_id: n for function_id, n in counts.items() if function_id in indexed},
        {function_id: n for function_id, n in counts.items() if function_id not in indexed},
    )


def _typed_calls(
    content: Any, metadata: AppFunctionPackageMetadata, label: str, known_only: bool = False,
) -> dict[str, tuple[str, list[tuple[dict, Recorded]]]]:
    """Each function as the cassette names it: (its whole id, its entries, kept and typed).
    ``known_only``: leave out what ``metadata`` does not declare (checked at install already)."""
    check_shape(content, label)
    package = content.get("package")
    if package is not None and package != metadata.package_name:
        raise CassetteError(f"{label}: recorded for package {package!r}, not {metadata.package_name}")
    functions = functions_by_key(metadata)
    typed: dict[str, tuple[str, list[tuple[dict, Recorded]]]] = {}
    ids: set[str] = set()
    for key, entries in content["calls"].items():
        function = functions.get(str(key))
        if function is None and known_only:
            continue
        if function is None:
            raise CassetteError(f"{label}: {key}: {metadata.package_name} declares no such function "
                                f"(it has: {', '.join(sorted(function_name(f) for f in metadata.app_functions))})")
        if function.id in ids:
            raise CassetteError(f"{label}: {key}: recorded twice (by name and by id)")
        ids.add(function.id)
        if not isinstance(entries, list):
            raise CassetteError(f"{label}: {key}: expected a list of recorded calls")
        typed[str(key)] = (function.id, [
            _typed_entry(entry, function, metadata, f"{key}[{index}]", label) for index, entry in enumerate(entries)
        ])
    return typed


def functions_by_key(metadata: AppFunctionPackageMetadata) -> dict[str, AppFunctionMetadata]:
    """Each function by its whole id, and by its short name where that is unique."""
    by_key: dict[str, AppFunctionMetadata] = {f.id: f for f in metadata.app_functions}
    names: dict[str, list[AppFunctionMetadata]] = {}
    for function in metadata.app_functions:
        names.setdefault(function_name(function), []).append(function)
    by_key.update({name: functions[0] for name, functions in names.items() if len(functions) == 1})
    return by_key


def _typed_entry(entry: Any, function: AppFunctionMetadata, metadata: AppFunctionPackageMetadata,
                 where: str, label: str) -> tuple[dict, Recorded]:
    if not isinstance(entry, Mapping):
        raise CassetteError(f"{label}: {where}: expected a mapping with parameters and a response or an error")
    unknown = sorted(set(entry) - _ENTRY_KEYS)
    if unknown:
        raise CassetteError(f"{label}: {where}: unknown key {unknown[0]!r} (an entry has parameters, response, error)")
    if ("response" in entry) == ("error" in entry):
        raise CassetteError(f"{label}: {where}: an entry has a response or an error, exactly one")
    parameters = entry.get("parameters") or {}
    try:
        document = typed_parameters(function, parameters, metadata, f"{where}.parameters")
        if "response" in entry:
            outcome: ExecuteAppFunctionResponse | AppFunctionException = ExecuteAppFunctionResponse.of(
                typed_response(function, entry["response"], metadata, f"{where}.response"))
        else:
            outcome = _recorded_error(entry["error"], f"{where}.error")
    except AppFunctionInvalidArgumentException as error:
        raise CassetteError(f"{label}: {_without_prefix(error.error_message or '')}") from None
    kept = {"parameters": parameters, **({"response": entry["response"]} if "response" in entry else {"error": entry["error"]})}
    return kept, Recorded(document, outcome)


def typed_parameters(function: AppFunctionMetadata, values: Any, metadata: AppFunctionPackageMetadata,
                     where: str) -> AppFunctionData:
    """The parameters document, each value typed as declared; errors name ``where.NAME``."""
    return parameters_from_json(function, values, metadata.components, where)


def typed_response(function: AppFunctionMetadata, value: Any, metadata: AppFunctionPackageMetadata, where: str) -> Any:
    if not function.HasField("response"):  # a v1 function: the value as JSON types it
        return parameters_from_json(None, {"value": value})["value"]
    return value_from_json(value, function.response.value_type, metadata.components, where)


def _recorded_error(error: Any, where: str) -> AppFunctionException:
    if not isinstance(error, Mapping) or "code" not in error:
        raise AppFunctionInvalidArgumentException(f"Parameter {where}: expected a mapping with code and message")
    unknown = sorted(set(error) - _ERROR_KEYS)
    if unknown:
        raise AppFunctionInvalidArgumentException(f"Parameter {where}: unknown key {unknown[0]!r} (code, message)")
    return AppFunctionException(error_code(error["code"], where), error.get("message"))


def error_code(code: Any, where: str) -> int:
    """An ``ERROR_`` name of AppFunctionException, or its number."""
    if isinstance(code, str) and code.startswith("ERROR_") and not code.startswith("ERROR_CATEGORY"):
        value = getattr(AppFunctionException, code, None)
        if isinstance(value, int):
            return value
    if isinstance(code, int) and not isinstance(code, bool) and code >= 0:
        return code
    raise AppFunctionInvalidArgumentException(
        f"Parameter {where}.code: {code!r} is not an AppFunctionException error code (e.g. ERROR_RESOURCE_NOT_FOUND or 1500)")


def _without_prefix(message: str) -> str:
    """The codec says "Parameter PATH: ..."; a cassette's paths read better bare."""
    return message.removeprefix("Parameter ")


class Cassette:
    """A cassette in the app process: the recorded calls of each function, typed."""

    def __init__(self, calls: Mapping[str, list[dict]], metadata: AppFunctionPackageMetadata, label: str) -> None:
        self._recorded = {
            function_id: [(canonical(recorded.parameters), recorded.outcome) for _, recorded in entries]
            # What this device does not index is never called here; install typed it already.
            for function_id, entries in _typed_calls({"calls": calls}, metadata, label, known_only=True).values()
        }

    @classmethod
    def read(cls, calls_file: Path, metadata: AppFunctionPackageMetadata, label: str) -> "Cassette":
        return cls(json.loads(calls_file.read_text()), metadata, label)

    def answer(self, function_id: str, parameters: AppFunctionData) -> ExecuteAppFunctionResponse | AppFunctionException | None:
        """The first recorded outcome whose parameters are these; None if none is."""
        wanted = canonical(parameters)
        for recorded, outcome in self._recorded.get(function_id, ()):
            if recorded == wanted:
                if isinstance(outcome, AppFunctionException):  # each call raises an exception of its own
                    return AppFunctionException(outcome.error_code, outcome.error_message)
                return outcome
        return None


def canonical(value: Any) -> Any:
    """A value as AppFunctionData compares it: nulls dropped (absent and null are one), each
    scalar with its kind (True is no 1, 1 is no 1.0), documents by their properties."""
    if isinstance(value, AppFunctionData):
        return ("document", tuple(sorted((k, canonical(v)) for k, v in value.items() if v is not None)))
    if isinstance(value, list):
        return ("list", tuple(canonical(v) for v in value))
    return (type(value).__name__, value)
