"""Which function XML files an app ships, as the AppSearch indexer of the device's SDK finds them.

Each AppFunctionService names one file in its ``android.app.appfunctions.v2`` property (else
``android.app.appfunctions``, v1): an asset path in ``android:value`` or an ``@xml/`` resource in
``android:resource``. The dialect XSD (``android.app.appfunctions.schema``, the app schema) must
be an ``android:value``. What each SDK reads of that (PlatformVersion, with sources):

- Android 16 (AppSearch ``16-qpr2`` @333082f3, ``AppsUtil.buildAppFunctionDocumentsIntoMap``): one
  service per package, the last queryIntentServices lists; its v2 file only with an app schema,
  else its v1 file only, and that only when named by an asset path: a resource goes to
  ``parseIntoMapForGivenSchemas`` with the package's app schemas, of which it has none, so nothing
  is indexed (AppsUtil.java:342-377, 688-695; AppFunctionDocumentParserImpl.java:272); no
  application-level file.
- Android 17 (branch ``17``, ``AppFunctionsIndexerUtil``, ``AppFunctionResolveInfo``): every
  service declaring the bind permission, v2 else v1, and the application's files (a
  comma-separated list of assets, or an ``@array/`` of ``@xml/`` resources); the app schema is the
  application's, else the services' when they agree; a v2 file without one is read against the
  platform's bare AppFunctionStaticMetadata schema.

What a phone on that SDK leaves out is returned as notes, each with the change that brings it back.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Mapping

from droid.appfunctions.service import BIND_APP_FUNCTION_SERVICE
from sim.platform_version import PlatformVersion
from sim.pm.app_metadata import resolve_xml_resource
from sim.pm.index_notes import APP_LEVEL, ONE_SERVICE, IndexNote
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

# The app schema asset the AppFunctions library ships (androidx's AAR merges it into every APK;
# ``droidsim appfunctions generate`` writes droid's into a Python app).
SCHEMA_ASSET = "app_functions_schema.xsd"
_SCHEMA_PROPERTY = f'Add <property android:name="{PROPERTY_SCHEMA}" android:value="{SCHEMA_ASSET}" /> to the <service>'
ADD_SCHEMA = (f"{_SCHEMA_PROPERTY} (a Gradle build merges that asset in from androidx.appfunctions; for a Python app "
              f"droidsim appfunctions generate writes it).")
ADD_SCHEMA_KOTLIN = f"{_SCHEMA_PROPERTY} in AndroidManifest.xml (a Gradle build merges that asset in from androidx.appfunctions)."
RESOURCE_V1_FIX = ('Name the file by its asset path, android:value="NAME.xml" with the file in assets/ (droidsim '
                    "appfunctions generate writes assets/<xml_file_name>.xml for a Python app), or declare an app "
                    f"schema and name the file with {PROPERTY_FUNCTIONS_V2}.")
RESOURCE_V1_FIX_KOTLIN = ("Move the file to src/main/assets/ and name it with android:value=\"NAME.xml\", or drop your "
                          "<property> and let the AppFunctions library's merged manifest name the KSP-generated assets "
                          f"(with an app schema, so Android 16 reads {PROPERTY_FUNCTIONS_V2}).")
ONE_SERVICE_FIX = ("Declare every function in one AppFunctionService, or ship the others to Android 17 and later "
               'only (android:enabled="@bool/..." false in values/, true in values-v37/).')

_ARRAY_RESOURCE = re.compile(r"@array/([a-z0-9_]+)")


# A service of the AppFunctions library (PlatformAppFunctionService, merged from its AAR) names the files its
# KSP compiler writes into the app's assets only when the app module aggregates them: a build without that
# option has the library's manifest entries and none of the files.
_LIBRARY_PACKAGE = "androidx.appfunctions."
KSP_AGGREGATE = ("the AppFunctions library's service reads the function XML its KSP compiler writes into the APK's "
                 'assets when the app module aggregates it: ksp { arg("appfunctions:aggregateAppFunctions", "true") }, '
                 'with ksp("androidx.appfunctions:appfunctions-compiler:VERSION") in that module')


class FunctionFileError(Exception):
    """A property names a file the app does not have, or names it in a way that cannot work."""


@dataclass(frozen=True)
class FunctionXmlFile:
    path: Path
    format: Literal["v1", "v2"]
    service_name: str  # APPLICATION_LEVEL for the application's own files
    schema: Path | None  # the app schema it is read against; None: the platform's own

    @property
    def declared_by(self) -> str:
        return f"service {self.service_name}" if self.service_name else "the application"


@dataclass
class IndexedFiles:
    files: list[FunctionXmlFile]
    notes: list[IndexNote] = field(default_factory=list)


def function_xml_files(
    manifest: Manifest, app_dir: Path, services: list[ServiceDeclaration], version: PlatformVersion,
) -> IndexedFiles:
    """Every function XML file ``version``'s indexer reads, of ``services`` (the AppFunctionServices
    in queryIntentServices order, manifest.resolution_order) and, where it reads them, the
    application's; with a note for each file or service it leaves out."""
    notes: list[IndexNote] = []
    services = _services_read(manifest, services, version, notes)
    schema = _schema(manifest, app_dir, services, version, notes)
    files = [f for s in services if (f := _service_file(manifest, app_dir, s, schema, version, notes)) is not None]
    files += _application_files(manifest, app_dir, schema, version, notes)
    return IndexedFiles(files, notes)


