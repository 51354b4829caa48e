"""Shared fixtures. Reference data is read in place, never copied into the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def reference_root() -> Path:
    """``DROIDSIM_REFERENCE`` if set, else ../shared/reference beside the checkout."""
    return Path(os.environ.get("DROIDSIM_REFERENCE", REPO.parent / "shared" / "reference"))


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    root = reference_root()
    if not root.is_dir():
        pytest.skip(
            f"reference data not found at {root}: set DROIDSIM_REFERENCE to the shared/reference "
            "folder (AOSP and AndroidX files) to run these tests"
        )
    return root
