"""A device per case, in a known state.

``DeviceSpec`` says which device a case runs on (the apps with their response
sources, a variant, how many distractor apps, or a running device's address); it
is plain data so that it can travel to a worker process or a Ray task, which
boots its own device from it (every absolute path in it travels along: sim/eval/bundle.py).

An in-process device is booted once per worker from the spec and put back into
its installed state before every case by clearing every app (``pm clear``: the
app process stops and its data goes, so the next call meets a freshly started
app). That is the state a newly booted device has, at a thousandth of the cost
of booting one (bench/eval_overhead.py measures it). A real device process
(``--device``) is reset the same way, through its shell, once it is seen to hold
the suite's apps as the suite gives them.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import astuple, dataclass, field, replace
from pathlib import Path
from typing import Any

from sim.eval.apps import AppSource, DeviceSetupError, package_of
from sim.pm.installed_from import APK

# The system image eval's devices boot with (the stock agent app, allowlisted): apps/system,
# linked into the package so that a wheel carries it and eval runs outside this repository.
SYSTEM_APPS = Path(__file__).with_name("system_apps").resolve()


@dataclass(frozen=True)
class DeviceSpec:
    apps: tuple[AppSource, ...]
    agent: str
    system_apps_dir: str = str(SYSTEM_APPS)
    distractors: int = 0
    variant: str | None = None  # an app folder or an APK replacing the suite's app of its package
    address: str | None = None  # a running device (data directory, unix:PATH or HOST:PORT)
    sdk: int | None = None  # the Android version (None: an in-process device's newest, a running device's own)

    def key(self) -> tuple:
        return astuple(self)


def apps_to_install(spec: DeviceSpec) -> list[AppSource]:
    """One source per app, in the suite's order; the variant, which keeps the response source
    of the app it replaces (as an update keeps it), in that app's place."""
    by_package: dict[str, AppSource] = {}
    for source in (app for entry in spec.apps for app in entry.apps()):
        package = source.package()
        if package in by_package:
            raise DeviceSetupError(source.named(f"{source.path} is {package}, as {by_package[package].path} is: "
                                                "give each app once"))
        by_package[package] = source
    if spec.variant:
        replaced = package_of(Path(spec.variant), "--variant")
        if replaced not in by_package:
            raise DeviceSetupError(f"the variant {spec.variant} is {replaced}, which none of the suite's apps is "
                                   f"({', '.join(sorted(by_package))})")
        by_package[replaced] = replace(by_package[replaced], path=spec.variant, where="--variant")
    return list(by_package.values())


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
        self.device = Device(self._root / "device", isolated_apps=False, sdk=spec.sdk)
        try:
            self.device.install_all(Path(spec.system_apps_dir), system=True)
            if self.device.registry.get(spec.agent) is None:
                raise DeviceSetupError(f"the agent app {spec.agent} is not among the system apps in {spec.system_apps_dir}")
            self.device.pregrant_agent(spec.agent)
            installed = [self._install(source) for source in apps_to_install(spec)]
            if spec.distractors:
                from sim.eval.distractors import write_distractor_apps

                for folder in write_distractor_apps(self._root / "distractors", spec.distractors):
                    installed.append(self._install(AppSource(str(folder))))
        except BaseException:
            self.close()
            raise
        self.packages = installed
        self.shell = self.device.shell_context()
        self.agent = self.device.create_context(spec.agent)

    def _install(self, source: AppSource) -> str:
        try:
            return self.device.install(Path(source.path), responses=source.install_options()).package_name
        except Exception as error:  # noqa: BLE001 - the installer's refusal, with its reason
            raise DeviceSetupError(source.named(f"cannot install {source.path}: {error}")) from error

    def close(self) -> None:
        self.device.shutdown()
        shutil.rmtree(self._root, ignore_errors=True)


class RemoteEvalDevice(EvalDevice):
    """A running device process, reached over its socket; the agent acts with its own credential."""

    def __init__(self, spec: DeviceSpec) -> None:
        from droid.content.context import connect
        from sim.cli.connection import credential_for, resolve

        address = resolve(spec.address)
        if address.data_dir is None:
            raise DeviceSetupError(f"no device data directory at {spec.address}: give the data directory of a "
                                   "running device (start one with `make sim`); eval reads the credentials there")
        if address.target.startswith("unix:") and not Path(address.target[5:]).exists():
            raise DeviceSetupError(f"no device is running at {spec.address}: start one with `make sim` "
                                   "or `droidsim device start`")
        try:
            self.shell = connect(address.target, credential_for(address, None))
            self.agent = connect(address.target, credential_for(address, spec.agent))
        except Exception as error:  # noqa: BLE001 - a missing credential or a device that does not answer
            message = getattr(error, "message", None) or type(error).__name__
            raise DeviceSetupError(f"cannot use the device at {spec.address}: {message}") from None
        try:
            if spec.sdk is not None and self.shell.sdk_int != spec.sdk:
                raise DeviceSetupError(f"the device at {spec.address} runs SDK {self.shell.sdk_int}, not --sdk "
                                       f"{spec.sdk}: drop --sdk, or start a device with --sdk {spec.sdk}")
            self.packages = _held_as_given(spec, self.shell)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.shell.close()
        self.agent.close()


def _held_as_given(spec: DeviceSpec, shell: Any) -> list[str]:
    """The suite's packages, once the running device is seen to hold each app as the suite gives
    it (the same APK, a cassette and double of the same names): else its scores would be another
    app's, or another cassette's."""
    sources = {source.package(): source for source in apps_to_install(spec)}
    held = {f.package_name: f.package_metadata for f in shell.app_function_manager.search_app_functions()}
    wrong = [(source, problem) for package, source in sources.items()
             if (problem := _difference(package, source, held.get(package)))]
    if wrong:
        problems = "; ".join(source.named(problem) for source, problem in wrong)
        commands = "; ".join(source.install_command(spec.address) for source, _ in wrong)
        raise DeviceSetupError(f"the device at {spec.address} does not hold the suite's apps as the suite gives "
                               f"them: {problems}. Install them so: {commands}")
    return sorted(sources)


def _difference(package: str, source: AppSource, held: Any) -> str | None:
    if held is None:
        return f"{package} is not installed"
    path = Path(source.path)
    if path.is_file():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if held.installed_from.kind != APK:
            return f"{package} was installed from an app folder, not from {path.name}"
        if held.installed_from.sha256 != digest:
            return (f"{package} is another build ({held.installed_from.file_name}, SHA-256 "
                    f"{held.installed_from.sha256[:12]}…; {path.name} is {digest[:12]}…)")
    for given, installed, what in ((source.responses, held.answers.cassette, "cassette"),
                                   (source.double, held.answers.double_dir, "double")):
        if given and Path(given).name != installed:
            held_now = f"{what} {installed}" if installed else f"no {what}"
            return f"{package} answers from {held_now}, not {Path(given).name}"
    return None


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
