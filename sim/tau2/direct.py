"""The domain's app without a device: its functions called in this process.

The baseline the device's cost is measured against (bench/tau2_replay.py): the same app
code, the same database file in a folder, the same argument and result conversion, and
nothing of the device (no binder, no access checks, no access history, no worker thread).
Same interface as ``DomainApp``, so a replay runs on either.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Mapping

from droid.appfunctions import codec
from droid.appfunctions.analysis import analyze
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionFunctionNotFoundException
from droid.appfunctions.json_codec import to_json
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.compiler import build_metadata
from sim.tau2.arguments import call_parameters
from sim.tau2.data import SERVICES, Domain
from sim.tau2.device import AppStorage, CallOutcome
from sim.tau2.state import DbState, Snapshot


class DirectApp:
    """The domain's service class, instantiated here, over a database in a temporary folder."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        service_class = load_app_service_class(domain.app_dir, f"{domain.package}.{SERVICES[domain.name]}")
        self._spec = analyze(service_class)
        functions, self._components = build_metadata(self._spec, domain.package)
        self.functions = {f.id.rsplit("#", 1)[1]: f for f in functions}
        self._folder = Path(tempfile.mkdtemp(prefix="droidsim-tau2-direct-"))
        self.storage = AppStorage(domain.name, self._folder)
        self._service = service_class()
        self._service.context = SimpleNamespace(data_dir=self._folder, package_name=domain.package)

    def load(self, snapshot: Snapshot | None = None) -> None:
        self.storage.load(snapshot or self.domain.snapshot)

    def state(self) -> DbState:
        return self.storage.state()

    def call(self, name: str, arguments: Mapping[str, Any], context: Any = None) -> CallOutcome:
        function = self.functions.get(name)
        try:
            if function is None:
                raise AppFunctionFunctionNotFoundException(f"{self.domain.package} has no function {name!r}")
            spec = self._spec.function(function.id)
            kwargs = codec.decode_arguments(spec, call_parameters(function, self._components, arguments))
            result = getattr(self._service, spec.method_name)(**kwargs)
            return CallOutcome(name, arguments, result=to_json(codec.encode_value(spec.returns, result, "return value")))
        except AppFunctionException as error:
            return CallOutcome(name, arguments, error=error)

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)
