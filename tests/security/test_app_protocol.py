"""An app that breaks the protocol with the device fails its own calls at once; it cannot leave
them, or their callers, waiting (sim/zygote/hosts.py). Holds with or without root."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from droid.appfunctions.exceptions import AppFunctionAppUnknownException
from sim.device import Device
from tests.helpers import copy_app
from tests.security.test_doors import INTRUDER, INTRUDER_APP, intrude


def test_an_undecodable_reply_fails_the_call_at_once_and_ends_the_app(open_folder):
    with Device(open_folder / "data") as device:
        device.install(copy_app(INTRUDER_APP, open_folder / "apps"))
        with ThreadPoolExecutor(1) as pool:
            call = pool.submit(intrude, device, "sendUndecodableReply")
            # No deadline is set: before the fix the call waited for ever. The timeout only
            # keeps a regression from hanging the suite.
            with pytest.raises(AppFunctionAppUnknownException) as failed:
                call.result(timeout=120)
        assert failed.value.error_message.startswith("Failed to connect to AppFunctionService: app process died")
        # Defence: the device kills an app that sent a bad frame; its next call starts it afresh.
        assert INTRUDER not in device.processes.running()
        assert intrude(device, "letGo") == "0"
