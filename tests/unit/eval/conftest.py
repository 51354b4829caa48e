from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sim.eval.suite import load_suite

SHIPPED = Path(__file__).resolve().parents[3] / "sim" / "eval" / "suites" / "sample-apps.yaml"
RUN_DATE = dt.date(2026, 3, 14)


@pytest.fixture(scope="session")
def shipped():
    return load_suite(SHIPPED)


def write_suite(tmp_path: Path, text: str, name: str = "suite.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
