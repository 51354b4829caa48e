"""Which function XML files an app ships, as the AppSearch indexer finds them.

AppSearch ``AppFunctionResolveInfo.java`` reads, for every AppFunctionService, its own
``android.app.appfunctions.v2`` property (else ``android.app.appfunctions``), one file named by
``android:value`` (an asset path) or ``android:resource`` (an ``@xml/`` resource). With
application-level functions on (Android 17), it also reads the application's property, which may
name several files: a comma-separated list of asset paths, or an ``@array/`` of ``@xml/``
resources. The dialect XSD (``android.app.appfunctions.schema``) is the application's (Android
17), else the services' when they agree; services that disagree get none.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Mapping

from sim.pm.app_metadata import resolve_xml_resource
from sim.pm.manifest import (
    PROPERTY_FUNCTIONS_V1,
    PROPERTY_FUNCTIONS_V2,
    PROPERTY_SCHEMA,
    SERVICE_INTERFACE,
    Manifest,
    PropertyEntry,
    ServiceDeclaration,
)
from sim.xmlsafe import XmlError, parse_xml

# The service name of an application-level function (AppFunctionStaticMetadata's
# APPLICATION_LEVEL_SERVICE_NAME): no AppFunctionService runs it.
APPLICATION_LEVEL = ""

_ARRAY_RESOURCE = re.compile(r"@array/([a-z0-9_]+)")


class FunctionFileError(Exception):
    """A property names a file the app does not have, or names it in a way that cannot work."""


@dataclass(frozen=True)
class FunctionXmlFile:
    path: Path
    format: Literal["v1", "v2"]
    service_name: str  # APPLICATION_LEVEL for the application's own files
    schema: Path | None

    @property
    def declared_by(self) -> str:
        return f"service {self.service_name}" if self.service_name else "the application"


def function_xml_files(
    manifest: Manifest, app_dir: Path, services: list[ServiceDeclaration], *, app_level: bool
) -> list[FunctionXmlFile]:
    """Every function XML file indexed for the app: each service's, then (with ``app_level``)
    the application's."""
    schema = _schema(manifest, app_dir, services, app_level)
    files = [f for s in services if (f := _service_file(manifest, app_dir, s, schema)) is not None]
    if app_level:
        files += _application_files(manifest, app_dir, schema)
    return files


def unindexed_function_xml_files(manifest: Manifest, app_dir: Path, *, app_level: bool) -> list[FunctionXmlFile]:
    """The function files the app ships that this device does not index: those of its disabled
    AppFunctionServices (an ``android:enabled`` that is false on this SDK) and, without
    ``app_level``, the application's. A file that cannot be found is left out: nothing reads it."""
    files = []
    for service in manifest.services:
        if SERVICE_INTERFACE in service.actions and not service.enabled:
            try:
                files.append(_service_file(manifest, app_dir, service, None))
            except (FunctionFileError, XmlError):
                continue
    if not app_level:
        try:
            files += _application_files(manifest, app_dir, None)
        except (FunctionFileError, XmlError):
            pass
    return [f for f in files if f is not None]


def service_function_xml(manifest: Manifest, app_dir: Path, service: ServiceDeclaration) -> FunctionXmlFile | None:
    """The one file a service's own property names, or None."""
    return _service_file(manifest, app_dir, service, None)


def _service_file(manifest: Manifest, app_dir: Path, service: ServiceDeclaration, schema: Path | None) -> FunctionXmlFile | None:
    found = _functions_property(service.properties)
    if found is None:
        return None
    entry, fmt = found
    where = f"service {service.name}"
    if entry.resource is not None:
        path = _xml_resource(manifest, app_dir, entry, where)
    else:
        path = _asset(manifest, app_dir, entry.value, where)
    return FunctionXmlFile(path, fmt, service.name, schema)


