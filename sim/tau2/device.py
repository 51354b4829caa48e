"""A domain's app on a device: its database loaded, calls run through the device, its end state read.

``DomainApp`` works on any ``sim.device.Device`` (an eval's device too): it installs the
domain's app if the device lacks it, writes a database into the app's own storage
(``load``: the reset between cases, a file written while the app keeps running; ``pm clear``
also resets, and the next ``load`` gives the app a database again), runs calls as the
shell or as any caller through the device's AppFunction pipeline, and reads the database
back from the app's storage (``state``), as AndroidWorld reads an app's. ``DomainDevice`` is
a device of its own in a temporary folder holding just that app (apps on threads, or in
processes of their own with ``processes=True``).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from sim import safe_files
from sim.tau2.appkit import DATABASE_FILE
from sim.tau2.arguments import call_parameters
from sim.tau2.data import Domain
from sim.tau2.state import DbState, Snapshot
from sim.tau2.storage import read_changes
from sim.zygote.specialize import os_isolation

# A database file larger than this is not one the loader wrote.
MAX_DATABASE_BYTES = 1 << 30


@dataclass(frozen=True)
class CallOutcome:
    """What one call did: its JSON result, or the error the device or the app raised."""

    name: str
    arguments: Mapping[str, Any]
    result: Any = None
    error: AppFunctionException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def error_json(self) -> dict[str, Any]:
        assert self.error is not None
        return {"function": self.name, "code": self.error.error_name, "message": self.error.error_message}


class AppStorage:
    """An app's database file in its data folder: written whole to reset it, read back after a case."""

    def __init__(self, domain: str, folder: Path, owner: int | None = None) -> None:
        self.domain, self.folder, self.owner = domain, folder, owner
        self._snapshot: Snapshot | None = None

    def load(self, snapshot: Snapshot) -> None:
        if snapshot.domain != self.domain:
            raise ValueError(f"a {snapshot.domain} database cannot be loaded into the {self.domain} app")
        self.folder.mkdir(parents=True, exist_ok=True)
        safe_files.write_file(self.folder, DATABASE_FILE, snapshot.image, mode=0o600, owner=self.owner, durable=False)
        self._snapshot = snapshot

    def state(self) -> DbState:
        if self._snapshot is None:
            raise RuntimeError("no database was loaded into the app: call load() first")
        image = safe_files.read_file(self.folder / DATABASE_FILE, MAX_DATABASE_BYTES)
        return DbState(self._snapshot, read_changes(image, self._snapshot.texts))


class DomainApp:
    """The domain's app on ``device``; see the module docstring."""

    def __init__(self, device: Any, domain: Domain) -> None:
        self.device = device
        self.domain = domain
        package = device.registry.get(domain.package) or device.install(domain.app_dir)
        self.package = package
        self.functions = {f.id.rsplit("#", 1)[1]: f for f in package.metadata.app_functions}
        self._shell = device.shell_context()
        owner = device.os_user.os_uid(package.uid) if os_isolation() else None
        self.storage = AppStorage(domain.name, package.data_dir, owner)

    def load(self, snapshot: Snapshot | None = None) -> None:
        """Give the app a fresh copy of ``snapshot`` (default: the domain's database as loaded)."""
        self.storage.load(snapshot or self.domain.snapshot)

    def state(self) -> DbState:
        """The app's database now: the snapshot last loaded and what changed since."""
        return self.storage.state()

    def call(self, name: str, arguments: Mapping[str, Any], context: Any = None) -> CallOutcome:
        """Run the function ``name`` (a τ² tool's name) with a recorded call's arguments, as
        ``context`` (default: the shell). An unknown name is the device's own not-found error."""
        context = context or self._shell
        function = self.functions.get(name)
        function_id = function.id if function else f"{self.package.package_name}#{name}"
        try:
            parameters = call_parameters(function, self.package.metadata.components, arguments) if function else None
            request = ExecuteAppFunctionRequest(self.package.package_name, function_id, parameters)
            response = context.app_function_manager.execute_app_function(request)
        except AppFunctionException as error:
            return CallOutcome(name, arguments, error=error)
        return CallOutcome(name, arguments, result=to_json(response.return_value))


class DomainDevice:
    """A device of its own with the domain's app installed and its database loaded."""

    def __init__(self, domain: Domain, *, processes: bool = False) -> None:
        from sim.device import Device
        from sim.pm.code_verifier import InProcessCodeVerifier

        self._root = Path(tempfile.mkdtemp(prefix="droidsim-tau2-"))
        try:
            self.device = Device(self._root / "device", isolated_apps=processes,
                                 verifier=None if processes else InProcessCodeVerifier())
            if processes:  # app processes reach the device over its socket, as on a booted device
                self.device.serve(f"unix:{self._root}/device.sock")
            self.app = DomainApp(self.device, domain)
            self.app.load()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        device = getattr(self, "device", None)
        if device is not None:
            device.shutdown()
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> "DomainDevice":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
