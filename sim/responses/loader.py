"""The service class an app process runs for a service: the app's own, or, for a code-less
app, the ResponseService that answers from its response source."""

from __future__ import annotations

from pathlib import Path

from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.service import AppFunctionService
from sim.responses.service import service_class_for


def load_service_class(app_dir: Path, service_name: str) -> type[AppFunctionService]:
    return service_class_for(Path(app_dir), service_name) or load_app_service_class(app_dir, service_name)
