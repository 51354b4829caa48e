"""Reads AndroidManifest.xml: the parts the device acts on at install and execution time.

That is the package name, the permissions the app requests and declares, the application- and
service-level ``<property>`` entries that point at AppFunction files, and the services with their
intent-filter actions. Everything else in a manifest is accepted and ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from lxml import etree

from sim.pm.schemas import validate
from sim.xmlsafe import XmlError, parse_xml

ANDROID_NS = "http://schemas.android.com/apk/res/android"
TOOLS_NS = "http://schemas.android.com/tools"
SERVICE_INTERFACE = "android.app.appfunctions.AppFunctionService"

PROPERTY_FUNCTIONS_V1 = "android.app.appfunctions"
PROPERTY_FUNCTIONS_V2 = "android.app.appfunctions.v2"
PROPERTY_SCHEMA = "android.app.appfunctions.schema"
PROPERTY_APP_METADATA = "android.app.appfunctions.app_metadata"


@dataclass(frozen=True)
class PropertyEntry:
    """A ``<property>``: a literal ``android:value`` or an ``android:resource`` reference."""

    value: str | None
    resource: str | None
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class PermissionDeclaration:
    """A ``<permission>`` the app defines, for the permission manager to register."""

    name: str
    protection_level: str = "normal"


@dataclass(frozen=True)
class ServiceDeclaration:
    """A ``<service>``; ``name`` is the fully qualified class, as Android expands it."""

    name: str
    permission: str | None
    exported: bool
    process: str | None
    actions: tuple[str, ...]
    properties: Mapping[str, PropertyEntry]
    # android:enabled of the service and of its application: a disabled component is left out
    # of queryIntentServices, so neither the indexer nor the binder finds it.
    enabled: bool = True

    @property
    def is_app_function_service(self) -> bool:
        """Whether the platform binds it for AppFunctions (its intent filter has the action, and
        it is enabled)."""
        return SERVICE_INTERFACE in self.actions and self.enabled


@dataclass(frozen=True)
class Manifest:
    """What the device keeps of an AndroidManifest.xml; ``file`` locates later errors."""

    file: str
    package: str
    uses_permissions: tuple[str, ...]
    permissions: tuple[PermissionDeclaration, ...]
    application_properties: Mapping[str, PropertyEntry]
    services: tuple[ServiceDeclaration, ...]


def parse_manifest(path: Path, *, package: str | None = None) -> Manifest:
    """Validate and read the manifest at ``path``; raise :class:`XmlError` if it is refused.

    ``package`` stands in for a missing ``package`` attribute, as a Gradle module's namespace
    does; a manifest with neither is refused.
    """
    root = parse_xml(path, what="manifest")
    validate(root, "android_manifest", path)
    _drop_merger_removals(root)
    package = root.get("package") or package
    if not package:
        raise XmlError.at(root, "<manifest> has no package attribute")
    applications = root.findall("application")
    if len(applications) > 1:
        raise XmlError.at(applications[1], "<manifest> has more than one <application>")
    application = applications[0] if applications else None
    return Manifest(
        file=str(path),
        package=package,
        uses_permissions=tuple(
            _android(e, "name") for e in root if e.tag in ("uses-permission", "uses-permission-sdk-23")
        ),
        permissions=tuple(
            PermissionDeclaration(_android(e, "name"), _android(e, "protectionLevel") or "normal")
            for e in root.findall("permission")
        ),
        application_properties=_properties(application),
        services=()
        if application is None
        else tuple(_service(e, package, _boolean(application, "enabled", True)) for e in application.findall("service")),
    )


def _drop_merger_removals(root: etree._Element) -> None:
    """Drop what the manifest merger would (tools:node="remove"), as it is absent from the APK."""
    for element in root.xpath(".//*[@t:node='remove' or @t:node='removeAll']", namespaces={"t": TOOLS_NS}):
        element.getparent().remove(element)


def _service(element: etree._Element, package: str, application_enabled: bool) -> ServiceDeclaration:
    actions = tuple(_android(a, "name") for a in element.findall("intent-filter/action"))
    return ServiceDeclaration(
        name=_class_name(_android(element, "name"), package),
        permission=_android(element, "permission"),
        # Android's default without the attribute: exported exactly when it has intent filters.
        exported=_boolean(element, "exported", bool(element.findall("intent-filter"))),
        process=_android(element, "process"),
        actions=actions,
        properties=_properties(element),
        enabled=application_enabled and _boolean(element, "enabled", True),
    )


def _boolean(element: etree._Element, attribute: str, default: bool) -> bool:
    """An xs:boolean attribute (the schema has checked it), or ``default`` without it."""
    value = _android(element, attribute)
    return default if value is None else value in ("true", "1")


def _properties(element: etree._Element | None) -> Mapping[str, PropertyEntry]:
    entries: dict[str, PropertyEntry] = {}
    for prop in [] if element is None else element.findall("property"):
        name = _android(prop, "name")
        value, resource = _android(prop, "value"), _android(prop, "resource")
        if (value is None) == (resource is None):
            raise XmlError.at(prop, f"property {name} needs exactly one of android:value and android:resource")
        if name in entries:
            raise XmlError.at(prop, f"property {name} is declared twice")
        entries[name] = PropertyEntry(value, resource, prop.sourceline or 1)
    return MappingProxyType(entries)


def _class_name(name: str, package: str) -> str:
    """Android's expansion of a component name: ".Foo" and "Foo" live in the package."""
    if name.startswith("."):
        return package + name
    return name if "." in name else f"{package}.{name}"


def _android(element: etree._Element, attribute: str) -> str | None:
    value = element.get(f"{{{ANDROID_NS}}}{attribute}")
    return None if value is None else value.strip()
