"""Access history: every execution attempt, readable by the caller for its own calls, by
managers and dumpsys for all."""

from __future__ import annotations

import pytest

from droid.appfunctions import AppFunctionException, access_fixes
from droid.appfunctions.manager import ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED
from droid.os import SecurityException
from tests.helpers import wait_until
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, TRUSTED_FUNCTION
from tests.unit.access.conftest import allowlist_agents, execute

AGENT = "com.test.agent"
TARGET = "com.test.target"


@pytest.fixture
def device(access_device, make):
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
    access_device.install(make(TARGET))
    allowlist_agents(access_device, AGENT)
    return access_device


def attempt(context, target, function_id):
    try:
        execute(context, target, function_id)
    except AppFunctionException:
        pass


def test_every_attempt_is_recorded_with_its_outcome(device):
    agent = device.create_context(AGENT)
    attempt(agent, TARGET, "add")                                   # no grant yet: denied
    device.shell_context().app_function_manager.update_access_flags(
        AGENT, TARGET, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)
    attempt(agent, TARGET, TRUSTED_FUNCTION)                        # success
    attempt(agent, TARGET, "nope")                                  # not found
    attempt(agent, TARGET, "add_disabledByDefault")                 # disabled
    attempt(agent, "", "add")                                       # invalid argument
    entries = agent.app_function_manager.get_access_history()
    uid = device.registry.get(AGENT).uid
    assert [(e.agent_package_name, e.agent_uid, e.target_package_name, e.function_identifier, e.result_code,
             e.result_message) for e in entries] == [
        (AGENT, uid, TARGET, "add", 1000, "Caller does not have permission to execute the appfunction: "
                                          f"{access_fixes.not_granted(AGENT, TARGET)}"),
        (AGENT, uid, TARGET, TRUSTED_FUNCTION, 0, ""),
        (AGENT, uid, TARGET, "nope", 1003, "App function not found."),
        (AGENT, uid, TARGET, "add_disabledByDefault", 1002, "The app function is disabled"),
        (AGENT, uid, "", "add", 1001, "Target package name cannot be empty."),
    ]
    assert all(e.access_time_millis > 0 and e.duration_millis >= 0 for e in entries)
    assert [e.id for e in entries] == sorted(e.id for e in entries)


def test_a_caller_reads_its_own_history_and_a_manager_reads_all(device):
    attempt(device.create_context(AGENT), TARGET, "add")
    attempt(device.create_context(TARGET), TARGET, "add")
    assert {e.agent_package_name for e in device.create_context(TARGET).app_function_manager.get_access_history()} == {TARGET}
    shell = device.shell_context().app_function_manager
    assert [e.agent_package_name for e in shell.get_access_history()] == [AGENT, TARGET]
    shell.clear_access_history()
    assert shell.get_access_history() == []


def test_uninstall_drops_the_packages_history(device):
    attempt(device.create_context(AGENT), TARGET, "add")
    attempt(device.create_context(TARGET), TARGET, "add")
    device.package_manager.uninstall(AGENT)
    assert [e.agent_package_name for e in device.shell_context().app_function_manager.get_access_history()] == [TARGET]


def test_dumpsys_shows_levels_allowlist_flags_and_history(device):
    shell = device.shell_context().app_function_manager
    shell.update_access_flags(AGENT, TARGET, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)
    attempt(device.create_context(AGENT), TARGET, "add")
    text = shell.dump()
    assert "Agent allowlist: com.android.shell, com.test.agent" in text
    assert f"  {AGENT} uid={device.registry.get(AGENT).uid} privileged roles=agent,target" in text
    assert "    add accessLevel=self enabled=true" in text
    assert f"  {AGENT} -> {TARGET}: OTHER_GRANTED (GRANTED)" in text
    assert f"{AGENT} (uid {device.registry.get(AGENT).uid}) -> {TARGET} add " in text
    assert "ERROR_DENIED (1000): Caller does not have permission to execute the appfunction" in text


def test_only_the_shell_may_dump(device):
    with pytest.raises(SecurityException, match="may not dump the app_function service"):
        device.create_context(AGENT).app_function_manager.dump()


def stored_attempts(device) -> list[tuple]:
    """What the database file holds, read by a connection of its own: what a SIGKILL keeps."""
    import sqlite3

    with sqlite3.connect(device.store.path) as db:
        return db.execute("SELECT agent_package, function_id FROM access_history ORDER BY id").fetchall()


def test_attempts_reach_the_database_without_anyone_reading_them(device):
    attempt(device.create_context(AGENT), TARGET, "add")
    wait_until(lambda: stored_attempts(device), "the writer to store the attempt")
    assert stored_attempts(device) == [(AGENT, "add")]


@pytest.fixture
def slow_writer(monkeypatch):
    """The writer thread waits an hour before it writes: only flushes write."""
    from sim.appfunctions import access_history

    monkeypatch.setattr(access_history, "WRITE_DELAY", 3600)


def test_a_clean_shutdown_writes_every_queued_attempt(slow_writer, device):
    from sim.device import Device

    data = device.data_dir
    for _ in range(3):
        attempt(device.create_context(AGENT), TARGET, "add")
    assert stored_attempts(device) == []
    device.shutdown()
    with Device(data, isolated_apps=False) as restarted:
        assert stored_attempts(restarted) == [(AGENT, "add")] * 3


def test_an_uninstall_deletes_the_packages_queued_attempts_in_its_own_transaction(slow_writer, device):
    attempt(device.create_context(AGENT), TARGET, "add")
    attempt(device.create_context(TARGET), TARGET, "add")
    device.package_manager.uninstall(AGENT)
    # Committed before the uninstall's transaction, not left queued to be written after it.
    assert stored_attempts(device) == [(TARGET, "add")]


def test_a_long_queue_is_committed_whole_and_in_order(slow_writer, device):
    """More entries than one statement carries (a writer that fell behind): one read commits all."""
    from droid.os.binder import CallingIdentity
    from sim.appfunctions.access_history import WRITE_BATCH

    agent = CallingIdentity(device.registry.get(AGENT).uid, AGENT)
    for n in range(WRITE_BATCH * 2 + 3):
        device.access_history.record(agent, TARGET, f"f{n}", 1, 0, None)
    assert [e.function_identifier for e in device.access_history.entries()] == [f"f{n}" for n in range(WRITE_BATCH * 2 + 3)]
