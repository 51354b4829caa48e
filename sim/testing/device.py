"""TestDevice: a fresh device for one test, driven with Python values.

Robolectric's idea for AppFunctions: the device runs inside the test process, apps
on threads and install-time code too, so a test pays for no process start
(``processes=True`` starts each app in its own OS process and verifies each install in the
isolated verifier, as ``droidsim device start`` does, for tests of crashes, isolation or
process state). Calls go through the same pipeline as every other caller (identity,
access rules, enabled state, the access history): only the transport is skipped.

Apps install through the device's own install path, APKs and response sources included, so
a test installs exactly what ``droidsim install`` would.
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Sequence

from droid.appfunctions.analysis import analyze
from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.manager import ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_DENIED, ACCESS_FLAG_OTHER_GRANTED
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    ExecuteAppFunctionRequest,
)
from droid.appfunctions.typeref import ObjectSpec
from droid.content.context import Context
from droidsim.v1.app_function_manager_pb2 import AccessHistoryEntry
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, parse_agent_list, serialize_agent_list
from sim.device import Device

if TYPE_CHECKING:
    from droid.agent.diagnosis import AgentDiagnosis
from sim.pm.code_verifier import InProcessCodeVerifier
from sim.pm.decoded_apks import DecodedApks
from sim.pm.registry import InstalledPackage
from sim.responses.generated import GENERATED_EXTRA
from sim.responses.service import NO_ANSWER_EXTRA
from sim.responses.staging import ResponseOptions
from sim.testing.agent import AgentRun, run_agent
from sim.testing.functions import (
    CodeTyping,
    FunctionName,
    FunctionRef,
    NoAnswerError,
    choose,
    function_of,
    spec_of,
)
from sim.pm.unindexed import Unindexed
from sim.testing.metadata_values import AppTypes, MetadataTyping

# One for every device of the test run: a suite that installs app-debug.apk in each test
# decodes it once (sim/pm/decoded_apks.py).
DECODED_APKS = DecodedApks()


class GeneratedAnswerWarning(UserWarning):
    """A call answered with a value generated from the schema (``on_miss="schema"``), not by
    anything the app recorded or a double computed."""


@dataclass(frozen=True)
class InstalledApp:
    """An app installed on a TestDevice. A Python app's service classes load from its folder
    (so ``app.service.fetch_order_details`` is a function reference for ``call``); an app
    without code of its own (an APK, a code-less folder) has its object types generated from
    its metadata (``generated_types``)."""

    package_name: str
    uid: int
    function_ids: tuple[str, ...]
    source: Path
    service_names: tuple[str, ...]
    generated_types: AppTypes | None = None
    # What the device's indexer left out of what the app declares, and what else install warned of
    # (the "Warning:" lines of droidsim install).
    install_notes: tuple[str, ...] = ()

    @property
    def service(self) -> type:
        """The app's AppFunctionService class (the first, when it declares several)."""
        if not self.service_names:
            raise LookupError(f"{self.package_name} declares no AppFunctionService")
        return self.service_class(self.service_names[0])

    def service_class(self, service_name: str) -> type:
        if self.generated_types is not None:
            names = ", ".join(repr(f.rsplit("#", 1)[-1]) for f in self.function_ids) or "none"
            raise LookupError(f"{self.package_name} has no Python service class: its code does not run on droidsim "
                              f"(a response source answers for it); call its functions by name ({names})")
        return load_app_service_class(self.source, service_name)

    @property
    def types(self) -> SimpleNamespace:
        """The app's serializable classes by class name (``app.types.Subtask``, ``app.types.Balance``):
        the classes ``call`` returns, and the ones to build arguments with."""
        if self.generated_types is not None:
            return self.generated_types.namespace()
        classes: dict[str, type] = {}
        for name in self.service_names:
            service = self.service_class(name)
            if issubclass(service, AppFunctionServiceEntryPoint):
                classes |= {c.cls.__name__: c.cls for c in analyze(service).components if isinstance(c, ObjectSpec)}
        return SimpleNamespace(**dict(sorted(classes.items())))


