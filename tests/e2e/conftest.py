from __future__ import annotations

import pytest

from tests.helpers import HELPER_APP, SAMPLE_APPS, DeviceProcess

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def device_process(tmp_path_factory):
    """A real device process with the sample apps and the CTS helper installed."""
    data = tmp_path_factory.mktemp("device") / "data"
    device = DeviceProcess(data, SAMPLE_APPS, HELPER_APP.parent)
    yield device
    device.stop()
