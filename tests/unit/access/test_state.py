"""Device state: concurrent writers lose nothing, it survives a restart, `pm clear` resets an
app, and settings refuse what their reader would."""

from __future__ import annotations

import threading

import pytest

from droid.appfunctions import APP_FUNCTION_STATE_DISABLED
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_USER_GRANTED,
)
from droid.os import IllegalArgumentException, SecurityException
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST
from sim.device import Device
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, TRUSTED_FUNCTION
from tests.unit.access.conftest import allowlist_agents, execute

AGENT = "com.test.agent"
TARGETS = ("com.test.t1", "com.test.t2", "com.test.t3")
DANGEROUS = ("android.permission.READ_CONTACTS", "android.permission.READ_CALENDAR",
             "android.permission.POST_NOTIFICATIONS", "android.permission.ACCESS_FINE_LOCATION")
ROUNDS = 100


def run_together(*jobs) -> None:
    """Start every job at the same instant (a barrier) and wait for all; re-raise any failure."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        barrier.wait()
        try:
            job()
        except BaseException as error:  # noqa: BLE001 - reported to the test below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


@pytest.fixture
def device(access_device, make):
    access_device.install(make(AGENT, (EXECUTE_APP_FUNCTIONS, *DANGEROUS), levels={}), system=True)
    for target in TARGETS:
        access_device.install(make(target, levels={}))
    allowlist_agents(access_device, AGENT)
    return access_device


def test_concurrent_flag_updates_of_the_same_pairs_lose_nothing(device):
    shell = device.shell_context().app_function_manager
    groups = ((ACCESS_FLAG_PREGRANTED, ACCESS_FLAG_PREGRANTED), (ACCESS_FLAG_MASK_USER, ACCESS_FLAG_USER_GRANTED),
              (ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED))

    def toggle(target, mask, flag):
        def job():
            for _ in range(ROUNDS):
                shell.update_access_flags(AGENT, target, mask, 0)
                shell.update_access_flags(AGENT, target, mask, flag)
        return job

    run_together(*(toggle(t, mask, flag) for t in TARGETS for mask, flag in groups))
    everything = ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_USER_GRANTED | ACCESS_FLAG_OTHER_GRANTED
    assert {t: shell.get_access_flags(AGENT, t) for t in TARGETS} == dict.fromkeys(TARGETS, everything)
    data_dir = device.data_dir
    device.shutdown()
    with Device(data_dir, isolated_apps=False) as again:
        assert {t: again.access.access_flags(AGENT, t) for t in TARGETS} == dict.fromkeys(TARGETS, everything)


def test_concurrent_permission_grants_lose_nothing(device):
    pm = device.shell_context().get_system_service("package")

    def cycle(permission):
        def job():
            for _ in range(ROUNDS):
                pm.revoke_permission(AGENT, permission)
                pm.grant_permission(AGENT, permission)
        return job

    run_together(*(cycle(p) for p in DANGEROUS))
    granted = set(device.permissions.granted_permissions(device.registry.get(AGENT)))
    assert granted.issuperset(DANGEROUS)


def test_concurrent_calls_are_each_recorded_once(device):
    shell = device.shell_context().app_function_manager
    shell.update_access_flags(AGENT, TARGETS[0], ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)
    agent = device.create_context(AGENT)

    def calls():
        for _ in range(5):
            assert execute(agent, TARGETS[0], TRUSTED_FUNCTION).return_value == 3

    run_together(*(calls for _ in range(16)))
    entries = shell.get_access_history()
    assert len(entries) == 16 * 5 == len({e.id for e in entries})
    assert {e.result_code for e in entries} == {0}


def test_concurrent_enabled_overrides_lose_nothing_and_persist(device):
    functions = ("add", "addAsync", "noOp", "echoBytes")
    target = device.create_context(TARGETS[0]).app_function_manager
    run_together(*(lambda f=f: target.set_app_function_enabled(f, APP_FUNCTION_STATE_DISABLED) for f in functions))
    data_dir = device.data_dir
    device.shutdown()
    with Device(data_dir, isolated_apps=False) as again:
        metadata = {f.id: f for f in again.registry.get(TARGETS[0]).metadata.app_functions}
        assert [again.index.is_enabled(TARGETS[0], metadata[f]) for f in functions] == [False] * 4


def test_pm_clear_resets_enabled_overrides_and_data_but_keeps_the_identity(device):
    target = device.create_context(TARGETS[0])
    target.app_function_manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    (target.data_dir / "notes.txt").write_text("private")
    device.shell_context().get_system_service("package").clear_package_data(TARGETS[0])
    assert target.app_function_manager.is_app_function_enabled("add") is True
    assert not (target.data_dir / "notes.txt").exists()
    assert (target.data_dir / "credential").exists()


def test_only_the_shell_may_pm_clear(device):
    with pytest.raises(SecurityException, match="may not manage packages"):
        device.create_context(AGENT).get_system_service("package").clear_package_data(TARGETS[0])


@pytest.mark.parametrize(("table", "name", "value", "message"), [
    ("secure", "no_such_key", "x", "unknown setting: secure no_such_key \\(this device reads: "),
    (*ADDITIONAL_AGENT_ALLOWLIST, "com.a:AB12", "'com.a:AB12': a signer is named by the SHA-256 of its certificate"),
    (*ADDITIONAL_AGENT_ALLOWLIST, "com.a;;com.b", "not a package name: ''"),
    (*ADDITIONAL_AGENT_ALLOWLIST, "not a package", "not a package name: 'not a package'"),
])
def test_settings_refuse_unknown_keys_and_values_their_reader_would_refuse(device, table, name, value, message):
    settings = device.shell_context().get_system_service("settings")
    with pytest.raises(IllegalArgumentException, match=message):
        settings.put_setting(table, name, value)
    assert device.agent_allowlist.packages() == {"com.android.shell", AGENT}


def test_an_app_may_not_write_settings(device):
    with pytest.raises(SecurityException, match="may not write secure settings"):
        device.create_context(AGENT).get_system_service("settings").put_setting(*ADDITIONAL_AGENT_ALLOWLIST, AGENT)
