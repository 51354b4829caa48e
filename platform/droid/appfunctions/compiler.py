"""The function XML compiler (the KSP processor's job): declarations → assets/*.xml.

``generate(app_dir)`` reads the manifest, loads every AppFunction service it
declares, and writes ``assets/<xml_file_name>.xml`` for each, and the library's
app schema (``assets/app_functions_schema.xsd``, what androidx's AAR merges into
an APK) where the manifest names it; ``check(app_dir)`` lists the files that are
missing or differ from what ``generate`` would write. ``run_generate`` is the
body of ``droidsim appfunctions generate APP_DIR... [--check]``.

The output is byte-stable: the same declarations always give the same bytes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence, TextIO

from lxml import etree

from droid.appfunctions.analysis import EntryPointSpec, analyze
from droid.appfunctions.assets import APP_FUNCTIONS_SCHEMA
from droid.appfunctions.function_xml import build_document, render, to_proto
from droid.appfunctions.loader import (
    ANDROID_NS,
    AppLoadError,
    expand_class_name,
    load_app_service_class,
    manifest_package,
)
from droid.appfunctions.metadata import AppFunctionComponentsMetadata, AppFunctionMetadata
from droid.appfunctions.service import SERVICE_INTERFACE
from droid.appfunctions.typeref import AppFunctionCompileError, Kind

V2_PROPERTY = "android.app.appfunctions.v2"
SCHEMA_PROPERTY = "android.app.appfunctions.schema"
_A = f"{{{ANDROID_NS}}}"


@dataclass(frozen=True)
class ManifestService:
    """An AppFunction service the manifest declares."""

    name: str  # expanded android:name
    xml_asset: str  # the android.app.appfunctions.v2 value, e.g. "order_functions.xml"
    schema_asset: str | None = None  # the android.app.appfunctions.schema value


def manifest_services(app_dir: Path) -> list[ManifestService]:
    """The manifest's AppFunction services: ``<service>`` elements with the
    AppFunctionService intent action and an ``android.app.appfunctions.v2`` property."""
    manifest = Path(app_dir) / "AndroidManifest.xml"
    package = manifest_package(app_dir)
    root = etree.parse(str(manifest), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    services = []
    for service in root.iter("service"):
        actions = {a.get(f"{_A}name") for a in service.iter("action")}
        if SERVICE_INTERFACE not in actions:
            continue
        name = service.get(f"{_A}name")
        if not name:
            raise AppLoadError(f"{manifest}: a <service> has no android:name")
        values = {prop.get(f"{_A}name"): prop.get(f"{_A}value") for prop in service.findall("property")}
        xml_asset = values.get(V2_PROPERTY)
        if not xml_asset:
            raise AppLoadError(
                f"{manifest}: service {name} has no <property android:name=\"{V2_PROPERTY}\" "
                f"android:value=\"<file>.xml\"/>"
            )
        services.append(ManifestService(expand_class_name(package, name), xml_asset, values.get(SCHEMA_PROPERTY)))
    return services


def entry_points(app_dir: Path, *, reload: bool = True) -> list[tuple[ManifestService, EntryPointSpec]]:
    """Each manifest service with its analysed class; checks that they agree."""
    manifest = Path(app_dir) / "AndroidManifest.xml"
    found = []
    for service in manifest_services(app_dir):
        cls = load_app_service_class(app_dir, service.name, reload=reload)
        reload = False  # one fresh import per run is enough
        declared = getattr(cls, "service_name", None)
        if declared != service.name:
            raise AppFunctionCompileError(
                f"{cls.__qualname__}.service_name is {declared!r} but the manifest names the "
                f"service {service.name!r}; make them equal"
            )
        if not hasattr(cls, "app_function_spec"):
            raise AppFunctionCompileError(
                f"{service.name} does not extend AppFunctionServiceEntryPoint, so there is "
                f"nothing to compile; write its XML by hand or extend the entry point"
            )
        spec = analyze(cls)
        if f"{spec.xml_file_name}.xml" != service.xml_asset:
            raise AppFunctionCompileError(
                f"{manifest}: service {service.name} names the asset {service.xml_asset!r} but "
                f"its xml_file_name is {spec.xml_file_name!r}; make the manifest say "
                f"\"{spec.xml_file_name}.xml\""
            )
        found.append((service, spec))
    return found


def render_entry_points(entry_points: Sequence[type | EntryPointSpec], component_id: str | None = None) -> bytes:
    """The v2 XML for entry point classes (or their specs) in one document."""
    specs = [ep if isinstance(ep, EntryPointSpec) else analyze(ep) for ep in entry_points]
    return render(build_document(specs, component_id))


def build_metadata(
    entry_point: type | EntryPointSpec, package_name: str = ""
) -> tuple[list[AppFunctionMetadata], AppFunctionComponentsMetadata]:
    """The platform metadata messages the device would index for ``entry_point``."""
    spec = entry_point if isinstance(entry_point, EntryPointSpec) else analyze(entry_point)
    return to_proto(build_document([spec]), package_name)


def generate(app_dir: Path, *, write: bool = True) -> dict[Path, bytes]:
    """Compile the app's services; returns ``{asset path: XML bytes}``. With
    ``write`` (the default) files whose bytes differ are written; equal files are
    left untouched."""
    return _generate(Path(app_dir), entry_points(app_dir), write)


def missing_descriptions(spec: EntryPointSpec) -> list[str]:
    """Warnings for what an agent would get no words for: a function without a description
    (lint's F1), a parameter or a return value without one (F6). The XML is still written."""
    warnings = []
    for function in spec.functions:
        if not function.description.strip():
            warnings.append(f"{function.id} has no description: write its docstring (with "
                            f"described_by_docstring=True) or an instruction (droidsim lint: F1)")
        for parameter in function.parameters:
            if not parameter.description.strip():
                warnings.append(f"{function.id}: parameter {parameter.wire_name!r} has no description: "
                                f"document it under Args: (droidsim lint: F6)")
        if function.returns.kind is not Kind.UNIT and not function.return_description.strip():
            warnings.append(f"{function.id}: the return value has no description: say what it is under "
                            f"Returns: (droidsim lint: F6)")
    return warnings


def missing_schema(service: ManifestService) -> str | None:
    """A warning for a service that names no app schema: its XML would be lost on a phone."""
    if service.schema_asset is not None:
        return None
    return (f'{service.name} declares no <property android:name="{SCHEMA_PROPERTY}" '
            f'android:value="{APP_FUNCTIONS_SCHEMA.name}" />: Android 16 indexes none of its functions and Android 17 '
            f"only their ids, without descriptions, parameters or response; add it to the <service> "
            f"(droidsim lint: I2)")


def _generate(app_dir: Path, found: list[tuple[ManifestService, EntryPointSpec]], write: bool) -> dict[Path, bytes]:
    outputs: dict[Path, bytes] = {}
    for service, spec in found:
        outputs[app_dir / "assets" / service.xml_asset] = render(build_document([spec]))
        if service.schema_asset == APP_FUNCTIONS_SCHEMA.name:  # any other name is the app's own schema
            outputs[app_dir / "assets" / service.schema_asset] = APP_FUNCTIONS_SCHEMA.read_bytes()
    if write:
        for path, content in outputs.items():
            if not path.is_file() or path.read_bytes() != content:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    return outputs


def check(app_dir: Path) -> list[Path]:
    """The asset files that are missing or stale (differ from ``generate``'s output)."""
    return [
        path
        for path, content in generate(app_dir, write=False).items()
        if not path.is_file() or path.read_bytes() != content
    ]


_stale = check


def run_generate(
    app_dirs: Iterable[Path | str],
    check: bool = False,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Generate (or with ``check`` verify) the XML of each app folder, reporting each
    file. Returns 0 when all is well, 1 when ``check`` found stale files, 2 when an
    app cannot be compiled (its error is printed)."""
    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    for app_dir in map(Path, app_dirs):
        try:
            if check:
                stale = _stale(app_dir)
                for path in stale:
                    print(
                        f"stale: {path} (run: droidsim appfunctions generate {app_dir})", file=out
                    )
                if stale:
                    status = max(status, 1)
                else:
                    print(f"up to date: {app_dir}", file=out)
            else:
                before = {p: p.read_bytes() if p.is_file() else None for p in _assets(app_dir)}
                found = entry_points(app_dir)
                outputs = _generate(app_dir, found, write=True)
                for path, content in outputs.items():
                    verb = "unchanged" if before.get(path) == content else "wrote"
                    print(f"{verb}: {path}", file=out)
                for service, spec in found:
                    for warning in [missing_schema(service), *missing_descriptions(spec)]:
                        if warning is not None:
                            print(f"warning: {warning}", file=err)
                if not outputs:
                    print(f"no AppFunction services in {app_dir}/AndroidManifest.xml", file=out)
        except (AppFunctionCompileError, AppLoadError, OSError, etree.XMLSyntaxError) as e:
            print(f"error: {app_dir}: {e}", file=err)
            status = 2
    return status


def _assets(app_dir: Path) -> list[Path]:
    folder = Path(app_dir) / "assets"
    return sorted([*folder.glob("*.xml"), *folder.glob("*.xsd")]) if folder.is_dir() else []
