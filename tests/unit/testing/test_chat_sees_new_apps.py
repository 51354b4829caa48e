"""The interactive chat (droidsim agent without a prompt) sees apps installed after it started."""

from __future__ import annotations

import io

from droid.agent.console import run_agent_console
from tests.helpers import SAMPLE_APPS


class _Typist(io.StringIO):
    """The user's lines; before the second one, someone installs the orders app."""

    def __init__(self, device) -> None:
        super().__init__("Hello\nWhere is my order ORD-8492?\n/exit\n")
        self._device, self._lines = device, 0

    def readline(self, *args) -> str:
        self._lines += 1
        if self._lines == 2:
            self._device.install(SAMPLE_APPS / "orders")
        return super().readline(*args)


def test_a_function_installed_during_the_chat_is_called(droid_device) -> None:
    droid_device.install(SAMPLE_APPS / "system" / "assistant", system=True)
    droid_device.pregrant_agent("com.example.assistant")   # later installs are pregranted too
    out, err = io.StringIO(), io.StringIO()
    context = droid_device.device.create_context("com.example.assistant")
    status = run_agent_console(context, None, stdin=_Typist(droid_device), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert "Chatting as com.example.assistant with offline (0 functions)" in err.getvalue() + out.getvalue()
    assert "(2 functions now.)" in err.getvalue() + out.getvalue()
    assert "-> fetch_order_details" in out.getvalue()
