"""parse_app: an app folder read and checked as an install needs it, before anything is copied.

Apart from the installer so that the XML stack (lxml, the schemas, the function-file
readers) loads at the first install, not at every boot: restoring installed packages never
parses XML (docs/performance.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droid.appfunctions.service import BIND_APP_FUNCTION_SERVICE
from sim.pm.app_metadata import parse_app_metadata, resolve_app_metadata
from sim.pm.code_verifier import CodeVerificationError, CodeVerifier
from sim.pm.descriptions import description_difference, function_descriptions
from sim.pm.dialect_xsd import check_custom_documents, parse_dialect_xsd
from sim.pm.function_files import APPLICATION_LEVEL, FunctionFileError, FunctionXmlFile, function_xml_files
from sim.pm.function_xml import FunctionDocument, parse_function_xml
from sim.pm.install_error import InstallError
from sim.pm.manifest import Manifest, parse_manifest
from sim.pm.registry import ManifestFacts, PermissionFacts, ServiceFacts
from sim.pm.signature import function_signature, signature_difference
from sim.responses.installed import RESPONSES_DIR
from sim.platform_version import NEWEST, PlatformVersion
from sim.xmlsafe import XmlError


@dataclass(frozen=True)
class ParsedApp:
    manifest: ManifestFacts
    metadata: AppFunctionPackageMetadata
    # No Python code at all: a Kotlin app's folder, whose answers come from a response source.
    code_less: bool = False


def has_python_code(app_dir: Path) -> bool:
    """Whether the folder holds any Python source. One that holds none is a Kotlin app's
    (manifest, res/xml, the KSP-generated XML): nothing of it runs here (docs/responses.md)."""
    for _root, dirs, names in os.walk(app_dir):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", RESPONSES_DIR)]  # a double is no code of the app's
        if any(name.endswith(".py") for name in names):
            return True
    return False


# Refuses a manifest the device cannot take as it stands (PermissionManagerService's
# check_new_definitions: a ``<permission>`` someone else owns, an unknown protection level).
ManifestCheck = Callable[[ManifestFacts], None]


def checked_manifest(app_dir: Path) -> Manifest:
    """The folder's manifest, validated as install validates it (its package among the rest)."""
    manifest_path = app_dir / "AndroidManifest.xml"
    if not manifest_path.is_file():
        raise InstallError("INSTALL_PARSE_FAILED_NOT_APK", f"{manifest_path} does not exist")
    try:
        return parse_manifest(manifest_path)
    except XmlError as error:
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", str(error)) from None


