"""The pytest plugin (entry point ``droidsim`` in the ``pytest11`` group).

- ``droid_device``: a fresh TestDevice per test, apps on threads in the test process;
- ``@pytest.mark.droid_processes``, or ``--droid-processes`` for every test: apps in their
  own OS processes instead, for tests of crashes, isolation or process state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import pytest

if TYPE_CHECKING:  # the device is imported by the first test that asks for one, not by pytest's start
    from sim.testing.device import TestDevice

MARKER = "droid_processes"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("droidsim")
    group.addoption("--droid-processes", action="store_true", default=False,
                    help="droid_device runs every app in its own OS process (default: on threads, in-process).")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: droid_device runs apps in their own OS processes")


@pytest.fixture
def droid_device(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator["TestDevice"]:
    """A fresh device for this test; install apps with ``droid_device.install(APP_DIR)``."""
    from sim.testing.device import TestDevice

    processes = request.config.getoption("--droid-processes") or request.node.get_closest_marker(MARKER) is not None
    with TestDevice(tmp_path_factory.mktemp("droid_device"), processes=processes) as device:
        yield device
