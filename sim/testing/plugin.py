"""The pytest plugin (entry point ``droidsim`` in the ``pytest11`` group).

- ``droid_device``: a fresh TestDevice per test, apps on threads in the test process;
- ``@pytest.mark.droid_processes``, or ``--droid-processes`` for every test: apps in their
  own OS processes instead, for tests of crashes, isolation or process state;
- ``@pytest.mark.droid_sdk(36)``, or ``--droid-sdk 36`` for every test: the Android SDK level
  the device simulates (default the newest); ``droid_sdk(36, 37)`` runs the test once on each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import pytest

from sim.platform_version import VERSIONS, platform_version

if TYPE_CHECKING:  # the device is imported by the first test that asks for one, not by pytest's start
    from sim.testing.device import TestDevice

MARKER = "droid_processes"
SDK_MARKER = "droid_sdk"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("droidsim")
    group.addoption("--droid-processes", action="store_true", default=False,
                    help="droid_device runs every app in its own OS process (default: on threads, in-process).")
    group.addoption("--droid-sdk", type=int, default=None, metavar="SDK",
                    help=f"droid_device simulates this Android SDK level ({', '.join(map(str, sorted(VERSIONS)))}; "
                         f"default the newest) in every test without a droid_sdk marker.")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: droid_device runs apps in their own OS processes")
    config.addinivalue_line("markers", f"{SDK_MARKER}(sdk, ...): droid_device simulates that Android SDK level; "
                                       "given several, the test runs once on each")
    sdk = config.getoption("--droid-sdk")
    if sdk is not None:
        try:
            _check_sdk(sdk)
        except ValueError as error:
            raise pytest.UsageError(f"--droid-sdk {sdk}: {error}") from None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A droid_sdk marker parametrizes the test by SDK (ids ``sdk36``, ``sdk37``). A value
    droidsim cannot simulate is checked when the test runs, so that it costs that test alone."""
    marker = metafunc.definition.get_closest_marker(SDK_MARKER)
    if marker is None or "droid_device" not in metafunc.fixturenames:
        return
    sdks = list(marker.args) or [_NO_SDK]
    metafunc.parametrize("droid_sdk", sdks, ids=[f"sdk{sdk}" if sdk is not _NO_SDK else "sdk" for sdk in sdks])


_NO_SDK = object()  # an empty droid_sdk marker


def _sdk_problem(sdk: object) -> str | None:
    """Why a droid_sdk marker's value cannot run (None: it can)."""
    if sdk is _NO_SDK:
        return f"name an SDK level, e.g. @pytest.mark.{SDK_MARKER}({max(VERSIONS)})"
    try:
        _check_sdk(sdk)
    except ValueError as error:
        return str(error)
    return None


def _check_sdk(sdk: object) -> None:
    if type(sdk) is not int:
        raise ValueError(f"an SDK level is an int, not {sdk!r}")
    platform_version(sdk)


@pytest.fixture
def droid_sdk(request: pytest.FixtureRequest) -> int | None:
    """The SDK level of this test's droid_device (its droid_sdk marker, else ``--droid-sdk``);
    None: the newest."""
    return request.config.getoption("--droid-sdk")


@pytest.fixture
def droid_device(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                 droid_sdk: int | None) -> Iterator["TestDevice"]:
    """A fresh device for this test; install apps with ``droid_device.install(APP)``."""
    from sim.testing.device import TestDevice

    marker = request.node.get_closest_marker(SDK_MARKER)
    problem = _sdk_problem(droid_sdk) if marker is not None else None
    if problem is not None:
        where = f"@pytest.mark.{SDK_MARKER}({', '.join(map(repr, marker.args))})"
        if type(droid_sdk) is int:  # an Android droidsim does not simulate: not this test's fault
            pytest.skip(f"{where}: {problem}")
        pytest.fail(f"{where}: {problem}", pytrace=False)
    processes = request.config.getoption("--droid-processes") or request.node.get_closest_marker(MARKER) is not None
    with TestDevice(tmp_path_factory.mktemp("droid_device"), processes=processes, sdk=droid_sdk) as device:
        yield device
