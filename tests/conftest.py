"""Shared fixtures. Reference data is read in place, never copied into the project."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Devices the tests start register themselves (sim/running_devices.py) in a registry of the
# test run's own, inherited by every process they start, never in the user's ~/.droidsim.
os.environ.setdefault("DROIDSIM_HOME", tempfile.mkdtemp(prefix="droidsim-home-"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`make test` (-n 2 --dist loadfile --no-loadscope-reorder) hands files to its workers in
    collection order: files marked ``slow`` go first, so the run does not end with one worker on a
    long file of few tests (which xdist's default order, most tests first, puts last) and the other idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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


@pytest.fixture
def own_zygotes(monkeypatch):
    """For a test that counts the verifier zygotes of its own devices: none left waiting in this
    process by an earlier test's devices (sim/pm/code_verifier.py hands them on), and no code
    remembered as verified by them (sim/pm/verified_code.py), so that each install verifies."""
    from sim.pm import code_verifier
    from sim.pm.code_verifier import end_idle_zygotes
    from sim.pm.verified_code import VerifiedCode

    monkeypatch.setattr(code_verifier, "_VERIFIED", VerifiedCode())
    end_idle_zygotes()
    yield
    end_idle_zygotes()
