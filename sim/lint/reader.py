"""Reads one app folder into the lint's model, from its XML and its code.

For each AppFunction service the manifest declares: with ``import_code`` (the
CLI) a declared ``AppFunctionServiceEntryPoint`` is the source of truth; any
other service, or code that fails to load, is read from its function XML, with
its methods found statically in the source. Without ``import_code`` (install)
only the static path is used, so no app code runs.
"""

from __future__ import annotations

import os
from pathlib import Path

from droid.appfunctions.loader import AppLoadError
from droid.appfunctions.typeref import AppFunctionCompileError
from sim.lint.code_reader import attach_static, attach_static_types, read_entry_point, service_module_path
from sim.lint.model import App
from sim.lint.source import ModuleCache, SourceError
from sim.lint.xml_reader import LintInputError, function_xml_path, read_function_xml, read_manifest_side

__all__ = ["LintInputError", "read_app"]

_SKIPPED_DIRS = {"__pycache__", ".pytest_cache", ".git"}


def read_app(app_dir: Path, *, import_code: bool, cache: ModuleCache | None = None) -> App:
    app_dir = Path(app_dir)
    cache = cache or ModuleCache()
    side = read_manifest_side(app_dir)
    app = App(app_dir, side.manifest.package, side.description, side.scope, services=[s.name for s in side.services])
    for path in python_files(app_dir):
        try:
            app.modules.append(cache.get(path))
        except SourceError as e:
            app.notes.append(str(e))
    fresh_import = True  # the app's modules are imported anew once per run, as generate does
    for index, service in enumerate(side.services):
        declared = None
        if import_code and service_module_path(app_dir, service.name) is not None:
            try:
                declared = read_entry_point(app_dir, service.name, app.package, cache, reload=fresh_import)
                fresh_import = False
            except (AppLoadError, AppFunctionCompileError, SourceError, OSError) as e:
                app.notes.append(f"{service.name}: its code did not load, so its XML is linted instead: {e}")
        if declared is None:
            path = function_xml_path(app_dir, side, index)
            if path is None:
                continue
            functions, types, linted = read_function_xml(path, app.package, service.name)
            if not linted:
                app.notes.append(f"{path}: a legacy v1 function XML has no descriptions, so it is not linted")
                continue
            attach_static(app_dir, service.name, functions, cache)
            attach_static_types(types, app.modules)
            declared = functions, types
        functions, types = declared
        for function in functions:
            function.service = service.name
        app.functions.extend(functions)
        for name, info in types.items():
            app.types.setdefault(name, info)
    app.assign_type_owners()
    return app


def python_files(app_dir: Path) -> list[Path]:
    found = []
    for root, dirs, names in os.walk(app_dir):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        found.extend(Path(root) / n for n in sorted(names) if n.endswith(".py"))
    return found
