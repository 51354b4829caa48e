"""The defences that hold whether or not the device runs as root: names an app may not take,
links out of an app folder, revocation by identity, fairness between callers, listings that
show a caller only what it may see, and a device that says plainly what it cannot isolate."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from droid.appfunctions import ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionCancelledException, AppFunctionLimitExceededException
from droid.os.binder import SHELL, Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import SecurityException
from sim.appfunctions import access_history
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST
from sim.device import Device
from sim.identity import Authenticator, hash_secret
from sim.limits import CallLimits
from sim.pm.install_error import InstallError
from tests.helpers import EVENT_BOUND, wait_until
from tests.unit.access.apps import LEVELED, SELF_FUNCTION, make_app

APP = "com.test.app"
OTHER = "com.test.other"


@pytest.fixture
def device(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False, limits=CallLimits(max_calls_in_flight=2)) as device:
        yield device


def renamed(tmp_path, package: str):
    return make_app(tmp_path / "src", package, levels=LEVELED)


def test_no_install_may_take_the_shells_or_the_platforms_name(device, tmp_path):
    with pytest.raises(InstallError) as refused:
        device.install(renamed(tmp_path, "com.android.shell"), system=True)
    assert str(refused.value) == ("INSTALL_FAILED_UPDATE_INCOMPATIBLE: com.android.shell is the platform's own "
                                  "package and cannot be installed")
    with pytest.raises(InstallError) as refused:
        device.install(renamed(tmp_path, "android"), system=True)
    assert refused.value.reason == "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED"  # one segment is no package name
    assert device.registry.all() == []


def test_a_system_package_is_replaced_only_by_a_system_install(device, tmp_path):
    device.install(renamed(tmp_path, APP), system=True)
    with pytest.raises(InstallError) as refused:
        device.install(renamed(tmp_path, APP))
    assert str(refused.value) == (f"INSTALL_FAILED_UPDATE_INCOMPATIBLE: {APP} is a system package: only a system "
                                  "install (--system) may replace it")
    assert device.registry.get(APP).system
    assert device.install(renamed(tmp_path, APP), system=True).system


def test_a_package_name_longer_than_the_file_system_allows_is_a_clean_install_error(device, tmp_path):
    name = "com." + "a" * 250
    app = renamed(tmp_path, APP)
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace(f'package="{APP}"', f'package="{name}"'))
    with pytest.raises(InstallError) as refused:
        device.install(app)
    assert str(refused.value) == ("INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME: package name is 254 bytes; this device's "
                                  "file system allows at most 233")
    assert sorted(p.name for p in (device.data_dir / "app").iterdir()) == []


def test_a_link_out_of_the_app_folder_is_refused_and_one_inside_is_copied_as_a_link(device, tmp_path):
    app = renamed(tmp_path, APP)
    (app / "secret").symlink_to(device.shell_credential_file)
    with pytest.raises(InstallError) as refused:
        device.install(app)
    assert str(refused.value) == (f"INSTALL_FAILED_INVALID_APK: {app / 'secret'} links outside the app folder "
                                  f"(to {device.shell_credential_file})")
    (app / "secret").unlink()
    (app / "manifest-again.xml").symlink_to("AndroidManifest.xml")
    installed = device.install(app)
    copy = installed.app_dir / "manifest-again.xml"
    assert copy.is_symlink() and copy.readlink().name == "AndroidManifest.xml"


def test_revoking_an_identity_never_revokes_another_by_its_package_name():
    authenticator = Authenticator()
    authenticator.register(hash_secret("shell-secret"), SHELL)
    impostor = CallingIdentity(10005, SHELL.package_name)
    authenticator.register(hash_secret("impostor-secret"), impostor)
    authenticator.forget(impostor)
    assert authenticator.identify("shell-secret") == SHELL
    assert authenticator.identify("impostor-secret") is None


def call(device: Device, package: str, signal: CancellationSignal, function: str = "longRunningFunction"):
    request = ExecuteAppFunctionRequest(package, function, AppFunctionData(a=1, b=2))
    with device.create_context(package) as context:
        return context.app_function_manager.execute_app_function(request, signal)


def test_an_app_at_its_limit_of_calls_in_flight_is_refused_while_others_are_served(device, tmp_path):
    device.install(renamed(tmp_path, APP))
    device.install(renamed(tmp_path, OTHER))
    signals = [CancellationSignal(), CancellationSignal()]
    with ThreadPoolExecutor(2) as pool:
        hanging = [pool.submit(call, device, APP, signal) for signal in signals]
        events = device.registry.get(APP).data_dir / "events.log"
        wait_until(lambda: events.exists() and events.read_text().count("started longRunningFunction") == 2,
                   "the two calls to reach the app")
        with pytest.raises(AppFunctionLimitExceededException) as refused:
            call(device, APP, CancellationSignal(), SELF_FUNCTION)
        assert refused.value.error_message == (f"{APP} already has 2 calls in flight, this device's limit per app "
                                               "(droidsim device start --max-calls-in-flight)")
        # Another app and the shell are served all the while.
        assert call(device, OTHER, CancellationSignal(), SELF_FUNCTION).return_value == 3
        with device.shell_context() as shell:
            request = ExecuteAppFunctionRequest(APP, SELF_FUNCTION, AppFunctionData(a=1, b=2))
            with pytest.raises(Exception) as shell_outcome:  # the shell may not call a SELF function
                shell.app_function_manager.execute_app_function(request)
            assert not isinstance(shell_outcome.value, AppFunctionLimitExceededException)
        for signal in signals:
            signal.cancel()
        for future in hanging:
            with pytest.raises(AppFunctionCancelledException):
                future.result(timeout=EVENT_BOUND)
    assert call(device, APP, CancellationSignal(), SELF_FUNCTION).return_value == 3  # its slots are free again


def test_one_callers_flood_of_history_never_erases_anyone_elses_rows(device, monkeypatch):
    monkeypatch.setattr(access_history, "MAX_ENTRIES_PER_CALLER", 50)
    monkeypatch.setattr(access_history, "TRIM_EVERY", 10)
    quiet, flood = CallingIdentity(10001, "com.test.quiet"), CallingIdentity(10002, "com.test.flood")
    for index in range(5):
        device.access_history.record(quiet, "t", f"quiet{index}", 0, 0, None)
    for index in range(500):
        device.access_history.record(flood, "t", f"flood{index}", 0, 0, None)
    assert [e.function_identifier for e in device.access_history.entries(agent_uid=quiet.uid)] == [
        f"quiet{index}" for index in range(5)
    ]
    kept = [e.function_identifier for e in device.access_history.entries(agent_uid=flood.uid)]
    assert 50 <= len(kept) < 60 and kept[-1] == "flood499"


def test_listing_packages_shows_only_the_function_ids_the_caller_may_see(device, tmp_path):
    device.install(renamed(tmp_path, APP))
    device.install(renamed(tmp_path, OTHER))
    all_ids = {f.id for f in device.registry.get(OTHER).metadata.app_functions}
    with device.create_context(APP) as context:
        listed = {p.package_name: set(p.function_ids) for p in context.get_system_service("package").list_packages()}
    assert listed[APP] == all_ids  # its own, SELF included
    assert OTHER not in listed  # no EXECUTE_APP_FUNCTIONS nor QUERY_ALL_PACKAGES: it may not see the other app
    with device.shell_context() as shell:
        by_shell = {p.package_name: set(p.function_ids) for p in shell.get_system_service("package").list_packages()}
    assert SELF_FUNCTION not in {i.rsplit("#", 1)[-1] for i in by_shell[OTHER]}
    assert by_shell[OTHER] and by_shell[OTHER] < all_ids


def test_the_agent_allowlist_setting_is_read_only_with_manage_app_function_access(device, tmp_path):
    device.install(renamed(tmp_path, APP))
    with device.create_context(APP) as context:
        with pytest.raises(SecurityException) as refused:
            context.get_system_service("settings").get_setting(*ADDITIONAL_AGENT_ALLOWLIST)
    assert "requires android.permission.MANAGE_APP_FUNCTION_ACCESS" in str(refused.value)
    with Binder.calling_as(SHELL):
        device.settings.put_setting(*ADDITIONAL_AGENT_ALLOWLIST, APP)
    with device.shell_context() as shell:
        assert shell.get_system_service("settings").get_setting(*ADDITIONAL_AGENT_ALLOWLIST) == APP


def test_a_device_that_cannot_isolate_apps_says_so_at_boot_and_in_dumpsys(tmp_path, monkeypatch, caplog):
    import sim.device
    from sim.zygote import landlock

    monkeypatch.setattr(sim.device, "os_isolation", lambda: False)  # not root,
    monkeypatch.setattr(landlock, "abi_version", lambda: 0)  # and a kernel without Landlock
    with Device(tmp_path / "data") as device, device.shell_context() as shell:
        dump = shell.app_function_manager.dump()
    warning = next(r.getMessage() for r in caplog.records if "OS isolation" in r.getMessage())
    assert warning.startswith("OS isolation: OFF (the device runs as uid")
    assert "an app can read every credential, the shell's and device.db" in warning
    assert warning in dump.splitlines()


def test_an_in_process_device_says_its_apps_share_its_process(tmp_path):
    with Device(tmp_path / "data", isolated_apps=False) as device, device.shell_context() as shell:
        assert shell.app_function_manager.dump().splitlines()[2].startswith(
            "OS isolation: OFF (apps run on threads of the device process)"
        )
