"""Reads AndroidManifest.xml: the parts the device acts on at install and execution time.

That is the package name, the permissions the app requests and declares, the application- and
service-level ``<property>`` entries that point at AppFunction files, and the services with their
intent-filter actions. Everything else in a manifest is accepted and ignored. The rules and
refusals are the package parser's (frameworks/base ``ParsingPackageUtils``,
``ParsedServiceUtils``, ``ParsedComponentUtils``), named as it names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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

# Build.VERSION_CODES.S: from this target SDK on, android:exported must be explicit.
TARGET_R = 30
TARGET_S = 31
NEWEST_TARGET = 10_000  # Build.VERSION_CODES.CUR_DEVELOPMENT
# The components whose parser (ParsedActivityUtils, ParsedServiceUtils) asks for android:exported.
_EXPORTABLE = frozenset({"activity", "receiver", "service"})


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
    # android:priority of the intent filter with the AppFunctionService action: queryIntentServices
    # lists higher priorities first (IntentResolver.sortResults), else in manifest order.
    priority: int = 0
    line: int = field(default=0, compare=False)

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
    if target_sdk(root) >= TARGET_S:
        _require_explicit_exported(application, package)
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
        else tuple(
            _service(e, package, _boolean(application, "enabled", True), _android(application, "permission"))
            for e in application.findall("service")
        ),
    )


def resolution_order(services: Iterable[ServiceDeclaration]) -> list[ServiceDeclaration]:
    """The AppFunctionServices in the order queryIntentServices lists them: by intent-filter
    priority, highest first, then as the manifest declares them (a stable sort)."""
    return sorted((s for s in services if s.is_app_function_service), key=lambda s: -s.priority)


def target_sdk(root: etree._Element) -> int:
    """<uses-sdk android:targetSdkVersion>; a codename or none at all counts as the newest, as
    droidsim takes every app to target a current SDK (docs/differences.md)."""
    uses_sdk = root.find("uses-sdk")
    value = None if uses_sdk is None else _android(uses_sdk, "targetSdkVersion")
    return int(value) if value is not None and value.isdigit() else NEWEST_TARGET


def _require_explicit_exported(application: etree._Element | None, package: str) -> None:
    """Targeting S+, a component with intent filters must say android:exported
    (ParseInput.DeferredError.MISSING_EXPORTED_FLAG, enabled after R)."""
    for element in [] if application is None else application:
        if element.tag in _EXPORTABLE and element.find("intent-filter") is not None and _android(element, "exported") is None:
            name = _class_name(_android(element, "name") or "", package)
            raise XmlError.at(element, f"{name}: Targeting S+ (version {TARGET_S} and above) requires that an explicit "
                                       "value for android:exported be defined when intent filters are present")


def _drop_merger_removals(root: etree._Element) -> None:
    """Drop what the manifest merger would (tools:node="remove"), as it is absent from the APK."""
    for element in root.xpath(".//*[@t:node='remove' or @t:node='removeAll']", namespaces={"t": TOOLS_NS}):
        element.getparent().remove(element)


def _service(
    element: etree._Element, package: str, application_enabled: bool, application_permission: str | None,
) -> ServiceDeclaration:
    actions = tuple(_android(a, "name") for a in element.findall("intent-filter/action"))
    permission = _android(element, "permission")
    return ServiceDeclaration(
        name=_class_name(_android(element, "name"), package),
        # Without its own, a service is protected by the application's android:permission.
        permission=application_permission if permission is None else permission,
        # Android's default without the attribute: exported exactly when it has intent filters.
        exported=_boolean(element, "exported", bool(element.findall("intent-filter"))),
        process=_android(element, "process"),
        actions=actions,
        properties=_properties(element),
        enabled=application_enabled and _boolean(element, "enabled", True),
        priority=_function_service_priority(element),
        line=element.sourceline or 0,
    )


def _function_service_priority(service: etree._Element) -> int:
    for intent_filter in service.findall("intent-filter"):
        if any(_android(a, "name") == SERVICE_INTERFACE for a in intent_filter.findall("action")):
            return int(_android(intent_filter, "priority") or 0)
    return 0


def _boolean(element: etree._Element, attribute: str, default: bool) -> bool:
    """An xs:boolean attribute (the schema has checked it), or ``default`` without it."""
    value = _android(element, attribute)
    return default if value is None else value in ("true", "1")


def _properties(element: etree._Element | None) -> Mapping[str, PropertyEntry]:
    entries: dict[str, PropertyEntry] = {}
    for prop in [] if element is None else element.findall("property"):
        name = _android(prop, "name")
        value, resource = _android(prop, "value"), _android(prop, "resource")
        if value is None and resource is None:
            raise XmlError.at(prop, f"<property> {name} requires an android:value or android:resource attribute")
        if resource is not None:
            value = None  # ParsingPackageUtils.parseMetaData reads android:resource first
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
