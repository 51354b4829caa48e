"""Device: system_server in one object, usable in-process or served over gRPC.

It wires the system services together (package manager, app function manager,
process manager), restores installed packages from the data directory, and
hands out Contexts: local ones whose calls go straight to the service objects,
and, once served, an address that remote Contexts reach over gRPC.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any

from droid.appfunctions.access_flag_numbering import valid_flags
from droid.content.context import Context
from droid.os.binder import SHELL, Binder, CallingIdentity
from sim.appfunctions.access_history import AccessHistory
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.appfunctions.agent_allowlist import AgentAllowlist
from sim.appfunctions.caller_validator import CallerValidator
from sim.appfunctions.dump import dump_app_functions
from sim.appfunctions.index import FunctionIndex
from sim.appfunctions.observers import AppFunctionObservers
from sim.appfunctions.pregrants import AgentPregrants
from sim.appfunctions.service_impl import AppFunctionManagerServiceImpl
from sim.data.settings import SettingsProvider
from sim.data.store import DeviceStore
from sim.identity import Authenticator, ensure_shell_credential
from sim.limits import CallLimits
from sim.platform_version import NEWEST, PlatformVersion, platform_version
from sim.permissions.service import PermissionManagerService
from sim.pm.code_verifier import CodeVerifier, InProcessCodeVerifier
from sim.pm.decoded_apks import DecodedApks
from sim.pm.installer import PackageInstaller, package_from_row, source_hash
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.pm.service import PackageManagerService
from sim.responses.staging import ResponseOptions
from sim.zygote.process_manager import DEFAULT_CANCELLATION_TIMEOUT, ProcessManager
from sim.zygote.os_user import OsUser, claim_os_user, unclaimed_user
from sim.zygote.specialize import (
    isolation_status,
    kill_every_process_of,
    os_isolation,
    restrict_to_owner,
    uids_running,
)

log = logging.getLogger("droidsim.device")

SOCKET_NAME = "device.sock"
# Not a Context service on Android (Settings and DeviceConfig are providers); named here so
# the shell's `settings` and `device_config` commands reach it like any other service.
SETTINGS_SERVICE = "settings"
# The system property Build.VERSION.SDK_INT reads, kept with the device's state.
SDK_PROPERTY = "ro.build.version.sdk"
OS_USER_PROPERTY = "droidsim.os_user"  # the device's own, never a setting (sim/zygote/os_user.py)


class LocalBinder:
    """A service seen from an in-process caller: direct calls, run as that caller."""

    def __init__(self, service: Any, identity: CallingIdentity) -> None:
        self._service = service
        self._identity = identity

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._service, name)
        if not callable(method):
            return method
        identity, service = self._identity, self._service

        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            with Binder.calling_as(identity):
                # Looked up per call: a service method replaced later (a test's patch) is the one called.
                return getattr(service, name)(*args, **kwargs)

        # Kept: __getattr__ runs only for names not yet set, so the next call skips building it.
        setattr(self, name, call)
        return call


class LocalServiceManager:
    def __init__(self, device: "Device", identity: CallingIdentity) -> None:
        self._device = device
        self._identity = identity

    def get_service(self, name: str) -> Any:
        return LocalBinder(self._device.service(name), self._identity)

    def sdk_int(self) -> int:
        return self._device.version.sdk_int


def _settle_version(store: DeviceStore, data_dir: Path, sdk: int | None) -> PlatformVersion:
    """The version the data directory was created with; a new one takes ``sdk``, else the
    newest. A device never changes version: its installed packages were indexed by its rules."""
    stored = store.setting(SDK_PROPERTY)
    if stored is None:
        version = NEWEST if sdk is None else platform_version(sdk)
        store.put_setting(SDK_PROPERTY, str(version.sdk_int))
        return version
    version = platform_version(int(stored))
    if sdk is not None and sdk != version.sdk_int:
        raise ValueError(
            f"the device in {data_dir} runs SDK {version.sdk_int} ({version.name}); start it with "
            f"--sdk {version.sdk_int}, or give --sdk {sdk} a new --data directory"
        )
    return version


def _claim_user(store: DeviceStore) -> OsUser:
    """The Linux uids of this device's apps and verifier, apart from any other device's: the
    user it had before where that is free, so its apps keep their uids across restarts."""
    if not os_isolation():
        return unclaimed_user()
    stored = store.setting(OS_USER_PROPERTY)
    user = claim_os_user(int(stored) if stored is not None else None)
    if stored != str(user.user_id):
        store.put_setting(OS_USER_PROPERTY, str(user.user_id))
    return user


class Device:
    def __init__(
        self,
        data_dir: Path,
        *,
        isolated_apps: bool = True,
        cancellation_timeout: float = DEFAULT_CANCELLATION_TIMEOUT,
        limits: CallLimits = CallLimits(),
        sdk: int | None = None,
        verifier: CodeVerifier | InProcessCodeVerifier | None = None,
        decoded_apks: DecodedApks | None = None,
    ) -> None:
        """``verifier`` reads each installed app's code; by default a helper process, so that
        app code never runs in system_server (sim.testing, whose apps run in its own process
        anyway, passes an InProcessCodeVerifier). ``decoded_apks``: the APKs decoded lately,
        by default this device's own (sim.testing shares one among the devices of a test run)."""
        self.data_dir = Path(data_dir).resolve()
        self.limits = limits
        self.os_isolation = isolated_apps and os_isolation()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Apps and the verifier walk through the data directory to their own folders, and
        # can neither list nor read it.
        self.data_dir.chmod(0o711 if os_isolation() else 0o700)
        self.address: str | None = None
        self.app_address: str | None = None
        self._server = None
        self.store = DeviceStore(self.data_dir / "device.db")
        try:
            self.version = _settle_version(self.store, self.data_dir, sdk)
            self.os_user = _claim_user(self.store)
        except (ValueError, OSError):
            self.store.close()
            raise
        restrict_to_owner(self.data_dir / "device.db")
        self.registry = PackageRegistry()
        self.index = FunctionIndex(self.store)
        self.authenticator = Authenticator()
        self.verifier = verifier or CodeVerifier(self.os_user.isolated_uids() if os_isolation() else None)
        self.processes = ProcessManager(
            isolated=isolated_apps,
            device_address=lambda: self.app_address,
            local_context=self.create_context,
            cancellation_timeout=cancellation_timeout,
            os_isolation=self.os_isolation,
            os_uid=self.os_user.os_uid,
        )
        self.installer = PackageInstaller(
            self.data_dir, self.store, self.verifier, self.version, self.os_user.os_uid, traversable=os_isolation(),
            decoded_apks=decoded_apks,
        )
        self.settings = SettingsProvider(self.store)
        self.permissions = PermissionManagerService(self.store, self.registry, self.version)
        self.agent_allowlist = AgentAllowlist(self.settings, self.permissions, self.registry)
        self.access = AppFunctionAccessService(self.store, self.registry, self.permissions, self.agent_allowlist,
                                               valid_flags(self.version.sdk_int))
        self.access_history = AccessHistory(self.store)
        self.pregrants = AgentPregrants(self.registry, self.access, self.settings)
        validator = CallerValidator(self.registry, self.permissions, self.access, self.version)
        self.package_manager = PackageManagerService(
            self.registry, self.index, self.installer, self.authenticator, self.permissions,
            self._stop_app, self._package_added, self._package_removed,
            validator.visible_function_ids,
        )
        self.index.listener = self.observers = AppFunctionObservers(validator, self.index)
        self.app_functions = AppFunctionManagerServiceImpl(
            self.registry, self.index, validator, self.processes, self.permissions, self.access,
            self.access_history, self._dump, self.observers, limits, self.version,
        )
        self.shell_credential_file = ensure_shell_credential(self.data_dir, self.authenticator)
        self._restore()
        self.isolation = isolation_status(isolated_apps, self.os_isolation, self.processes.landlock_abi)
        if isolated_apps and not self.os_isolation:  # never silently pretend (docs/security.md)
            log.warning("%s", " ".join(self.isolation))

    def _restore(self) -> None:
        """Bring back every committed install; drop what a crash left half-written, and end
        any process a crashed device's apps left running under their uids."""
        running = uids_running() if self.os_isolation else set()
        for row in self.store.packages():
            package = package_from_row(row, self.installer.data_dir_for(row.package_name))
            self.package_manager.adopt(package, row.credential_hash)
            if self.os_user.os_uid(row.uid) in running:
                kill_every_process_of(self.os_user.os_uid(row.uid))
            self._bind_allowlists(package)  # a data directory from before allowlists were bound
        self.installer.collect_garbage(self.registry.all())

    def _stop_app(self, package_name: str) -> None:
        """Before an uninstall, an update or ``pm clear``: the app's process ends, and the queued
        history is committed, so an uninstall's one transaction deletes all of the package's."""
        self.processes.stop(package_name)
        self.access_history.flush()

    def _package_added(self, package: InstalledPackage) -> list[str]:
        """After an install: what the install's output says besides (sim/pm/signed_packages.py)."""
        notes = self._bind_allowlists(package)
        self.pregrants.package_added(package)
        return notes

    def _bind_allowlists(self, package: InstalledPackage) -> list[str]:
        return self.permissions.package_added(package) + self.agent_allowlist.package_added(package)

    def _package_removed(self, package_name: str) -> None:
        """Everything the device keeps about a package besides the package itself."""
        self.permissions.forget_package(package_name)
        self.agent_allowlist.package_removed(package_name)
        self.access.forget_package(package_name)
        self.access_history.forget_package(package_name)

    def _dump(self) -> str:
        return dump_app_functions(
            self.registry, self.index, self.permissions, self.access, self.agent_allowlist, self.access_history,
            self.isolation,
        )

    def service(self, name: str) -> Any:
        services = {
            Context.APP_FUNCTION_SERVICE: self.app_functions,
            Context.PACKAGE_SERVICE: self.package_manager,
            SETTINGS_SERVICE: self.settings,
        }
        if name not in services:
            raise KeyError(f"no system service named {name!r}")
        return services[name]

    # packages
    def install(self, app_dir: Path, system: bool = False, responses: ResponseOptions = ResponseOptions()) -> InstalledPackage:
        """``responses``: where a code-less app's answers come from (docs/responses.md)."""
        return self.package_manager.install(Path(app_dir), system, responses)

    def install_all(self, apps_root: Path, system: bool = False) -> list[InstalledPackage]:
        """Every app folder directly under ``apps_root``; an app installed unchanged, and as
        ``system`` asks, is kept (an app moved into the system image is installed again)."""
        installed = {(p.source_hash, p.system): p for p in self.registry.all()}
        packages = []
        for app_dir in sorted(p.parent for p in Path(apps_root).glob("*/AndroidManifest.xml")):
            current = installed.get((source_hash(app_dir), system))
            packages.append(current or self.install(app_dir, system))
        return packages

    def pregrant_agent(self, package_name: str) -> list[str]:
        """Make an installed system app the device's preinstalled agent: on the DeviceConfig
        agent allowlist, with PREGRANTED access to every target, later installs included
        (docs/access-control.md). Returns the targets pregranted now."""
        return self.pregrants.pregrant_agent(package_name)

    # contexts
    def create_context(self, package_name: str) -> Context:
        """An in-process Context of an installed package (trusted: same process)."""
        package = self.registry.get(package_name)
        if package is None:
            raise KeyError(f"{package_name} is not installed")
        identity = CallingIdentity(package.uid, package.package_name)
        package.data_dir.mkdir(parents=True, exist_ok=True)
        return Context(package_name, LocalServiceManager(self, identity), package.data_dir)

    def shell_context(self) -> Context:
        return Context(SHELL.package_name, LocalServiceManager(self, SHELL))

    # serving
    def serve(self, listen: str | None = None) -> str:
        from sim.server.app_socket import publish_address
        from sim.server.grpc_server import DeviceServer

        server = DeviceServer(self, listen or f"unix:{self.data_dir / SOCKET_NAME}")
        server.start()
        self._server = server
        self.address = server.address
        self.app_address = server.app_address
        if self.app_address != self.address:  # an isolating device's app socket
            publish_address(self.data_dir, self.app_address)
        log.info("serving on %s", self.address)
        return self.address

    def shutdown(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
            from sim.server.app_socket import ADDRESS_FILE

            (self.data_dir / ADDRESS_FILE).unlink(missing_ok=True)
        self.processes.stop_all()
        self.verifier.close()
        self.access_history.close()
        self.store.close()
        self.os_user.release()

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
