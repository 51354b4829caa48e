"""Apps each within their own limits cannot, all together, take the device from the shell:
what all app uids hold of the gRPC server's workers (calls and streams) is bounded, and the
rest is kept for the shell, root and the system (sim/server/worker_budget.py). Holds with or
without root: the bound is the device's own."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from droid.appfunctions import ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionCancelledException, AppFunctionLimitExceededException
from droid.content.context import connect
from droid.os.cancellation import CancellationSignal
from sim.appfunctions.observers import MAX_OBSERVERS_PER_UID
from sim.device import Device
from sim.limits import CallLimits
from sim.server.grpc_server import MAX_WORKERS
from sim.server.worker_budget import RESERVED_WORKERS
from tests.unit.access.apps import LEVELED, make_app

APPS = 8
CALLS_PER_APP = 12  # with its observations, each app holds 16: 8 apps would hold all 128 workers
assert APPS * (CALLS_PER_APP + MAX_OBSERVERS_PER_UID) == MAX_WORKERS
APP_SHARE = MAX_WORKERS - RESERVED_WORKERS


class Unheard:
    """An observer; no change happens while the test runs."""

    def on_app_function_metadata_changed(self, package_names) -> None:
        pass

    def on_app_function_states_changed(self, function_names) -> None:
        pass


def test_apps_each_at_their_limits_leave_the_shell_its_workers(tmp_path):
    limits = CallLimits(max_calls_in_flight=CALLS_PER_APP)
    with Device(tmp_path / "data", isolated_apps=False, limits=limits) as device:
        packages = [f"com.test.fair{n}" for n in range(APPS)]
        for package in packages:
            device.install(make_app(tmp_path / "src", package, levels=LEVELED))
        address = device.serve()
        contexts = [connect(address, device.registry.get(p).credential_file.read_text().strip()) for p in packages]
        observations = [ctx.app_function_manager.observe_app_functions(lambda task: task(), Unheard())
                        for ctx in contexts for _ in range(MAX_OBSERVERS_PER_UID)]
        signals: list[CancellationSignal] = []

        def hang(context) -> object:
            signal = CancellationSignal()
            signals.append(signal)
            request = ExecuteAppFunctionRequest(context.package_name, "longRunningFunction", AppFunctionData(a=1, b=2))
            try:
                return context.app_function_manager.execute_app_function(request, signal)
            except Exception as error:  # the outcome is what the test reads
                return error

        with ThreadPoolExecutor(APPS * CALLS_PER_APP) as pool:
            calls = [pool.submit(hang, ctx) for ctx in contexts for _ in range(CALLS_PER_APP)]
            # Every call is either held (it never returns until cancelled) or refused at once.
            expected_refusals = APPS * (CALLS_PER_APP + MAX_OBSERVERS_PER_UID) - APP_SHARE
            deadline = time.monotonic() + 180
            while sum(call.done() for call in calls) < expected_refusals:
                assert time.monotonic() < deadline, "the calls beyond the apps' share were not refused"
                time.sleep(0.05)
            refused = [call.result() for call in calls if call.done()]
            assert len(refused) == expected_refusals
            assert all(isinstance(outcome, AppFunctionLimitExceededException) for outcome in refused), refused[:3]
            assert f"installed apps already hold {APP_SHARE} of this device's workers" in refused[0].error_message
            # Defence: the reserved workers: the shell is served while apps hold all they may.
            shell_secret = device.shell_credential_file.read_text().strip()
            with ThreadPoolExecutor(1) as shell_pool:
                served = shell_pool.submit(lambda: connect(address, shell_secret).get_system_service("package").list_packages())
                assert len(served.result(timeout=120)) >= APPS
            for signal in list(signals):
                signal.cancel()
            held = [call.result(timeout=120) for call in calls if call.result(timeout=120) not in refused]
            assert held and all(isinstance(outcome, AppFunctionCancelledException) for outcome in held)
        for observation in observations:
            observation.cancel()
        for ctx in contexts:
            ctx.close()
