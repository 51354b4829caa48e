"""Which app folders a path given on the command line stands for.

An app folder holds ``AndroidManifest.xml``; any other folder stands for the app folders
directly in it (``*/AndroidManifest.xml``, as ``device start --apps`` reads them). install,
lint and generate all read their arguments this way, and refuse a folder that is neither
after one look at it and its children, never walking the tree below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

MANIFEST = "AndroidManifest.xml"


class NotAnAppFolder(ValueError):
    """The path is no app folder and holds none."""


def app_folders(paths: Iterable[Path | str]) -> list[Path]:
    return [folder for path in paths for folder in app_folders_in(Path(path))]


def app_folders_in(path: Path) -> list[Path]:
    if (path / MANIFEST).is_file():
        return [path]
    children = sorted(p.parent for p in path.glob(f"*/{MANIFEST}"))
    if not children:
        raise NotAnAppFolder(not_an_app_folder(path))
    return children


def not_an_app_folder(path: Path) -> str:
    return f"{path} is not an app folder (it has no {MANIFEST}) and holds no app folders (*/{MANIFEST})"
