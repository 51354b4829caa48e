"""Fixtures for the lint tests: small app folders written on the fly."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from tests.helpers import write_generated_app

CORPUS = Path(__file__).resolve().parent / "corpus"

WriteApp = Callable[..., Path]


@pytest.fixture
def write_app(tmp_path: Path) -> WriteApp:
    """``write_app(name, source, description=...)``: an app whose module ``<name>.py``
    is the prelude (``from droid.appfunctions import *``, ``SERVICE``) plus
    ``source``, which defines ``class FunctionService`` with ``service_name = SERVICE``.
    Its function XML is generated, as for a real app."""

    def write(name: str, source: str, *, description: str) -> Path:
        return write_generated_app(tmp_path, name, source, description=description)

    return write


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A private copy of a corpus app that a test may edit."""

    def copy(name: str) -> Path:
        target = tmp_path / "copies" / name
        shutil.copytree(CORPUS / name, target, ignore=shutil.ignore_patterns("__pycache__"))
        return target

    return copy

