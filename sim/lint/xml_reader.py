"""The XML side of an app: manifest, app metadata and function XML, with lines.

The device's own parsers (sim.pm) validate each file and turn it into platform
metadata, exactly as install does. They drop comments and keep no line numbers,
so each file is read a second time here, comments kept, to locate every
function, parameter and shared type (lxml ``sourceline``) and to collect the
``<!-- droidsim-lint: ... -->`` directives. The second read is safe: the file
has already passed ``sim.xmlsafe`` (size, DTD and entity limits).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from sim.lint.directives import Directive, parse_directive
from sim.lint.model import Function, Parameter, Scope, TypeInfo
from sim.pm.app_metadata import parse_app_metadata, resolve_app_metadata
from sim.pm.function_files import FunctionFileError, service_function_xml
from sim.pm.function_xml import parse_function_xml
from sim.pm.manifest import Manifest, ServiceDeclaration, parse_manifest, resolution_order
from sim.xmlsafe import XmlError
from sim.pm.app_folders import not_an_app_folder

# Types every app may reference; they are the platform's, not the app's to describe.
PLATFORM_TYPE_PREFIXES = ("java.", "javax.", "kotlin.", "android.", "androidx.")


class LintInputError(Exception):
    """An app the lint cannot read (no manifest, invalid XML, missing file)."""


@dataclass
class ManifestSide:
    manifest: Manifest
    description: str
    scope: Scope  # app-level findings and their directives
    services: list[ServiceDeclaration]  # AppFunction services, in queryIntentServices order


def read_manifest_side(app_dir: Path) -> ManifestSide:
    manifest_path = app_dir / "AndroidManifest.xml"
    if not manifest_path.is_file():
        raise LintInputError(not_an_app_folder(app_dir))
    try:
        manifest = parse_manifest(manifest_path)
        metadata_path = resolve_app_metadata(manifest, app_dir)
        metadata = parse_app_metadata(metadata_path) if metadata_path is not None else None
    except XmlError as e:
        raise LintInputError(str(e)) from None

    application = _with_comments(manifest_path).find("application")
    directives = [] if application is None else _directives(application.iterchildren(etree.Comment), manifest_path)
    if metadata_path is not None:
        root = _with_comments(metadata_path)
        comments = [*root.itersiblings(etree.Comment, preceding=True), *root.iter(etree.Comment)]
        scope = Scope(str(metadata_path), root.sourceline or 1)
        directives += _directives(comments, metadata_path)
    else:
        scope = Scope(str(manifest_path), application.sourceline if application is not None else 1)
    scope.directives = directives
    services = resolution_order(manifest.services)
    return ManifestSide(manifest, metadata.description if metadata else "", scope, services)


def function_xml_path(app_dir: Path, side: ManifestSide, index: int) -> Path | None:
    """The function XML the ``index``-th AppFunction service's own property names."""
    try:
        file = service_function_xml(side.manifest, app_dir, side.services[index])
    except (XmlError, FunctionFileError) as e:
        raise LintInputError(str(e)) from None
    return None if file is None else file.path


def read_function_xml(
    path: Path, package: str, service_name: str
) -> tuple[list[Function], dict[str, TypeInfo], bool]:
    """The functions and shared types of one function XML file, located by line.
    The flag is False for a legacy v1 file, which has no descriptions to lint."""
    if not path.is_file():
        raise LintInputError(f"{path}: the manifest names this function XML, but it does not exist")
    try:
        document = parse_function_xml(path, package, service_name)
    except XmlError as e:
        raise LintInputError(str(e)) from None
    if document.format == "v1":
        return [], {}, False
    root = _with_comments(path)
    elements = {_id_of(e): e for e in root.findall("appfunction")}
    functions = []
    for metadata in document.functions:
        element = elements[metadata.id]
        scope = Scope(str(path), element.sourceline or 1, metadata.id, _directives(element.iter(etree.Comment), path))
        parameters = [
            Parameter(p, e.sourceline or scope.line) for p, e in zip(metadata.parameters, element.findall("parameters"))
        ]
        functions.append(Function(metadata, scope, parameters))

    types: dict[str, TypeInfo] = {}
    component_elements = root.findall("AppFunctionComponentMetadataDocument/dataTypes")
    for named, element in zip(document.components.data_types, component_elements):
        properties = element.findall("dataTypeMetadata/properties")
        types[named.name] = TypeInfo(
            name=named.name,
            metadata=named.data_type,
            scope=Scope(str(path), element.sourceline or 1, None, _directives(element.iter(etree.Comment), path)),
            defined_by_app=not named.name.startswith(PLATFORM_TYPE_PREFIXES),
            property_lines={
                p.name: e.sourceline or 1 for p, e in zip(named.data_type.properties, properties)
            },
        )
    return functions, types, True


def _with_comments(path: Path) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=False)
    return etree.parse(str(path), parser).getroot()


def _id_of(element: etree._Element) -> str:
    found = element.find("id")
    return " ".join((found.text or "").split()) if found is not None else ""


def _directives(comments, file: Path) -> list[Directive]:
    found = []
    for comment in comments:
        directive = parse_directive(comment.text or "", str(file), comment.sourceline or 1)
        if directive is not None:
            found.append(directive)
    return found
