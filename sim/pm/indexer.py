"""index_app: what the AppFunction indexer of a device's SDK makes of an app's manifest and files.

The files it reads (sim/pm/function_files.py), each read against the app schema or the
platform's bare one (sim/pm/function_xml.py ``Reading``), and every note on what it leaves out.
Install indexes this; lint runs it for each SDK (I2) to say what a phone would miss.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from droid.appfunctions.assets import APP_FUNCTIONS_SCHEMA
from sim.platform_version import PlatformVersion
from sim.pm.dialect_xsd import check_custom_documents, parse_dialect_xsd, property_types
from sim.pm.function_files import FunctionFileError, FunctionXmlFile, function_xml_files
from sim.pm.function_xml import FunctionDocument, Reading, parse_function_xml
from sim.pm.index_notes import IndexNote
from sim.pm.install_error import InstallError
from sim.pm.manifest import Manifest, resolution_order
from sim.xmlsafe import XmlError

BAD_FUNCTION_XML = "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML"


@dataclass(frozen=True)
class IndexedFile:
    file: FunctionXmlFile
    document: FunctionDocument  # as the indexer reads it
    # As the app wrote it, for the install's check against the code: the read document, or, for
    # a v2 file read without an app schema, the file read against droid's own schema.
    as_written: FunctionDocument


@dataclass
class IndexedApp:
    files: list[IndexedFile]
    notes: list[IndexNote] = field(default_factory=list)


def index_app(manifest: Manifest, app_dir: Path, version: PlatformVersion) -> IndexedApp:
    """Every function file ``version`` indexes, read as it reads it; InstallError for a file
    the app cannot provide or a function id declared twice."""
    try:
        found = function_xml_files(manifest, app_dir, resolution_order(manifest.services), version)
    except XmlError as error:
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", str(error)) from None
    except FunctionFileError as error:
        raise InstallError(BAD_FUNCTION_XML, str(error)) from None
    indexed = IndexedApp([], list(found.notes))
    seen: dict[str, str] = {}
    for file in found.files:
        try:
            read = _read(file, manifest.package, version)
        except XmlError as error:
            raise InstallError(BAD_FUNCTION_XML, str(error)) from None
        for function in read.document.functions:
            if function.id in seen:
                raise InstallError(BAD_FUNCTION_XML, f"{file.path}: function {function.id} is also declared by {seen[function.id]}")
            seen[function.id] = str(file.path)
        indexed.files.append(read)
        indexed.notes += read.document.notes
    return indexed


def _read(file: FunctionXmlFile, package: str, version: PlatformVersion) -> IndexedFile:
    if file.format == "v1":
        document = parse_function_xml(file.path, package, file.service_name, format="v1")
        return IndexedFile(file, document, document)
    schema = None if file.schema is None else parse_dialect_xsd(file.schema)
    document = parse_function_xml(file.path, package, file.service_name, format="v2", reading=_reading(schema, version))
    if schema is not None:
        check_custom_documents(document, schema)
        return IndexedFile(file, document, document)
    written = parse_function_xml(file.path, package, file.service_name, format="v2",
                                 reading=_reading(parse_dialect_xsd(APP_FUNCTIONS_SCHEMA), version))
    return IndexedFile(file, document, written)


def _reading(schema, version: PlatformVersion) -> Reading:
    types = None if schema is None else property_types(schema, dynamic_app_functions=version.indexes_app_level_functions)
    return Reading(types, skips_undeclared=version.skips_undeclared_elements,
                   enabled_when_omitted=version.enables_omitted_enabled_by_default,
                   function_id_is_id=version.indexes_app_level_functions)
