"""The one module that uses androguard: binary XML, resources.arsc and signing blocks, read.

androguard is a dependency of droidsim, imported on first use so that nothing else pays for it; the rest of droidsim sees only what this module returns. It was
chosen over apkInspector (corrupts strings of 128 bytes or more), pyaxmlparser (its by-name
resource lookup returns nothing) and apk-info (cannot decode res/xml), as issue 21 records.
The bytes it reads come from :class:`sim.apk.archive.ApkArchive`, which has already bounded them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lxml import etree

from sim.apk.errors import ApkError

INSTALL_HINT = ("reading an APK needs androguard, a dependency of droidsim that this environment lacks: "
                "reinstall droidsim (pip install CHECKOUT, or the wheel built from it)")


@dataclass(frozen=True)
class Resource:
    """One resource id as resources.arsc defines it: its type and name, and its value per
    configuration (the qualifier as aapt2 writes it, "" for the default, e.g. "v37", "fr")."""

    type: str
    name: str
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Signing:
    """The APK signature schemes present and the SHA-256 of each signer's certificate (DER),
    as ``apksigner verify --print-certs`` prints it; both empty for an unsigned APK."""

    schemes: tuple[str, ...]
    certificate_digests: tuple[str, ...]


class _Silent:
    """Stands in for androguard's loguru logger: it logs every chunk it reads (some 660 calls
    an APK), and even disabled, each call costs loguru a lookup (a sixth of a decode)."""

    def _nothing(self, *args: object, **kwargs: object) -> None:
        pass

    trace = debug = info = success = warning = error = critical = exception = _nothing


def _androguard() -> Any:
    try:
        from loguru import logger

        from androguard.core import apk, axml
    except ImportError:
        raise ApkError("INSTALL_FAILED_INTERNAL_ERROR", INSTALL_HINT) from None
    logger.disable("androguard")  # what its other modules might log
    apk.logger = axml.logger = _Silent()  # the two a decode calls
    return apk, axml


def preload() -> None:
    """Import androguard now (the verifier's zygote, before it forks); ApkError if it is missing."""
    _androguard()
    import sim.apk.decode  # noqa: F401


def binary_xml(data: bytes, where: str) -> etree._Element:
    """A binary XML (AXML) document as an element tree; ApkError naming ``where`` if it is not one.

    androguard's ``AXMLParser`` reads the document; the tree is built here, not by its
    ``AXMLPrinter``, which formats a debug message for every element and attribute whether
    or not anything logs it (a quarter of a decode) and renames what XML does not allow.
    A name or value XML does not allow is refused instead: lxml will not build it."""
    _, axml = _androguard()
    try:
        root = _tree(axml.AXMLParser(data), axml)
    except Exception as error:  # androguard and lxml raise what they meet: any of it means malformed
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} is not valid binary XML ({error})") from None
    if root is None:
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} is not valid binary XML")
    return root


def _tree(parser: Any, axml: Any) -> etree._Element | None:
    """The elements, attributes and text ``parser`` reads, as a tree; None if it is not valid."""
    open_elements: list[etree._Element] = []
    root = None
    while parser.is_valid():
        event = next(parser)
        if event == axml.START_TAG:
            element = etree.Element(_qualified(parser.namespace, parser.name), nsmap=parser.nsmap)
            for i in range(parser.getAttributeCount()):
                value = axml.format_value(parser.getAttributeValueType(i), parser.getAttributeValueData(i),
                                          lambda _, i=i: parser.getAttributeValue(i))
                element.set(_qualified(parser.getAttributeNamespace(i), parser.getAttributeName(i)), value)
            if open_elements:
                open_elements[-1].append(element)
            elif root is None:
                root = element
            else:
                raise ValueError(f"a second root element, <{element.tag}>")
            open_elements.append(element)
        elif event == axml.END_TAG:
            if not open_elements:
                raise ValueError("it closes an element it never opened")
            open_elements.pop()
        elif event == axml.TEXT and open_elements:
            open_elements[-1].text = parser.text
        elif event == axml.END_DOCUMENT:
            break
    return root if parser.is_valid() else None


def _qualified(namespace: str, name: str) -> str:
    return f"{{{namespace}}}{name}" if namespace else name


class ResourceTable:
    """resources.arsc of one package."""

    def __init__(self, data: bytes, package: str, where: str) -> None:
        _, axml = _androguard()
        self._package = package
        try:
            self._parser = axml.ARSCParser(data)
            names = self._parser.get_packages_names()
        except Exception as error:  # as above: whatever the parser raises, the table is malformed
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} is not a valid resource table ({error})") from None
        if package not in names:
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where} defines no resources for package {package} (it has {', '.join(names) or 'none'})")
        self._where = where

    def get(self, resource_id: int) -> Resource | None:
        """The resource, or None when the table does not define ``resource_id``."""
        try:
            type_, name, _ = self._parser.get_id(self._package, resource_id)
            if type_ is None:
                return None
            values = tuple((config.get_qualifier(), value) for config, value in self._parser.get_resolved_res_configs(resource_id))
        except Exception as error:  # as above
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{self._where}: resource 0x{resource_id:08X} cannot be read ({error})") from None
        return Resource(type_, name, values)


# What every signed APK holds: a v2/v3 signing block's magic, or a v1 signature file's name.
_SIGNING_BLOCK_MAGIC = b"APK Sig Block 42"
_V1_SIGNATURE = re.compile(r"META-INF/.*\.(DSA|EC|RSA)", re.DOTALL)


def signing(data: bytes, entries: Iterable[str]) -> Signing:
    """Which schemes signed the APK, and by whom: v3 beats v2 beats v1, as the platform
    takes the newest scheme it finds (ApkSignatureVerifier). An APK with neither a signing
    block's magic anywhere in it nor a v1 signature file among its ``entries`` is unsigned
    without asking androguard, which would read its zip a second time to say so."""
    if _SIGNING_BLOCK_MAGIC not in data and not any(_V1_SIGNATURE.fullmatch(entry) for entry in entries):
        return Signing((), ())
    apk, _ = _androguard()
    try:
        package = apk.APK(data, raw=True, skip_analysis=True)
        schemes = tuple(s for s, signed in (("v1", package.is_signed_v1()), ("v2", package.is_signed_v2()),
                                              ("v3", package.is_signed_v3())) if signed)
        if "v3" in schemes:
            certificates = package.get_certificates_der_v3()
        elif "v2" in schemes:
            certificates = package.get_certificates_der_v2()
        else:
            certificates = [c.dump() for c in package.get_certificates_v1()] if schemes else []
    except Exception as error:  # as above
        raise ApkError("INSTALL_PARSE_FAILED_NO_CERTIFICATES", f"its signature cannot be read ({error})") from None
    return Signing(schemes, tuple(hashlib.sha256(c).hexdigest() for c in certificates))
