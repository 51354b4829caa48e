"""decode_apk: an APK turned into the text app folder an install reads, for one SDK level.

The result has the shape of a code-less app folder (sim/pm): ``AndroidManifest.xml`` as text,
the function assets the manifest names under ``assets/``, and every ``@xml/`` resource it names
under ``res/xml/`` as text XML. Each reference (``@bool/``, ``@string/``, ...) becomes the
value ``resources.arsc`` gives for the device's SDK in the default locale: the value with no
qualifier but the highest ``-vNN`` not above the SDK, as the platform's resource lookup picks
for a device whose locale has no translation. ``@xml/`` and other file references stay
references, by name, so that the folder pipeline finds them where an app folder has them. So an
APK and a folder are indexed by one pipeline and cannot drift.

Nothing here checks what the folder pipeline checks (a missing asset, invalid function XML):
it is left out or written as found, and the install refuses it naming the APK's entry. What
only the binary form can get wrong is refused here: a split APK, a reference resources.arsc
does not define, a file reference to something that is not a file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from lxml import etree

from sim.apk.archive import MANIFEST, UNIVERSAL, ApkArchive
from sim.apk.errors import ApkError
from sim.apk.manifest_words import name_integers
from sim.apk.reader import Resource, ResourceTable, binary_xml
from sim.apk.signing import Signing, signing

ANDROID_NS = "http://schemas.android.com/apk/res/android"
RESOURCES = "resources.arsc"
# How AXMLPrinter writes a reference to an app resource: @ and the id in hex.
_APP_REFERENCE = re.compile(r"@([0-9A-Fa-f]{8})")
_SDK_QUALIFIER = re.compile(r"(?:v(\d+))?")
# A file-based resource's name, as aapt2 allows it.
_RESOURCE_NAME = re.compile(r"[a-z0-9_]+")
# Types whose value is a literal in XML; every other type names a file or a compound value.
_LITERAL_TYPES = frozenset({"bool", "string", "integer", "color", "dimen", "fraction"})
# Attributes the device acts on: a value it cannot resolve is a refusal, not a string to keep.
_READ_ATTRIBUTES = frozenset({"name", "enabled", "exported", "permission", "value", "resource", "protectionLevel"})
_FUNCTION_PROPERTIES = ("android.app.appfunctions.v2", "android.app.appfunctions", "android.app.appfunctions.schema")


@dataclass(frozen=True)
class DecodedFile:
    """``path`` in the decoded folder, ``entry`` it came from in the APK, and its text."""

    path: str
    entry: str
    text: str


@dataclass(frozen=True)
class DecodedService:
    name: str
    enabled: bool
    # Where the enabled state came from: "default", "literal", or "@bool/name (values-v37)".
    enabled_from: str


@dataclass(frozen=True)
class DecodedApk:
    package: str
    sdk: int
    files: tuple[DecodedFile, ...]
    services: tuple[DecodedService, ...]
    signing: Signing

    def to_json(self) -> str:
        # vars(), not dataclasses.asdict: asdict deep-copies every string it meets.
        return json.dumps({**vars(self), "files": [vars(f) for f in self.files],
                           "services": [vars(s) for s in self.services], "signing": vars(self.signing)},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> DecodedApk:
        data = json.loads(text)
        return cls(
            data["package"], data["sdk"], tuple(DecodedFile(**f) for f in data["files"]),
            tuple(DecodedService(**s) for s in data["services"]),
            Signing(tuple(data["signing"]["schemes"]), tuple(data["signing"]["certificate_digests"])),
        )

    def entry_of(self, path: str) -> str:
        """The APK entry a decoded file came from."""
        return next((f.entry for f in self.files if f.path == path), path)


def decode_apk(data: bytes, name: str, sdk: int) -> DecodedApk:
    """Decode the APK ``data`` (called ``name`` in errors) for SDK ``sdk``; ApkError if refused."""
    archive = ApkArchive(data, name)
    manifest = _reparsed(binary_xml(archive.read(MANIFEST), f"{name}!/{MANIFEST}"))
    _refuse_split(manifest, name)
    package = manifest.get("package")
    if not package:
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{name}!/{MANIFEST}: <manifest> has no package attribute")
    table = ResourceTable(archive.read(RESOURCES), package, f"{name}!/{RESOURCES}") if archive.has(RESOURCES) else None
    resolver = Resolver(table, sdk, name)
    resolver.resolve_tree(manifest, MANIFEST)
    name_integers(manifest, f"{name}!/{MANIFEST}")
    files = [DecodedFile(MANIFEST, MANIFEST, _text(manifest))]
    files += _referenced_files(manifest, archive, resolver)
    return DecodedApk(package, sdk, tuple(files), _services(manifest, resolver), signing(data, archive))


def _reparsed(root: etree._Element) -> etree._Element:
    """The tree as its decoded text reads, so that every element knows its line there."""
    return etree.fromstring(_text(root).encode(), etree.XMLParser(resolve_entities=False, no_network=True))


def _text(root: etree._Element) -> str:
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="utf-8").decode()


def _refuse_split(manifest: etree._Element, name: str) -> None:
    split = manifest.get("split")
    if split or manifest.get(f"{{{ANDROID_NS}}}isFeatureSplit") == "true":
        raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", f"{name} is a split APK ({split or 'a feature split'}), "
                                                        f"not a whole app: {UNIVERSAL}")


class Resolver:
    """Replaces an APK's resource references by what they stand for on one SDK level."""

    def __init__(self, table: ResourceTable | None, sdk: int, name: str) -> None:
        self._table = table
        self._sdk = sdk
        self._name = name
        # Where each resolved literal came from (for the services' enabled state), and the
        # file resources resolved to references by name ("@xml/tracking_functions").
        self.origins: dict[tuple[etree._Element, str], str] = {}
        self.file_resources: dict[str, Resource] = {}

    def resolve_tree(self, root: etree._Element, entry: str) -> None:
        """Every app reference in ``root``'s attributes replaced by what it resolves to."""
        for element in root.iter(etree.Element):
            for attribute, value in element.attrib.items():
                if not value.startswith("@"):  # neither kind of reference
                    continue
                where = f"{self._name}!/{entry}:{element.sourceline}: <{element.tag}> {_short(attribute)}"
                local = etree.QName(attribute).localname
                if value.startswith("@android:") and attribute.startswith(f"{{{ANDROID_NS}}}") and local in _READ_ATTRIBUTES:
                    raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                                   f"{where} refers to the framework resource {value}, which droidsim does not resolve")
                match = _APP_REFERENCE.fullmatch(value)
                if match is None:
                    continue
                resource = self.resource(int(match[1], 16), where)
                if resource.type in _LITERAL_TYPES:
                    literal, qualifier = self.pick(resource, where)
                    element.set(attribute, literal)
                    self.origins[(element, attribute)] = f"@{resource.type}/{resource.name}" + (
                        f" (values-{qualifier})" if qualifier else "")
                else:
                    reference = f"@{resource.type}/{resource.name}"
                    self.file_resources[reference] = resource
                    element.set(attribute, reference)

    def resource(self, resource_id: int, where: str) -> Resource:
        if self._table is None:
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where} refers to resource 0x{resource_id:08X}, but the APK has no {RESOURCES}")
        resource = self._table.get(resource_id)
        if resource is None:
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where} refers to resource 0x{resource_id:08X}, which {RESOURCES} does not define")
        return resource

    def pick(self, resource: Resource, where: str) -> tuple[str, str]:
        """The value for this SDK in the default locale, and the qualifier it came from."""
        best: tuple[int, str, str] | None = None
        for qualifier, value in resource.values:
            match = _SDK_QUALIFIER.fullmatch(qualifier)
            level = int(match[1] or 0) if match else None
            if level is not None and level <= self._sdk and (best is None or level > best[0]):
                best = (level, value, qualifier)
        if best is None:
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where}: @{resource.type}/{resource.name} has no value for SDK {self._sdk} in the default "
                           f"locale (it has: {', '.join(q or 'default' for q, _ in resource.values) or 'none'})")
        return best[1], best[2]


