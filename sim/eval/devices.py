"""A device per case, in a known state.

``DeviceSpec`` says which device a case runs on (the apps, a variant, how many
distractor apps, or a real device's address); it is plain data so that it can
travel to a worker process or a Ray task, which boots its own device from it.

An in-process device is booted once per worker from the spec and put back into
its installed state before every case by clearing every app (``pm clear``: the
app process stops and its data goes, so the next call meets a freshly started
app). That is the state a newly booted device has, at a thousandth of the cost
of booting one (bench/eval_overhead.py measures it). A real device process
(``--device``) is reset the same way, through its shell.
"""

from __future__ import annotations

import shutil
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.eval.suite import PROJECT_APPS

SYSTEM_APPS = PROJECT_APPS / "system"


class DeviceSetupError(RuntimeError):
    """The device for the run cannot be made (an app does not install, the agent is missing)."""


@dataclass(frozen=True)
class DeviceSpec:
    apps_dir: str
    agent: str
    system_apps_dir: str = str(SYSTEM_APPS)
    distractors: int = 0
    variant: str | None = None
    address: str | None = None  # a running device (data directory, unix:PATH or HOST:PORT)

    def key(self) -> tuple:
        return (self.apps_dir, self.agent, self.system_apps_dir, self.distractors, self.variant, self.address)


def package_of(app_dir: Path) -> str:
    try:
        return ET.parse(Path(app_dir) / "AndroidManifest.xml").getroot().attrib["package"]
    except (OSError, ET.ParseError, KeyError) as error:
        raise DeviceSetupError(f"{app_dir}: no readable AndroidManifest.xml with a package ({error})") from None


def app_folders(spec: DeviceSpec) -> list[Path]:
    """The app folders to install: those under apps_dir, the variant replacing its package's."""
    folders = sorted(p.parent for p in Path(spec.apps_dir).glob("*/AndroidManifest.xml"))
    if not folders:
        raise DeviceSetupError(f"no app folders (with an AndroidManifest.xml) under {spec.apps_dir}")
    if spec.variant:
        variant = Path(spec.variant)
        replaced = package_of(variant)
        kept = [f for f in folders if package_of(f) != replaced]
        if len(kept) == len(folders):
            raise DeviceSetupError(f"the variant {variant} is {replaced}, which no app under {spec.apps_dir} is")
        folders = sorted([*kept, variant])
    return folders


class EvalDevice:
    """What a case needs from a device: the shell (setup, state checks), the agent app, a reset."""

    shell: Any
    agent: Any
    packages: list[str]

    def reset(self) -> None:
        manager = self.shell.get_system_service("package")
        for package in self.packages:
            manager.clear_package_data(package)

    def close(self) -> None:
        raise NotImplementedError


class LocalEvalDevice(EvalDevice):
    """``sim.device.Device`` in this process (apps in-process too), in a temporary folder."""

    def __init__(self, spec: DeviceSpec) -> None:
        from sim.device import Device

        self._root = Path(tempfile.mkdtemp(prefix="droidsim-eval-"))
        self.device = Device(self._root / "device", isolated_apps=False)
        try:
            self.device.install_all(Path(spec.system_apps_dir), system=True)
            if self.device.registry.get(spec.agent) is None:
                raise DeviceSetupError(f"the agent app {spec.agent} is not among the system apps in {spec.system_apps_dir}")
            self.device.pregrant_agent(spec.agent)
            installed = [self._install(folder) for folder in app_folders(spec)]
            if spec.distractors:
                from sim.eval.distractors import write_distractor_apps

                for folder in write_distractor_apps(self._root / "distractors", spec.distractors):
                    installed.append(self._install(folder))
        except BaseException:
            self.close()
            raise
        self.packages = installed
        self.shell = self.device.shell_context()
        self.agent = self.device.create_context(spec.agent)

    def _install(self, folder: Path) -> str:
        try:
            return self.device.install(folder).package_name
        except Exception as error:  # noqa: BLE001 - the installer's refusal, with its reason
            raise DeviceSetupError(f"cannot install {folder}: {error}") from error

    def close(self) -> None:
        self.device.shutdown()
        shutil.rmtree(self._root, ignore_errors=True)


class RemoteEvalDevice(EvalDevice):
    """A running device process, reached over its socket; the agent acts with its own credential."""

    def __init__(self, spec: DeviceSpec) -> None:
        from droid.content.context import connect
        from sim.cli.connection import resolve

        address = resolve(spec.address)
        if address.data_dir is None:
            raise DeviceSetupError(f"no device data directory at {spec.address}: give the data directory of a "
                                   "running device (start one with `make sim`); eval reads the credentials there")
        if address.target.startswith("unix:") and not Path(address.target[5:]).exists():
            raise DeviceSetupError(f"no device is running at {spec.address}: start one with `make sim` "
                                   "or `droidsim device start`")
        try:
            self.shell = connect(address.target, address.credential_for(None))
            self.agent = connect(address.target, address.credential_for(spec.agent))
        except Exception as error:  # noqa: BLE001 - a missing credential or a device that does not answer
            message = getattr(error, "message", None) or type(error).__name__
            raise DeviceSetupError(f"cannot use the device at {spec.address}: {message}") from None
        wanted = {package_of(f) for f in app_folders(spec)}
        listed = {f.package_name for f in self.shell.app_function_manager.search_app_functions()}
        missing = sorted(wanted - listed)
        if missing:
            raise DeviceSetupError(f"the device at {spec.address} lacks the suite's apps: {', '.join(missing)}")
        self.packages = sorted(wanted)

    def close(self) -> None:
        self.shell.close()
        self.agent.close()


def open_device(spec: DeviceSpec) -> EvalDevice:
    return RemoteEvalDevice(spec) if spec.address else LocalEvalDevice(spec)


@dataclass
class DeviceCache:
    """One device per spec in a process (a worker, a Ray worker), reset before each case."""

    devices: dict[tuple, EvalDevice] = field(default_factory=dict)

    def get(self, spec: DeviceSpec) -> EvalDevice:
        device = self.devices.get(spec.key())
        if device is None:
            device = self.devices[spec.key()] = open_device(spec)
        device.reset()
        return device

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices.clear()
