"""Install time: a code-less app's response source, checked against its XML and written into
the staged copy (sim/responses/installed.py) before the install commits.

Each option given replaces what the installed version had; one not given is kept, so an
update (a new build of the app) keeps its cassette and double, and must still match them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droidsim.v1.metadata_pb2 import AnswerSource
from sim.pm.install_error import InstallError
from sim.responses.cassette import CassetteError, check_cassette, read_cassette_file
from sim.responses.installed import (
    CASSETTE_FILE,
    DOUBLE_DIR,
    METADATA_FILE,
    ON_MISS_CHOICES,
    ResponseSource,
    read_source,
    responses_dir,
    write_source,
)

BAD_RESPONSES = "INSTALL_FAILED_BAD_RESPONSES"


@dataclass(frozen=True)
class ResponseOptions:
    """What ``install --responses/--double/--on-miss`` asked for; None: keep what was installed."""

    cassette: Path | None = None
    double_dir: Path | None = None
    on_miss: str | None = None

    def __post_init__(self) -> None:
        if self.on_miss is not None and self.on_miss not in ON_MISS_CHOICES:
            raise InstallError(BAD_RESPONSES, f"--on-miss must be one of {', '.join(ON_MISS_CHOICES)}, not {self.on_miss!r}")

    @property
    def given(self) -> bool:
        return any(v is not None for v in (self.cassette, self.double_dir, self.on_miss))


def response_options(message: Any | None) -> ResponseOptions:
    """The options of an InstallPackageRequest (droidsim.v1.ResponseOptions); empty fields are not given."""
    if message is None:
        return ResponseOptions()
    return ResponseOptions(
        cassette=Path(message.cassette) if message.cassette else None,
        double_dir=Path(message.double_dir) if message.double_dir else None,
        on_miss=message.on_miss or None,
    )


def double_to_stage(options: ResponseOptions, previous_copy: Path | None) -> tuple[Path, str] | None:
    """The folder whose double goes into the new copy, the one given or else the installed one,
    and how refusals name it (the staged copy is gone when they are read)."""
    if options.double_dir is not None:
        if not options.double_dir.is_dir():
            raise InstallError(BAD_RESPONSES, f"--double {options.double_dir}: not a folder")
        return options.double_dir, str(options.double_dir)
    previous = _previous_source(previous_copy)
    if previous is not None and previous.double:
        return responses_dir(previous_copy) / DOUBLE_DIR, f"{previous.double}, the double installed before"
    return None


def staged_double_dir(staging: Path) -> Path:
    return responses_dir(staging) / DOUBLE_DIR


def stage_source(
    staging: Path, options: ResponseOptions, previous_copy: Path | None, metadata: AppFunctionPackageMetadata,
    unindexed: AppFunctionPackageMetadata | None = None,
) -> list[str]:
    """Check the cassette against ``metadata`` (and the ``unindexed`` functions, which it may
    record too) and write the whole source into ``staging``; what the installer should be told."""
    previous = _previous_source(previous_copy) or ResponseSource()
    cassette_name, content = _cassette_content(options, previous, previous_copy)
    folder = responses_dir(staging)
    folder.mkdir(exist_ok=True)
    recorded: dict[str, int] = {}
    warnings = []
    if content is not None:
        try:
            checked = check_cassette(content, metadata, cassette_name, unindexed)
        except CassetteError as error:
            raise InstallError(BAD_RESPONSES, str(error)) from None
        _write(folder / CASSETTE_FILE, json.dumps(checked.calls, indent=1, ensure_ascii=False).encode())
        recorded = checked.recorded
        warnings += [f"{cassette_name}: {n} recorded call{'s' if n > 1 else ''} of {function_id} kept unused: this "
                     "device does not index that function (a device of another SDK does)"
                     for function_id, n in checked.unindexed.items()]
    double = staged_double_dir(staging)
    double_name = (options.double_dir.name if options.double_dir is not None else previous.double) if double.is_dir() else None
    source = ResponseSource(cassette=cassette_name, double=double_name, on_miss=options.on_miss or previous.on_miss)
    _write(folder / METADATA_FILE, metadata.SerializeToString())  # the app process types values by it
    write_source(staging, source)
    metadata.answers.CopyFrom(answer_source(source, recorded))
    return warnings


def answer_source(source: ResponseSource | None, recorded: dict[str, int] | None = None) -> AnswerSource:
    """What listings show; ``source`` None for an app whose own code answers."""
    if source is None:
        return AnswerSource(kind="code")
    return AnswerSource(kind="responses", cassette=source.cassette or "", double_dir=source.double or "",
                        on_miss=source.on_miss, recorded=recorded or {})


def _cassette_content(options: ResponseOptions, previous: ResponseSource, previous_copy: Path | None):
    """(file name, content) of the cassette to install, (None, None) for none."""
    try:
        if options.cassette is not None:
            return options.cassette.name, read_cassette_file(options.cassette)
        if previous.cassette and previous_copy is not None:
            calls = json.loads((responses_dir(previous_copy) / CASSETTE_FILE).read_text())
            return previous.cassette, {"calls": calls}
    except CassetteError as error:
        raise InstallError(BAD_RESPONSES, str(error)) from None
    return None, None


def _previous_source(previous_copy: Path | None) -> ResponseSource | None:
    return read_source(previous_copy) if previous_copy is not None else None


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    path.chmod(0o644)
