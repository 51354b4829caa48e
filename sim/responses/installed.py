"""A code-less package's response source as installed: files the device writes into the
app's copy, read back by the app process that answers for it.

They live in the copy (device-owned, read-only to the app, kept across restarts) under a
name no app folder may use, so an app cannot plant a source of its own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

RESPONSES_DIR = ".droidsim-responses"
SOURCE_FILE = "source.json"
CASSETTE_FILE = "cassette.json"
METADATA_FILE = "metadata.pb"
DOUBLE_DIR = "double"

ON_MISS_REFUSE = "refuse"
ON_MISS_SCHEMA = "schema"
ON_MISS_CHOICES = (ON_MISS_REFUSE, ON_MISS_SCHEMA)


@dataclass(frozen=True)
class ResponseSource:
    """``cassette``: the file name it was installed from (None: no cassette); ``double``:
    the folder name of the double (None: none); ``on_miss``: refuse or schema."""

    cassette: str | None = None
    double: str | None = None
    on_miss: str = ON_MISS_REFUSE

    def describe(self) -> str:
        """One line for people: what answers, then what happens otherwise."""
        parts = [f"cassette {self.cassette}"] if self.cassette else []
        if self.double:
            parts.append(f"double {self.double}")
        otherwise = "generated from the schema" if self.on_miss == ON_MISS_SCHEMA else "refused (ERROR_NOT_SUPPORTED)"
        return f"{', then '.join(parts) or 'no response source'}; otherwise {otherwise}"


def responses_dir(app_copy: Path) -> Path:
    return app_copy / RESPONSES_DIR


def write_source(app_copy: Path, source: ResponseSource) -> None:
    folder = responses_dir(app_copy)
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)  # read by the app's process, under the app's uid; written by the device only
    path = folder / SOURCE_FILE
    path.write_text(json.dumps(asdict(source), indent=2) + "\n")
    path.chmod(0o644)


def read_source(app_copy: Path) -> ResponseSource | None:
    """The installed source; None for an app with code of its own."""
    path = responses_dir(app_copy) / SOURCE_FILE
    if not path.is_file():
        return None
    return ResponseSource(**json.loads(path.read_text()))