def _short(attribute: str) -> str:
    qname = etree.QName(attribute)
    return f"android:{qname.localname}" if qname.namespace == ANDROID_NS else qname.localname


def _android(element: etree._Element, name: str) -> str | None:
    return element.get(f"{{{ANDROID_NS}}}{name}")


def _referenced_files(manifest: etree._Element, archive: ApkArchive, resolver: Resolver) -> list[DecodedFile]:
    """The function assets and @xml/ resources the manifest's properties name, decoded."""
    files: dict[str, DecodedFile] = {}
    for prop in manifest.iterfind("application//property"):
        if (value := _android(prop, "value")) is not None and _android(prop, "name") in _FUNCTION_PROPERTIES:
            for asset in value.split(","):  # the application's v2 list may name several
                if (decoded := _asset(archive, asset.strip())) is not None:
                    files[decoded.path] = decoded
        resource = _android(prop, "resource")
        if resource is not None and resource.startswith("@array/"):
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{archive.name}!/{MANIFEST}:{prop.sourceline}: property {_android(prop, 'name')} names "
                           f"{resource}: droidsim does not read an APK's @array/ resources; name the files in "
                           f"android:value (comma-separated asset paths)")
        if resource is not None and resource.startswith("@xml/"):
            if (decoded := _xml_resource(prop, archive, resolver)) is not None:
                files[decoded.path] = decoded
    return list(files.values())