def _application_files(manifest: Manifest, app_dir: Path, schema: Path | None) -> list[FunctionXmlFile]:
    found = _functions_property(manifest.application_properties)
    if found is None:
        return []
    entry, fmt = found
    where = "the application"
    if entry.resource is not None and _ARRAY_RESOURCE.fullmatch(entry.resource.strip()):
        paths = [_xml_resource(manifest, app_dir, PropertyEntry(None, item, entry.line), where)
                 for item in _array_items(app_dir, entry.resource.strip())]
    elif entry.resource is not None:
        paths = [_xml_resource(manifest, app_dir, entry, where)]
    else:
        paths = [_asset(manifest, app_dir, name.strip(), where) for name in entry.value.split(",") if name.strip()]
    return [FunctionXmlFile(path, fmt, APPLICATION_LEVEL, schema) for path in paths]


def _functions_property(properties: Mapping[str, PropertyEntry]) -> tuple[PropertyEntry, Literal["v1", "v2"]] | None:
    """v2 beats v1."""
    if PROPERTY_FUNCTIONS_V2 in properties:
        return properties[PROPERTY_FUNCTIONS_V2], "v2"
    if PROPERTY_FUNCTIONS_V1 in properties:
        return properties[PROPERTY_FUNCTIONS_V1], "v1"
    return None


def _schema(manifest: Manifest, app_dir: Path, services: list[ServiceDeclaration], app_level: bool) -> Path | None:
    app = manifest.application_properties.get(PROPERTY_SCHEMA)
    if app_level and app is not None:
        return _schema_asset(manifest, app_dir, app, "the application")
    declared = {s.name: s.properties[PROPERTY_SCHEMA] for s in services if PROPERTY_SCHEMA in s.properties}
    if len({(e.value, e.resource) for e in declared.values()}) != 1:
        return None  # none, or services that disagree: "Defaulting to platform schema"
    name, entry = next(iter(declared.items()))
    return _schema_asset(manifest, app_dir, entry, f"service {name}")


def _schema_asset(manifest: Manifest, app_dir: Path, entry: PropertyEntry, where: str) -> Path:
    if entry.value is None:
        raise XmlError(manifest.file, entry.line, f"{where}: property {PROPERTY_SCHEMA} must name an asset with android:value")
    path = _asset(manifest, app_dir, entry.value, where)
    if not path.is_file():
        raise FunctionFileError(f"{manifest.file}: {PROPERTY_SCHEMA} names assets/{entry.value}, which does not exist")
    return path


def _asset(manifest: Manifest, app_dir: Path, name: str, where: str) -> Path:
    """``assets/<name>``; a name that leads out of the assets folder is refused, never read."""
    normal = os.path.normpath(name)
    if os.path.isabs(normal) or normal == ".." or normal.startswith("../"):
        raise FunctionFileError(f"{manifest.file}: {where} names assets/{name}, which is outside the app's assets")
    path = app_dir / "assets" / normal
    if not path.is_file():
        raise FunctionFileError(f"{manifest.file}: {where} names assets/{name}, which does not exist")
    return path


def _xml_resource(manifest: Manifest, app_dir: Path, entry: PropertyEntry, where: str) -> Path:
    try:
        path = resolve_xml_resource(app_dir, entry.resource)
    except ValueError as error:
        raise XmlError(manifest.file, entry.line, f"{where}: {error}") from None
    if not path.is_file():
        raise FunctionFileError(f"{manifest.file}: {where} names {entry.resource} (res/xml/{path.name}), which does not exist")
    return path


def _array_items(app_dir: Path, reference: str) -> list[str]:
    """The items of ``<array name="...">`` in res/values/*.xml, as aapt would compile it."""
    name = _ARRAY_RESOURCE.fullmatch(reference)[1]
    for values in sorted((app_dir / "res" / "values").glob("*.xml")):
        for array in parse_xml(values, what="values resource").iter("array"):
            if array.get("name") == name:
                return [(item.text or "").strip() for item in array.iter("item")]
    raise FunctionFileError(f"{reference} is not defined in res/values/ (an <array name=\"{name}\"> of @xml/ items)")
