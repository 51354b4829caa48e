"""Reads the app metadata resource: the app-level description agents see (the "server" description).

The manifest's application property ``android.app.appfunctions.app_metadata`` references an XML
resource whose root ``<AppFunctionAppMetadata>`` carries the description attributes; Jetpack reads
them in either of two namespaces (spec/jetpack-androidx.md section 4). String resources such as
``@string/app_name`` are kept as written: the device does not compile resources.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from droid.appfunctions.metadata import AppFunctionAppMetadata
from sim.pm.manifest import PROPERTY_APP_METADATA, Manifest
from sim.pm.schemas import validate
from sim.xmlsafe import XmlError, parse_xml

APPFN_NAMESPACES = (
    "http://schemas.android.com/apk/androidx.appfunctions",
    "http://schemas.android.com/apk/res-auto",
)

# File-based resource names are lower case, digits and underscores; this also keeps the
# reference from leaving res/xml/.
_XML_RESOURCE = re.compile(r"@xml/([a-z0-9_]+)")


def parse_app_metadata(path: Path) -> AppFunctionAppMetadata:
    """Validate and read the app metadata file; raise :class:`XmlError` if it is refused.

    1.0.0-beta01 renamed ``description`` to ``instructions``; the newer name wins when both are set.
    """
    root = parse_xml(path, what="app metadata")
    validate(root, "app_metadata", path)
    return AppFunctionAppMetadata(
        description=_attribute(root, "instructions", "description"),
        display_description=_attribute(root, "displayDescription"),
    )


def resolve_xml_resource(app_dir: Path, reference: str) -> Path:
    """The file behind ``@xml/<name>`` in an app folder: ``<app_dir>/res/xml/<name>.xml``."""
    match = _XML_RESOURCE.fullmatch(reference.strip())
    if match is None:
        raise ValueError(f"{reference!r} is not an @xml/<name> resource reference")
    return app_dir / "res" / "xml" / f"{match[1]}.xml"


def resolve_app_metadata(manifest: Manifest, app_dir: Path) -> Path | None:
    """The app metadata file the manifest references, or None when it references none."""
    entry = manifest.application_properties.get(PROPERTY_APP_METADATA)
    if entry is None:
        return None
    if entry.resource is None:
        raise XmlError(manifest.file, entry.line, f"property {PROPERTY_APP_METADATA} needs android:resource")
    try:
        return resolve_xml_resource(app_dir, entry.resource)
    except ValueError as e:
        raise XmlError(manifest.file, entry.line, str(e)) from None


def _attribute(root: etree._Element, *names: str) -> str:
    for name in names:
        for namespace in APPFN_NAMESPACES:
            if (value := root.get(f"{{{namespace}}}{name}")) is not None:
                return value
    return ""