def _asset(archive: ApkArchive, name: str) -> DecodedFile | None:
    """An asset as it is (text already); None when the APK lacks it or the name leads out of
    assets/, which the install then refuses naming the property."""
    normal = os.path.normpath(name)
    entry = f"assets/{normal}"
    if not name or os.path.isabs(normal) or normal.startswith("..") or not archive.has(entry):
        return None
    data = archive.read(entry)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApkError("INSTALL_PARSE_FAILED_BAD_FUNCTION_XML", f"{archive.name}!/{entry} is not UTF-8 text ({error})") from None
    return DecodedFile(entry, entry, text)


def _xml_resource(prop: etree._Element, archive: ApkArchive, resolver: Resolver) -> DecodedFile | None:
    """The compiled XML resource a property names, decoded, its own references resolved."""
    reference = _android(prop, "resource")
    where = f"{archive.name}!/{MANIFEST}:{prop.sourceline}: property {_android(prop, 'name')}"
    if not _RESOURCE_NAME.fullmatch(reference[len("@xml/"):]):  # resources.arsc is hostile input too
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} names {reference!r}, which is no resource name")
    path = f"res/xml/{reference[len('@xml/'):]}.xml"
    resource = resolver.file_resources.get(reference)
    entry = resolver.pick(resource, where)[0] if resource is not None else None
    if entry is None or not archive.has(entry):
        return None  # the install refuses it: "names @xml/... (res/xml/...), which does not exist"
    root = _reparsed(binary_xml(archive.read(entry), f"{archive.name}!/{entry}"))
    resolver.resolve_tree(root, entry)
    return DecodedFile(path, entry, _text(root))


def _services(manifest: etree._Element, resolver: Resolver) -> tuple[DecodedService, ...]:
    services = []
    for service in manifest.iterfind("application/service"):
        enabled = _android(service, "enabled")
        origin = resolver.origins.get((service, f"{{{ANDROID_NS}}}enabled"), "literal" if enabled else "default")
        services.append(DecodedService(_android(service, "name") or "", enabled in (None, "true"), origin))
    return tuple(services)
