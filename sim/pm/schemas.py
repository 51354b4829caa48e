"""Validation of app XML against the W3C schemas in ``schemas/`` at the repository root
(packaged as ``sim/pm/xsd``, a link to it).

Each schema is compiled on first use and kept for the life of the process: installs validate
several documents each and compiling costs more than validating. libxml2 keeps the errors of the
last run on the schema object, so a lock makes each validate-and-read-errors step atomic.
"""

from __future__ import annotations

import re
import threading
from functools import cache
from pathlib import Path
from typing import Literal

from lxml import etree

from sim.xmlsafe import XmlError, parse_xml

# schemas/ at the repository root, through the link sim/pm/xsd, so that a wheel carries them too.
SCHEMA_DIR = Path(__file__).resolve().parent / "xsd"

Kind = Literal["app_functions", "app_functions_v1", "android_manifest", "app_metadata"]

# kind -> (schema file, required root element). The root is checked here because every schema
# declares some child elements globally (so that lax wildcards check them), which XSD would
# otherwise also accept as roots.
_KINDS: dict[str, tuple[str, str]] = {
    "app_functions": ("app_functions.xsd", "appfunctions"),
    "app_functions_v1": ("app_functions_v1.xsd", "appfunctions"),
    "android_manifest": ("android_manifest.xsd", "manifest"),
    "app_metadata": ("app_metadata.xsd", "AppFunctionAppMetadata"),
}

_XS = {"xs": "http://www.w3.org/2001/XMLSchema"}
# libxml2 spells namespaced names {uri}name; messages use the prefixes developers write.
_PREFIXES = {"{http://schemas.android.com/apk/res/android}": "android:"}
# libxml2 names a failed xs:key/xs:keyref but not what it means; the schema documents each one.
_CONSTRAINT = re.compile(r"(?:identity-constraint|keyref) '([^']+)'")

_lock = threading.Lock()


@cache
def _schema(kind: str) -> tuple[etree.XMLSchema, dict[str, str]]:
    """The compiled schema, and the documentation of its identity constraints by name."""
    xsd = parse_xml(SCHEMA_DIR / _KINDS[kind][0], what="schema")
    constraints = {
        constraint.get("name"): " ".join(constraint.xpath("string(xs:annotation/xs:documentation)", namespaces=_XS).split())
        for constraint in xsd.xpath("//xs:key | //xs:keyref | //xs:unique", namespaces=_XS)
    }
    return etree.XMLSchema(xsd), constraints


def validate(root: etree._Element, kind: Kind, file: str | Path) -> None:
    """Check ``root`` against the schema for ``kind``; raise :class:`XmlError` at the first error."""
    expected_root = _KINDS[kind][1]
    if root.tag != expected_root:
        raise XmlError(file, root.sourceline or 1, f"root element is <{root.tag}>, expected <{expected_root}>")
    schema, constraints = _schema(kind)
    with _lock:
        if schema.validate(root):
            return
        error = schema.error_log[0]
    reason = error.message
    for uri, prefix in _PREFIXES.items():
        reason = reason.replace(uri, prefix)
    if (constraint := _CONSTRAINT.search(reason)) and constraints.get(constraint[1]):
        reason = f"{reason} ({constraints[constraint[1]]})"
    raise XmlError(file, error.line or 1, reason)