def _services_read(
    manifest: Manifest, services: list[ServiceDeclaration], version: PlatformVersion, notes: list[IndexNote],
) -> list[ServiceDeclaration]:
    def note(service: ServiceDeclaration, message: str, fix: str, **kind: str) -> None:
        notes.append(IndexNote(manifest.file, service.line, message, fix, **kind))

    protected = f'android:permission="{BIND_APP_FUNCTION_SERVICE}"'
    if not version.binds_declaring_service and services and services[0].permission != BIND_APP_FUNCTION_SERVICE:
        note(services[0], f"Android 16 binds the first AppFunctionService, {services[0].name}, for every call of the "
                          f"package, and never one without {protected}: every call fails (ERROR_SYSTEM_ERROR).",
             f"Add {protected} to its <service>.")
    if version.indexer_requires_bind_permission:
        for service in services:
            if service.permission != BIND_APP_FUNCTION_SERVICE:
                note(service, f"Android 17 does not index service {service.name}: it lacks {protected}.",
                     f"Add {protected} to its <service>.")
        services = [s for s in services if s.permission == BIND_APP_FUNCTION_SERVICE]
    if version.indexes_every_service or len(services) < 2:
        return services
    last = services[-1]
    for service in services[:-1]:
        if _functions_property(service.properties) is not None:
            note(service, f"Android 16 indexes one AppFunctionService per package, the last PackageManager lists "
                          f"({last.name}): service {service.name}'s functions are not indexed.", ONE_SERVICE_FIX,
                 kind=ONE_SERVICE)
    return [last]


def _service_file(
    manifest: Manifest, app_dir: Path, service: ServiceDeclaration, schema: Path | None, version: PlatformVersion,
    notes: list[IndexNote],
) -> FunctionXmlFile | None:
    found = _property_read(manifest, service.properties, schema, version, notes, f"service {service.name}")
    return None if found is None else _service_xml(manifest, app_dir, service, *found, schema)


def _application_files(
    manifest: Manifest, app_dir: Path, schema: Path | None, version: PlatformVersion, notes: list[IndexNote],
) -> list[FunctionXmlFile]:
    where = "the application"
    if not version.indexes_app_level_functions:
        if (found := _functions_property(manifest.application_properties)) is not None:
            notes.append(IndexNote(manifest.file, found[0].line, "Android 16 does not read application-level function "
                                   "XML: its functions are not indexed.", "Declare them in an AppFunctionService's file.",
                                   kind=APP_LEVEL))
        return []
    found = _property_read(manifest, manifest.application_properties, schema, version, notes, where)
    return [] if found is None else _application_xml(manifest, app_dir, *found, schema)


def _application_xml(
    manifest: Manifest, app_dir: Path, entry: PropertyEntry, fmt: Literal["v1", "v2"], schema: Path | None,
) -> list[FunctionXmlFile]:
    where = "the application"
    if entry.resource is not None and _ARRAY_RESOURCE.fullmatch(entry.resource.strip()):
        paths = [_xml_resource(manifest, app_dir, PropertyEntry(None, item, entry.line), where)
                 for item in _array_items(app_dir, entry.resource.strip())]
    elif entry.resource is not None:
        paths = [_xml_resource(manifest, app_dir, entry, where)]
    else:
        paths = [_asset(manifest, app_dir, name.strip(), where) for name in entry.value.split(",") if name.strip()]
    return [FunctionXmlFile(path, fmt, APPLICATION_LEVEL, schema) for path in paths]


def _property_read(
    manifest: Manifest, properties: Mapping[str, PropertyEntry], schema: Path | None, version: PlatformVersion,
    notes: list[IndexNote], where: str,
) -> tuple[PropertyEntry, Literal["v1", "v2"]] | None:
    """The property ``version``'s indexer reads: Android 16 v2 with an app schema and v1 without
    one; Android 17 v2, else v1."""
    v2, v1 = properties.get(PROPERTY_FUNCTIONS_V2), properties.get(PROPERTY_FUNCTIONS_V1)
    if not version.reads_v2_only_with_app_schema:
        if v2 is not None and schema is None:
            notes.append(IndexNote(manifest.file, v2.line, f"{where}: without an app schema ({PROPERTY_SCHEMA}), "
                                   f"Android 17 reads its function XML with the platform's schema: each function's id, "
                                   f"enabled state and schema name, no description, parameters or response, so agents "
                                   f"cannot tell what it does or how to call it.", ADD_SCHEMA))
        return _functions_property(properties)
    if schema is not None:
        if v2 is None and v1 is not None:
            notes.append(IndexNote(manifest.file, v1.line, f"{where}: the package has an app schema ({PROPERTY_SCHEMA}), "
                                   f"so Android 16 reads only {PROPERTY_FUNCTIONS_V2}, which it does not declare: its "
                                   f"{PROPERTY_FUNCTIONS_V1} functions are not indexed.",
                                   f"Name its function XML with {PROPERTY_FUNCTIONS_V2}."))
        return None if v2 is None else (v2, "v2")
    if v2 is not None:
        instead = (f"reads its {PROPERTY_FUNCTIONS_V1} file instead, without descriptions, parameters or response"
                   if v1 is not None and v1.resource is None else "indexes none of its functions")
        notes.append(IndexNote(manifest.file, v2.line, f"{where}: Android 16 reads {PROPERTY_FUNCTIONS_V2} only when the "
                               f"package declares an app schema ({PROPERTY_SCHEMA}), so it {instead}.", ADD_SCHEMA))
    if v1 is not None and v1.resource is not None:
        notes.append(IndexNote(manifest.file, v1.line, f"{where}: its {PROPERTY_FUNCTIONS_V1} file is named by "
                               f"android:resource ({v1.resource}); Android 16 reads a resource against the package's "
                               f"app schema ({PROPERTY_SCHEMA}), and there is none, so none of its functions are indexed "
                               "(Android 17 indexes them).", RESOURCE_V1_FIX))
        return None
    return None if v1 is None else (v1, "v1")


