"""The device reads an app's replies on the threads that wait for them (sim/zygote/reply_channel.py),
with no reader thread always on the socket. These are the ways that could go wrong, each made to
happen: large frames both ways at once, a call settled while its thread reads, a late answer to a
cancelled call that nobody is reading, an idle app's death, an app that closes its socket."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from droid.appfunctions import AppFunctionAppUnknownException, AppFunctionCancelledException
from droid.os import CancellationSignal
from sim.conformance.expect import eventually
from sim.conformance.target import process_alive
from tests.faults.conftest import DEADLINE, FAULTY, events, execute, shell, start_device
from tests.faults.test_cancellation import in_background, started
from tests.helpers import HELPER_PACKAGE

pytestmark = pytest.mark.e2e

MEGABYTES = 3 * 1024 * 1024


@pytest.fixture(scope="module")
def patient_device(tmp_path_factory):
    """A device whose cancellation timeout outlasts the test: nothing reads a late answer for it."""
    device = start_device(tmp_path_factory.mktemp("patient"), "--cancellation-timeout", "600")
    yield device
    device.stop()


def test_large_requests_and_replies_cross_at_once_without_a_deadlock(fault_device):
    """Each caller writes megabytes while the app writes megabytes back to another: a writer
    that cannot write reads what the app is trying to send it."""
    texts = [chr(ord("a") + n) * MEGABYTES for n in range(4)]

    def echo(text: str) -> bool:
        with shell(fault_device) as context:
            return all(execute(context, FAULTY, "echo", text=text) == text for _ in range(3))

    with ThreadPoolExecutor(len(texts)) as pool:
        answers = list(pool.map(echo, texts, timeout=DEADLINE * 4))
    assert answers == [True] * len(texts)


def test_a_large_request_gets_through_while_the_app_writes_a_large_answer_nobody_waits_for(patient_device):
    """The app answers a cancelled call with megabytes: no caller waits to read them, and the
    app reads nothing until it has written them, so the next large request's writer must."""
    with shell(patient_device) as context:
        before = len(events(patient_device, FAULTY))
        signal = CancellationSignal()
        call = in_background(lambda: execute(context, FAULTY, "answerWhenCancelled", signal, text="x" * MEGABYTES))
        started(patient_device, FAULTY, "answerWhenCancelled", before)
        signal.cancel()
        with pytest.raises(AppFunctionCancelledException):
            call.result(DEADLINE)
        text = "y" * MEGABYTES
        assert in_background(lambda: execute(context, FAULTY, "echo", text=text)).result(DEADLINE) == text


def test_cancelling_the_call_that_reads_leaves_the_other_calls_served(fault_device):
    with shell(fault_device) as context:
        before = len(events(fault_device, HELPER_PACKAGE))
        signal = CancellationSignal()
        first = in_background(lambda: execute(context, HELPER_PACKAGE, "longRunningFunction", signal))
        started(fault_device, HELPER_PACKAGE, "longRunningFunction", before)
        others = [in_background(lambda n=n: execute(context, HELPER_PACKAGE, "addAsync", a=n, b=1)) for n in range(8)]
        signal.cancel()
        with pytest.raises(AppFunctionCancelledException):
            first.result(DEADLINE)
        assert [other.result(DEADLINE) for other in others] == [n + 1 for n in range(8)]


def test_a_late_answer_to_a_cancelled_call_is_read_so_the_app_is_not_killed(fault_device):
    """No caller waits after the cancel, so nobody reads the app's answer until the
    cancellation timeout (1 s here) asks whether the app answered: it did."""
    with shell(fault_device) as context:
        pid = execute(context, FAULTY, "pid")
        before = len(events(fault_device, FAULTY))
        signal = CancellationSignal()
        call = in_background(lambda: execute(context, FAULTY, "answerWhenCancelled", signal, text="late"))
        started(fault_device, FAULTY, "answerWhenCancelled", before)
        signal.cancel()
        with pytest.raises(AppFunctionCancelledException):
            call.result(DEADLINE)
        time.sleep(3)  # three cancellation timeouts: a kill, were one coming, has happened
        assert process_alive(pid)
        assert execute(context, FAULTY, "pid") == pid


def test_an_idle_app_that_dies_is_reaped_and_the_next_call_starts_it_again(fault_device):
    with shell(fault_device) as context:
        pid = execute(context, FAULTY, "pid")
        os.kill(pid, 9)
        eventually(f"the device to reap pid {pid}", lambda: not os.path.exists(f"/proc/{pid}"), DEADLINE,
                   lambda: f"/proc/{pid}/status: {open(f'/proc/{pid}/status').read()[:200]}")
        assert execute(context, FAULTY, "pid") != pid


def test_an_app_that_closes_its_socket_fails_its_call_at_once_and_is_replaced(fault_device):
    with shell(fault_device) as context:
        pid = execute(context, FAULTY, "pid")
        with pytest.raises(AppFunctionAppUnknownException):
            in_background(lambda: execute(context, FAULTY, "closeSocket")).result(DEADLINE)
        eventually(f"pid {pid} to be killed", lambda: not process_alive(pid), DEADLINE, lambda: "it still runs")
        assert execute(context, FAULTY, "echo", text="back") == "back"