class Caller:
    """Calls made as one installed package (or the shell): what that caller may do is
    decided by the device's rules, exactly as for an app on the device."""

    def __init__(self, device: "TestDevice", context: Context) -> None:
        self._device = device
        self.context = context

    @property
    def package_name(self) -> str:
        return self.context.package_name

    @property
    def manager(self):
        """The caller's AppFunctionManager, for anything this class does not wrap."""
        return self.context.app_function_manager

    def call(self, function: FunctionName, /, **parameters: Any) -> Any:
        """Run ``function`` with Python values; returns the declared return type and raises
        the AppFunctionException subclass of the error code on failure (NoAnswerError when
        the app's response source has no answer)."""
        ref = self._device.function(function)
        request = ExecuteAppFunctionRequest(ref.package_name, ref.function_id, ref.parameters(parameters))
        try:
            response = self.manager.execute_app_function(request)
        except AppFunctionException as error:
            if NO_ANSWER_EXTRA not in error.extras:
                raise
            raise NoAnswerError(error.error_message or "", package_name=ref.package_name, function_id=ref.function_id,
                                parameters=to_json(request.parameters)) from None
        if GENERATED_EXTRA in response.extras:
            warnings.warn(GeneratedAnswerWarning(f"{ref.function_id}: {response.extras[GENERATED_EXTRA]}"), stacklevel=2)
        return ref.result(response.return_value)

    def is_enabled(self, function: FunctionName) -> bool:
        ref = self._device.function(function)
        return self.manager.is_app_function_enabled(ref.function_id, ref.package_name)

    def set_enabled(self, function: FunctionName, enabled: bool | None) -> None:
        """``True`` / ``False``, or ``None`` for the XML's default (set-enabled --state default)."""
        ref = self._device.function(function)
        state = {True: APP_FUNCTION_STATE_ENABLED, False: APP_FUNCTION_STATE_DISABLED, None: APP_FUNCTION_STATE_DEFAULT}
        self.manager.set_app_function_enabled(ref.function_id, state[enabled], ref.package_name)

    def visible_functions(self) -> list[str]:
        """The full ids this caller's search returns."""
        return [f.id for f in self.manager.search_app_functions()]