def parse_app(
    app_dir: Path, verifier: CodeVerifier, check_manifest: ManifestCheck,
    version: PlatformVersion = NEWEST, code_dir: Path | None = None, double_dir: Path | None = None,
) -> ParsedApp:
    """Everything install checks, with each refusal naming the file, line or function. The
    manifest is parsed once; ``check_manifest`` sees it before the costlier checks run.
    ``version`` decides which function files are indexed (sim/pm/function_files.py). The code
    checked is ``code_dir``'s (an install's staged copy, the code that will run), else ``app_dir``'s;
    a folder with no Python code at all is code-less: no code to check, its XML is what it offers,
    and ``double_dir``, if it exists, holds the Python doubles that stand in for its code."""
    code_dir = code_dir or app_dir
    code_less = not has_python_code(code_dir)
    manifest = checked_manifest(app_dir)
    facts = ManifestFacts(
        package=manifest.package,
        uses_permissions=tuple(manifest.uses_permissions),
        permissions=tuple(
            PermissionFacts(name=p.name, protection_level=p.protection_level) for p in manifest.permissions
        ),
        services=tuple(
            ServiceFacts(name=s.name, permission=s.permission, exported=s.exported, actions=tuple(s.actions))
            for s in manifest.services
            if s.enabled  # a disabled component is invisible to PackageManager queries
        ),
    )
    check_manifest(facts)

    metadata = AppFunctionPackageMetadata(package_name=manifest.package)
    try:
        app_metadata_file = resolve_app_metadata(manifest, app_dir)
    except XmlError as error:
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", str(error)) from None
    if app_metadata_file is not None:
        try:
            metadata.app_metadata.CopyFrom(parse_app_metadata(app_metadata_file))
        except XmlError as error:
            raise InstallError("INSTALL_PARSE_FAILED_BAD_APP_METADATA", str(error)) from None

    services = [s for s in manifest.services if s.is_app_function_service]
    for service in services:
        if service.permission != BIND_APP_FUNCTION_SERVICE:
            raise InstallError(
                "INSTALL_FAILED_INVALID_SERVICE",
                f"{manifest.file}: service {service.name} must declare "
                f'android:permission="{BIND_APP_FUNCTION_SERVICE}" (found {service.permission!r})',
            )
    try:
        files = function_xml_files(manifest, app_dir, services, app_level=version.indexes_app_level_functions)
    except XmlError as error:
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", str(error)) from None
    except FunctionFileError as error:
        raise InstallError("INSTALL_PARSE_FAILED_BAD_FUNCTION_XML", str(error)) from None
    seen: dict[str, str] = {}
    documents: list[tuple[FunctionXmlFile, FunctionDocument]] = []
    for file in files:
        try:
            document = parse_function_xml(file.path, manifest.package, file.service_name, format=file.format)
            if file.schema is not None:
                check_custom_documents(document, parse_dialect_xsd(file.schema))
        except XmlError as error:
            raise InstallError("INSTALL_PARSE_FAILED_BAD_FUNCTION_XML", str(error)) from None
        for function in document.functions:
            if function.id in seen:
                raise InstallError(
                    "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML",
                    f"{file.path}: function {function.id} is also declared by {seen[function.id]}",
                )
            seen[function.id] = str(file.path)
            metadata.app_functions.append(function)
        metadata.components.data_types.extend(document.components.data_types)
        documents.append((file, document))
    # Application-level functions run no service's code (they are registered at runtime), but a
    # service may implement them beside its own, as the CTS dynamic-schema helper's does.
    app_level_ids = frozenset(f.id for file, d in documents if file.service_name == APPLICATION_LEVEL for f in d.functions)
    for file, document in documents:
        if file.service_name == APPLICATION_LEVEL:
            continue
        if not code_less:
            _check_code(app_dir, code_dir, file.service_name, document, file.path, verifier, app_level_ids,
                        f"(regenerate it: droidsim appfunctions generate {app_dir})")
        elif double_dir is not None and double_dir.is_dir():
            _check_code(app_dir, double_dir, file.service_name, document, file.path, verifier, app_level_ids,
                        f"(droidsim responses skeleton {app_dir} DIR writes a double that matches)",
                        differs="does not match the double for", descriptions=False)
    return ParsedApp(facts, metadata, code_less)


def _check_code(
    app_dir: Path, code_dir: Path, service_name: str, document: FunctionDocument, xml_path: Path,
    verifier: CodeVerifier, app_level_ids: frozenset[str], regenerate: str, differs: str = "is stale for",
    descriptions: bool = True,
) -> None:
    """The XML must describe the code (``code_dir``'s: the app's staged copy of ``app_dir``, or its
    double): the same ids (the code may also implement ``app_level_ids``) and, for an entry point,
    the same signature of each (names, types, nullability, required, response) and the same
    descriptions (not a double's: the app's XML is what agents read, its double only answers).
    ``regenerate`` ends each refusal: how to bring the two together."""
    try:
        code = verifier.declared_code(code_dir, service_name)
    except CodeVerificationError as error:
        # The code checked is the staged copy; the user edits the source, so name that.
        message = str(error).replace(str(code_dir), str(app_dir))
        raise InstallError("INSTALL_FAILED_BAD_CODE", f"service {service_name}: {message}") from None
    if code.ids is None:
        return
    xml_ids = {f.id for f in document.functions}
    missing_in_code = sorted(xml_ids - code.ids)
    if missing_in_code:
        raise InstallError(
            "INSTALL_FAILED_FUNCTION_MISMATCH",
            f"{xml_path} declares {missing_in_code[0]}, which {service_name} does not implement {regenerate}",
        )
    missing_in_xml = sorted(code.ids - xml_ids - app_level_ids - document.unindexed_ids)
    if missing_in_xml:
        raise InstallError(
            "INSTALL_FAILED_FUNCTION_MISMATCH",
            f"{service_name} implements {missing_in_xml[0]}, which {xml_path} does not declare {regenerate}",
        )
    if code.metadata is None or document.format != "v2":  # a v1 XML declares no signature
        return
    declared = {f.id: f for f in code.metadata.app_functions}
    for function in document.functions:
        in_code = declared[function.id]
        difference = signature_difference(
            function_signature(function, document.components), function_signature(in_code, code.metadata.components)
        )
        if difference is None and descriptions:
            difference = description_difference(
                function_descriptions(function, document.components),
                function_descriptions(in_code, code.metadata.components),
            )
        if difference is not None:
            raise InstallError(
                "INSTALL_FAILED_FUNCTION_MISMATCH",
                f"{xml_path} {differs} {function.id}: {difference} {regenerate}",
            )