def _functions_property(properties: Mapping[str, PropertyEntry]) -> tuple[PropertyEntry, Literal["v1", "v2"]] | None:
    """v2 beats v1."""
    if PROPERTY_FUNCTIONS_V2 in properties:
        return properties[PROPERTY_FUNCTIONS_V2], "v2"
    if PROPERTY_FUNCTIONS_V1 in properties:
        return properties[PROPERTY_FUNCTIONS_V1], "v1"
    return None


def _schema(
    manifest: Manifest, app_dir: Path, services: list[ServiceDeclaration], version: PlatformVersion,
    notes: list[IndexNote],
) -> Path | None:
    """The app schema: the application's (Android 17), else the one the services agree on
    (AppFunctionResolveInfo.getAppFunctionSchemaProperty compares getString())."""
    app = manifest.application_properties.get(PROPERTY_SCHEMA)
    if version.indexes_app_level_functions and app is not None:
        return _schema_asset(manifest, app_dir, app, "the application", notes)
    declared = [(s, s.properties[PROPERTY_SCHEMA]) for s in services if PROPERTY_SCHEMA in s.properties]
    if not declared:
        return None
    if len({entry.value for _, entry in declared}) > 1:
        notes.append(IndexNote(manifest.file, declared[1][1].line, f"the services name different {PROPERTY_SCHEMA} "
                               f"assets, so Android 17 uses none: \"Multiple conflicting schema properties found ... "
                               f"Defaulting to platform schema\".", f'Give every service android:value="{SCHEMA_ASSET}".'))
        return None
    service, entry = declared[0]
    return _schema_asset(manifest, app_dir, entry, f"service {service.name}", notes)


def _schema_asset(manifest: Manifest, app_dir: Path, entry: PropertyEntry, where: str, notes: list[IndexNote]) -> Path | None:
    if entry.value is None:
        notes.append(IndexNote(manifest.file, entry.line, f"{where}: property {PROPERTY_SCHEMA} names a resource "
                               f"({entry.resource}); the indexer reads only an asset path (android:value), so the "
                               f"package has no app schema.", f'Write android:value="{SCHEMA_ASSET}".'))
        return None
    return _asset(manifest, app_dir, entry.value, where)


def declared_function_xml_files(manifest: Manifest, app_dir: Path) -> list[FunctionXmlFile]:
    """Every function file the app ships, whatever an SDK indexes of it: each AppFunctionService's
    (v2, else v1; a disabled one's too) and the application's. A file that cannot be found is
    left out: nothing reads it."""
    files = []
    for service in manifest.services:
        if SERVICE_INTERFACE in service.actions:
            try:
                files += [f for f in [service_function_xml(manifest, app_dir, service)] if f is not None]
            except (FunctionFileError, XmlError):
                continue
    if (found := _functions_property(manifest.application_properties)) is not None:
        try:
            files += _application_xml(manifest, app_dir, *found, None)
        except (FunctionFileError, XmlError):
            pass
    return files


def service_function_xml(manifest: Manifest, app_dir: Path, service: ServiceDeclaration) -> FunctionXmlFile | None:
    """The one file a service's own property names (v2, else v1), or None."""
    found = _functions_property(service.properties)
    return None if found is None else _service_xml(manifest, app_dir, service, *found, None)


def _service_xml(
    manifest: Manifest, app_dir: Path, service: ServiceDeclaration, entry: PropertyEntry, fmt: Literal["v1", "v2"],
    schema: Path | None,
) -> FunctionXmlFile:
    where = f"service {service.name}"
    try:
        if entry.resource is not None:
            path = _xml_resource(manifest, app_dir, entry, where)
        else:
            path = _asset(manifest, app_dir, entry.value, where)
    except FunctionFileError as error:
        if not service.name.startswith(_LIBRARY_PACKAGE):
            raise
        raise FunctionFileError(f"{error}: {KSP_AGGREGATE}") from None
    return FunctionXmlFile(path, fmt, service.name, schema)


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
