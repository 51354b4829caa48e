"""observe_app_functions: observers hear about later changes they may see, and nothing else."""

from __future__ import annotations

import queue

import pytest

from droid.appfunctions.manager import AppFunctionManager
from droid.appfunctions.observe import AppFunctionName
from droid.content.context import connect
from droid.os.binder import SHELL, Binder
from droid.os.exceptions import IllegalStateException
from sim.appfunctions.observers import MAX_OBSERVERS_PER_UID
from tests.helpers import EVENT_BOUND, wait_until
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, SELF_FUNCTION, TRUSTED_FUNCTION

AGENT = "com.test.agent"
TARGET = "com.test.target"
BYSTANDER = "com.test.bystander"


class Recorder:
    """An observer whose callbacks land in a queue, run inline (the executor calls at once)."""

    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()

    def on_app_function_metadata_changed(self, package_names):
        self.events.put(("metadata", frozenset(package_names)))

    def on_app_function_states_changed(self, function_names):
        self.events.put(("states", frozenset(function_names)))

    def next(self, timeout: float = EVENT_BOUND):
        return self.events.get(timeout=timeout)  # the next callback, normally milliseconds away

    def assert_quiet(self) -> None:
        assert self.events.empty(), list(self.events.queue)


def run_inline(runnable):
    runnable()


@pytest.fixture
def device(access_device, make):
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    access_device.install(make(BYSTANDER))
    return access_device


def observe(manager: AppFunctionManager) -> tuple[Recorder, object]:
    recorder = Recorder()
    return recorder, manager.observe_app_functions(run_inline, recorder)


def set_state(device, package, function_id, state):
    with Binder.calling_as(SHELL):
        device.app_functions.set_app_function_enabled(function_id, state, package)


def test_install_state_change_and_uninstall_reach_an_agent(device, make):
    agent, _ = observe(device.create_context(AGENT).app_function_manager)
    device.install(make(TARGET))
    assert agent.next() == ("metadata", {TARGET})
    set_state(device, TARGET, TRUSTED_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    assert agent.next() == ("states", {AppFunctionName(TARGET, TRUSTED_FUNCTION)})
    device.package_manager.uninstall(TARGET)
    assert agent.next() == ("metadata", {TARGET})
    agent.assert_quiet()


def test_a_state_set_to_what_it_already_is_is_no_change(device):
    agent, _ = observe(device.create_context(AGENT).app_function_manager)
    set_state(device, BYSTANDER, TRUSTED_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_ENABLED)
    agent.assert_quiet()


def test_an_app_without_the_permission_hears_only_about_itself(device, make):
    bystander, _ = observe(device.create_context(BYSTANDER).app_function_manager)
    device.install(make(TARGET))
    set_state(device, TARGET, TRUSTED_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    bystander.assert_quiet()
    set_state(device, BYSTANDER, SELF_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    assert bystander.next() == ("states", {AppFunctionName(BYSTANDER, SELF_FUNCTION)})


def test_an_agent_never_hears_about_a_self_only_function(device):
    agent, _ = observe(device.create_context(AGENT).app_function_manager)
    set_state(device, BYSTANDER, SELF_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    agent.assert_quiet()


def test_pm_clear_reports_the_states_it_resets(device):
    set_state(device, BYSTANDER, TRUSTED_FUNCTION, AppFunctionManager.APP_FUNCTION_STATE_DISABLED)
    agent, _ = observe(device.create_context(AGENT).app_function_manager)
    with Binder.calling_as(SHELL):
        device.package_manager.clear_package_data(BYSTANDER)
    assert agent.next() == ("states", {AppFunctionName(BYSTANDER, TRUSTED_FUNCTION)})


def test_a_cancelled_observation_hears_nothing_more(device, make):
    agent, observation = observe(device.create_context(AGENT).app_function_manager)
    observation.cancel()
    observation.cancel()
    device.install(make(TARGET))
    agent.assert_quiet()


def test_one_app_may_hold_only_a_few_observations(device):
    manager = device.create_context(AGENT).app_function_manager
    observations = [observe(manager)[1] for _ in range(MAX_OBSERVERS_PER_UID)]
    with pytest.raises(IllegalStateException, match="at most"):
        observe(manager)
    observations[0].cancel()
    observe(manager)


def test_observing_across_processes_waits_for_registration(device, make):
    """Over gRPC the call returns once the device registered the observer: an install right
    after it is reported; the cancelled stream frees the slot on the device."""
    address = device.serve(f"unix:{device.data_dir / 'observe.sock'}")
    credential = (device.data_dir / "data" / AGENT / "credential").read_text().strip()
    with connect(address, credential) as context:
        agent, observation = observe(context.app_function_manager)
        device.install(make(TARGET))
        assert agent.next() == ("metadata", {TARGET})
        observation.cancel()
        # The device unregisters a cancelled stream when gRPC tells it, a moment later.
        wait_until(lambda: all_slots_free(context.app_function_manager), "the cancelled observations' slots to free")


def all_slots_free(manager) -> bool:
    held = []
    try:
        for _ in range(MAX_OBSERVERS_PER_UID):
            held.append(observe(manager)[1])
        return True
    except IllegalStateException:
        return False
    finally:
        for observation in held:
            observation.cancel()
