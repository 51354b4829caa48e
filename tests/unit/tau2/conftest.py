"""τ²-bench's data, read where it is kept (never copied): ../shared/reference/benchmarks beside
the checkout, or $DROIDSIM_REFERENCE/benchmarks; the tests that need it skip, naming the path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import reference_root


def benchmarks_root() -> Path:
    return reference_root() / "benchmarks"


@pytest.fixture(scope="session")
def benchmarks() -> Path:
    root = benchmarks_root()
    if not (root / "tau2").is_dir():
        pytest.skip(f"τ²-bench's data not found at {root}: set DROIDSIM_REFERENCE to the shared/reference folder "
                    "(its benchmarks/ holds tau2/ and tau-bench-v1/) to run these tests")
    return root


@pytest.fixture(scope="session")
def retail(benchmarks):
    from sim.tau2 import load_domain

    return load_domain("retail", benchmarks / "tau2" / "retail")


@pytest.fixture(scope="session")
def airline(benchmarks):
    from sim.tau2 import load_domain

    return load_domain("airline", benchmarks / "tau2" / "airline")


@pytest.fixture(scope="session")
def airline_v1(benchmarks):
    from sim.tau2 import load_domain

    return load_domain("airline", benchmarks / "tau-bench-v1" / "airline")


def _app(domain):
    from sim.tau2 import DomainDevice

    with DomainDevice(domain) as device:
        yield device.app


# One device per domain for the session (each test loads the database it starts from).
@pytest.fixture(scope="session")
def shop(retail):
    yield from _app(retail)


@pytest.fixture(scope="session")
def desk(airline):
    yield from _app(airline)


@pytest.fixture(scope="session")
def desk_v1(airline_v1):
    yield from _app(airline_v1)