class TestDevice:
    """A device in a fresh data directory; ``close()`` (or the fixture) removes nothing
    you did not ask for: pytest keeps ``tmp_path`` for the last runs. ``sdk``: the Android
    SDK level it simulates (36, 37; default the newest), as ``droidsim device start --sdk``."""

    __test__ = False  # not a test class, whatever pytest's name pattern says

    def __init__(self, data_dir: Path | None = None, *, processes: bool = False, sdk: int | None = None) -> None:
        self._own_dir = None if data_dir is not None else tempfile.mkdtemp(prefix="droidsim-test-")
        self.data_dir = Path(data_dir or self._own_dir)
        self.processes = processes
        # With real processes install-time code runs where the device runs it, in the isolated
        # verifier, so what the isolation line says holds for installs too; on threads it runs here.
        verifier = None if processes else InProcessCodeVerifier()
        self.device = Device(self.data_dir, isolated_apps=processes, verifier=verifier, decoded_apks=DECODED_APKS,
                             sdk=sdk)
        if processes:  # app processes reach the device over its socket, as on a booted device
            self._socket_dir = tempfile.mkdtemp(prefix="droidsim-")  # short: sun_path has 108 bytes
            self.device.serve(f"unix:{self._socket_dir}/device.sock")
        self.shell = Caller(self, self.device.shell_context())
        self._sources: dict[str, Path] = {}  # package -> the folder a test installed it from
        self._types: dict[str, tuple[bytes, AppTypes]] = {}  # package -> its metadata's types, by its components

    @property
    def sdk(self) -> int:
        return self.device.version.sdk_int

    # -- apps --------------------------------------------------------------------------------------
    def install(self, app: str | Path, *, system: bool = False, responses: str | Path | None = None,
                double: str | Path | None = None, on_miss: str | None = None) -> InstalledApp:
        """``droidsim install APP [--responses CASSETTE] [--double DIR] [--on-miss refuse|schema]``:
        an app folder or an APK; a code-less app's answers from a cassette, a double, or neither."""
        source = Path(app).resolve()
        options = ResponseOptions(
            cassette=None if responses is None else Path(responses).resolve(),
            double_dir=None if double is None else Path(double).resolve(),
            on_miss=on_miss,
        )
        package = self.device.install(source, system, options)
        self._sources[package.package_name] = source
        return self._app(package, source)

    def install_all(self, apps_root: str | Path, *, system: bool = False) -> list[InstalledApp]:
        """Every app folder directly under ``apps_root`` (as ``droidsim install`` takes it)."""
        roots = sorted(p.parent for p in Path(apps_root).resolve().glob("*/AndroidManifest.xml"))
        return [self.install(root, system=system) for root in roots]

    def uninstall(self, package_name: str) -> None:
        self.device.package_manager.uninstall(package_name)
        self._sources.pop(package_name, None)

    def _app(self, package: InstalledPackage, source: Path) -> InstalledApp:
        services = tuple(dict.fromkeys(f.service_name for f in package.metadata.app_functions))
        types = None if _has_code(package) else self._types_of(package)
        return InstalledApp(package.package_name, package.uid, tuple(f.id for f in package.metadata.app_functions),
                            source, services, types, package.install_notes)

    def _types_of(self, package: InstalledPackage) -> AppTypes:
        """One AppTypes per package while its metadata's types stay the same, so that equal
        values of one type are of one class across calls."""
        components = package.metadata.components.SerializeToString(deterministic=True)
        kept = self._types.get(package.package_name)
        if kept is None or kept[0] != components:
            kept = self._types[package.package_name] = (components, AppTypes(package.metadata.components))
        return kept[1]

    # -- callers -----------------------------------------------------------------------------------
    def caller(self, package_name: str) -> Caller:
        """Calls made as ``package_name`` (installed), to test who may call what."""
        return Caller(self, self.device.create_context(package_name))

    def call(self, function: FunctionName, /, **parameters: Any) -> Any:
        """``shell.call``: as com.android.shell, which may call every function, as ``adb shell`` can."""
        return self.shell.call(function, **parameters)

    def function(self, name: FunctionName, package: str | None = None) -> FunctionRef:
        """The function ``name`` means: a method of an entry point class, a full id, or its
        declared name after ``#`` (``fetch_order_details``, ``getBalance``) when one installed
        package declares it."""
        if isinstance(name, FunctionRef):
            return name
        cls = None
        if callable(name):
            cls, name = function_of(name)
        installed_packages = self.device.registry.all()
        candidates = [(p.package_name, f.id) for p in installed_packages for f in p.metadata.app_functions]
        unindexed = [Unindexed(p.package_name, u.function_id, u.reason) for p in installed_packages for u in p.metadata.unindexed]
        package_name, function_id = choose(name, candidates, package, unindexed, self.sdk)
        installed = self.device.registry.get(package_name)
        metadata = next(f for f in installed.metadata.app_functions if f.id == function_id)
        spec = None
        if _has_code(installed):  # the classes of the folder the test installed, as InstalledApp's
            cls = cls or load_app_service_class(self._sources.get(package_name, installed.app_dir), metadata.service_name)
            spec = spec_of(cls, function_id)
        components = installed.metadata.components
        typing = CodeTyping(spec) if spec is not None else MetadataTyping(metadata, components, self._types_of(installed))
        return FunctionRef(package_name, function_id, metadata, components, typing)

    # -- state the shell would set -----------------------------------------------------------------
    def set_enabled(self, function: FunctionName, enabled: bool | None) -> None:
        self.shell.set_enabled(function, enabled)

    def is_enabled(self, function: FunctionName) -> bool:
        return self.shell.is_enabled(function)

    def grant_permission(self, package_name: str, permission: str) -> None:
        self.device.package_manager.grant_permission(package_name, permission)

    def revoke_permission(self, package_name: str, permission: str) -> None:
        self.device.package_manager.revoke_permission(package_name, permission)

    def allowlist_agents(self, *package_names: str) -> None:
        """``cmd app_function set-additional-allowlisted-agents``: replaces the previous ones."""
        self.device.settings.put_setting(*ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list(parse_agent_list(";".join(package_names))))

    def grant_access(self, agent: str, target: str) -> None:
        """``cmd app_function grant-app-function-access`` (OTHER_GRANTED)."""
        self.shell.manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)

    def revoke_access(self, agent: str, target: str) -> None:
        self.shell.manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_DENIED)

    def pregrant_agent(self, package_name: str) -> list[str]:
        """An installed system app as the device's preinstalled agent (``--pregrant-agent``)."""
        return self.device.pregrant_agent(package_name)

    def process_id(self, package_name: str) -> int | None:
        """The OS process the app runs in (``processes=True``), None while it runs on a thread
        of this process or is not running."""
        host = self.device.processes.running().get(package_name)
        return getattr(host, "pid", None)

    # -- what happened -----------------------------------------------------------------------------
    def history(self, agent: str | None = None) -> list[AccessHistoryEntry]:
        """Every execution attempt, oldest first (only ``agent``'s when given), denials included."""
        entries = self.device.access_history.entries()
        return [e for e in entries if agent is None or e.agent_package_name == agent]

    def clear_history(self) -> None:
        self.device.access_history.clear()

    # -- agents ------------------------------------------------------------------------------------
    def agent_diagnosis(self, agent_package: str) -> "AgentDiagnosis":
        """What ``agent_package`` holds and lacks as an agent, as droidsim agent --as and mcp --as
        say it (droid.agent.diagnosis): ``lines()``, ``refusal``, ``own_functions``, ``targets``."""
        from droid.agent.diagnosis import diagnose

        return diagnose(self.device.create_context(agent_package))

    def run_agent(self, agent_package: str, prompt: str, script: Sequence[Any], **options: Any) -> AgentRun:
        """Run ``prompt`` through an agent as ``agent_package`` whose model follows ``script``;
        see sim.testing.agent.run_agent."""
        if self.device.registry.get(agent_package) is None:
            raise LookupError(
                f"{agent_package} is not installed: install the agent app first (system=True, then "
                f"pregrant_agent({agent_package!r})); droidsim's stock one is sim.testing.STOCK_ASSISTANT "
                f"(com.example.assistant), in an installed droidsim too")
        return run_agent(self.device.create_context(agent_package), self.function, prompt, script, **options)

    # -- lifetime ----------------------------------------------------------------------------------
    def close(self) -> None:
        self.device.shutdown()
        if self.processes:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
        if self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)

    def __enter__(self) -> "TestDevice":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _has_code(package: InstalledPackage) -> bool:
    """Whether the app's own Python code answers (else a response source does: an APK, a code-less folder)."""
    return package.metadata.answers.kind != "responses"
