"""parse_app: an app folder read and checked as an install needs it, before anything is copied.

Apart from the installer so that the XML stack (lxml, the schemas, the function-file
readers) loads at the first install, not at every boot: restoring installed packages never
parses XML (docs/performance.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droidsim.v1.metadata_pb2 import UnindexedFunction
from sim.pm.app_metadata import parse_app_metadata, resolve_app_metadata
from sim.pm.code_verifier import CodeVerificationError, CodeVerifier
from sim.pm.descriptions import description_difference, function_descriptions
from sim.pm.function_files import APPLICATION_LEVEL, declared_function_xml_files
from sim.pm.function_xml import FunctionDocument, parse_function_xml
from sim.pm.index_notes import IndexNote
from sim.pm.indexer import IndexedFile, index_app
from sim.pm.install_error import InstallError
from sim.pm.manifest import Manifest, parse_manifest, resolution_order
from sim.pm.registry import ManifestFacts, PermissionFacts, ServiceFacts
from sim.pm.signature import function_signature, signature_difference
from sim.responses.doubles import DoubleMismatch, check_double
from sim.responses.installed import RESPONSES_DIR
from sim.platform_version import NEWEST, PlatformVersion
from sim.xmlsafe import XmlError


@dataclass(frozen=True)
class ParsedApp:
    manifest: ManifestFacts
    metadata: AppFunctionPackageMetadata
    # No Python code at all: a Kotlin app's folder, whose answers come from a response source.
    code_less: bool = False
    # What the device's indexer leaves out of what the app declares (sim/pm/index_notes.py).
    notes: tuple[IndexNote, ...] = ()
    # What the app declares that this device does not index (a service disabled on this SDK, the
    # one service Android 16 keeps, app-level XML on Android 16): one cassette or double may serve
    # every SDK, so its answers for these are still typed against their XML.
    unindexed: AppFunctionPackageMetadata = field(default_factory=AppFunctionPackageMetadata)


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
    ``version`` decides which function files are indexed, and how (sim/pm/indexer.py). The code
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
        # queryIntentServices' order, so that the first with the action is the one resolveService picks.
        services=tuple(
            ServiceFacts(name=s.name, permission=s.permission, exported=s.exported, actions=tuple(s.actions))
            for s in resolution_order(manifest.services) + [s for s in manifest.services if not s.is_app_function_service]
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

    indexed = index_app(manifest, app_dir, version)
    for read in indexed.files:
        metadata.app_functions.extend(read.document.functions)
        metadata.components.data_types.extend(read.document.components.data_types)
    # Application-level functions run no service's code (they are registered at runtime), but a
    # service may implement them beside its own, as the CTS dynamic-schema helper's does.
    app_level_ids = frozenset(
        f.id for read in indexed.files if read.file.service_name == APPLICATION_LEVEL for f in read.document.functions
    )
    unindexed = _unindexed(manifest, app_dir, indexed.files)
    metadata.unindexed.extend(UnindexedFunction(function_id=f.id, reason=_why_unindexed(f.service_name, manifest,
                                                                                       version, indexed.notes))
                              for f in unindexed.app_functions)
    if not code_less:
        for read in indexed.files:
            if read.file.service_name != APPLICATION_LEVEL:
                _check_code(app_dir, code_dir, read.file.service_name, read.as_written, read.file.path, verifier,
                            app_level_ids, f"(regenerate it: droidsim appfunctions generate {app_dir})")
        return ParsedApp(facts, metadata, code_less, tuple(indexed.notes), unindexed)
    if double_dir is not None and double_dir.is_dir():
        try:
            check_double(double_dir, metadata, verifier, str(double_dir), frozenset(f.id for f in unindexed.app_functions))
        except DoubleMismatch as error:
            raise InstallError(error.reason, f"{error} ({_double_fix(metadata, error, app_dir)})") from None
    return ParsedApp(facts, metadata, code_less, tuple(indexed.notes), unindexed)


def _double_fix(metadata: AppFunctionPackageMetadata, error: DoubleMismatch, app_dir: Path) -> str:
    """What brings the double and the XML together: the skeleton, unless it cannot spell that function."""
    from sim.responses.skeleton import by_hand_reason

    reason = by_hand_reason(metadata, error.function_id) if error.function_id else None
    if reason is None:
        return (f"`droidsim responses skeleton {app_dir} {metadata.package_name}-skeleton` writes one that matches, "
                "to compare with yours")
    return (f"the skeleton cannot write it ({reason}): write its signature by hand, as docs/declaring-functions.md "
            "says")


def _unindexed(manifest: Manifest, app_dir: Path, indexed: list[IndexedFile]) -> AppFunctionPackageMetadata:
    """The functions the app declares in files, or parts of files, this device does not index,
    read as leniently as nothing reads them: a file that does not parse is left out. A file the
    device indexed as it is written is not read again."""
    read = {(str(f.file.path), f.file.format) for f in indexed}
    ids = {f.id for file in indexed for f in file.document.functions}
    unindexed = AppFunctionPackageMetadata(package_name=manifest.package)
    for file in declared_function_xml_files(manifest, app_dir):
        if (str(file.path), file.format) in read:
            continue
        try:
            document = parse_function_xml(file.path, manifest.package, file.service_name, format=file.format)
        except XmlError:
            continue
        unindexed.app_functions.extend(f for f in document.functions if f.id not in ids)
        unindexed.components.data_types.extend(document.components.data_types)
    return unindexed


def _why_unindexed(service_name: str, manifest: Manifest, version: PlatformVersion, notes: list[IndexNote]) -> str:
    """Why ``version`` does not index the functions of ``service_name``'s file, in words."""
    if service_name == APPLICATION_LEVEL:
        return f"{version.name} does not read application-level function XML (Android 17 does)"
    service = next((s for s in manifest.services if s.name == service_name), None)
    if service is not None and not service.enabled:
        return (f"its service {service_name} is disabled on {version.name} (android:enabled is false there; a "
                "device of another SDK may index it)")
    note = next((n for n in notes if f" {service_name}" in n.message), None)
    if note is not None:
        return note.message.rstrip(".")
    return f"{version.name} does not read the function XML of its service {service_name}"


def _check_code(
    app_dir: Path, code_dir: Path, service_name: str, document: FunctionDocument, xml_path: Path,
    verifier: CodeVerifier, app_level_ids: frozenset[str], regenerate: str,
) -> None:
    """The XML must describe the code (``code_dir``'s: the app's staged copy of ``app_dir``): the
    same ids (the code may also implement ``app_level_ids``) and, for an entry point, the same
    signature of each (names, types, nullability, required, response) and the same descriptions.
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
        if difference is None:
            difference = description_difference(
                function_descriptions(function, document.components),
                function_descriptions(in_code, code.metadata.components),
            )
        if difference is not None:
            raise InstallError(
                "INSTALL_FAILED_FUNCTION_MISMATCH",
                f"{xml_path} is stale for {function.id}: {difference} {regenerate}",
            )
