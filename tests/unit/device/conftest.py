from __future__ import annotations

from pathlib import Path

import pytest

from sim.device import Device
from tests.helpers import HELPER_APP


@pytest.fixture
def device(tmp_path: Path):
    """An in-process device (apps on threads) with the CTS helper app installed."""
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(HELPER_APP)
        yield device
