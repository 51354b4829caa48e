"""The one module that uses androguard: binary XML and resources.arsc, read.

androguard is a dependency of droidsim, imported on first use so that nothing else pays for it; the rest of droidsim sees only what this module returns. It was
chosen over apkInspector (corrupts strings of 128 bytes or more), pyaxmlparser (its by-name
resource lookup returns nothing) and apk-info (cannot decode res/xml), as issue 21 records.
The bytes it reads come from :class:`sim.apk.archive.ApkArchive`, which has already bounded them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from sim.apk.errors import ApkError
from sim.xmlsafe import MAX_DEPTH

# Elements of one binary XML document: a large app's manifest holds a few thousand, a KSP
# function file of 250 functions some ten thousand; past this, decoding one takes seconds.
MAX_ELEMENTS = 100_000
INSTALL_HINT = ("reading an APK needs androguard, a dependency of droidsim that this environment lacks: "
                "reinstall droidsim (pip install CHECKOUT, or the wheel built from it)")


@dataclass(frozen=True)
class Resource:
    """One resource id as resources.arsc defines it: its type and name, and its value per
    configuration (the qualifier as aapt2 writes it, "" for the default, e.g. "v37", "fr")."""

    type: str
    name: str
    values: tuple[tuple[str, str], ...]


class _Silent:
    """Stands in for androguard's loguru logger: it logs every chunk it reads (some 660 calls
    an APK), and even disabled, each call costs loguru a lookup (a sixth of a decode)."""

    def _nothing(self, *args: object, **kwargs: object) -> None:
        pass

    trace = debug = info = success = warning = error = critical = exception = _nothing


def _androguard() -> Any:
    try:
        from loguru import logger

        from androguard.core import axml
    except ImportError:
        raise ApkError("INSTALL_FAILED_INTERNAL_ERROR", INSTALL_HINT) from None
    logger.disable("androguard")  # what its other modules might log
    axml.logger = _Silent()  # the one a decode calls
    return axml


def preload() -> None:
    """Import androguard now (the verifier's zygote, before it forks); ApkError if it is missing."""
    _androguard()


def binary_xml(data: bytes, where: str) -> etree._Element:
    """A binary XML (AXML) document as an element tree; ApkError naming ``where`` if it is not one.

    androguard's ``AXMLParser`` reads the document; the tree is built here, not by its
    ``AXMLPrinter``, which formats a debug message for every element and attribute whether
    or not anything logs it (a quarter of a decode) and renames what XML does not allow.
    A name or value XML does not allow is refused instead: lxml will not build it. Nesting is
    bounded as for text XML (sim/xmlsafe.py), and the number of elements too, checked as each
    element opens: building a deeper tree costs time that grows with the square of its depth."""
    axml = _androguard()
    try:
        root = _tree(axml.AXMLParser(data), axml)
    except TooLarge as bound:
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} {bound}, the device's bound") from None
    except MemoryError:  # the decoder's bound (sim/pm/spare_decoder.py), not malformed input
        raise
    except Exception as error:  # androguard and lxml raise what they meet: any of it means malformed
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} is not valid binary XML ({error})") from None
    if root is None:
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{where} is not valid binary XML")
    return root


class TooLarge(Exception):
    """Binary XML nested past MAX_DEPTH, or with more than MAX_ELEMENTS elements."""


def _tree(parser: Any, axml: Any) -> etree._Element | None:
    """The elements, attributes and text ``parser`` reads, as a tree; None if it is not valid."""
    open_elements: list[etree._Element] = []
    root = None
    count = 0
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
            count += 1
            if len(open_elements) > MAX_DEPTH:
                raise TooLarge(f"nests elements deeper than {MAX_DEPTH} levels")
            if count > MAX_ELEMENTS:
                raise TooLarge(f"holds more than {MAX_ELEMENTS} elements")
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
        axml = _androguard()
        self._package = package
        try:
            self._parser = axml.ARSCParser(data)
            names = self._parser.get_packages_names()
        except MemoryError:  # the decoder's bound (sim/pm/spare_decoder.py), not malformed input
            raise
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
        except MemoryError:  # the decoder's bound (sim/pm/spare_decoder.py), not malformed input
            raise
        except Exception as error:  # as above
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{self._where}: resource 0x{resource_id:08X} cannot be read ({error})") from None
        return Resource(type_, name, values)
