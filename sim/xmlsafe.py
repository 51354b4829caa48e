"""The only way the device parses XML.

Everything an app ships (manifest, function XML, resources, dialect XSD) is untrusted input that
is parsed at install time inside the system server. So parsing is bounded and inert: the size is
checked before a byte is read, no DTD is loaded, nothing is fetched, entities are never expanded
(a DOCTYPE that declares entities or names an external DTD is refused outright), and nesting is
capped. Every failure is one exception type that names the file and line, so an install can be
refused with a message a developer can act on.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

MAX_BYTES = 8 * 1024 * 1024
# Deeper than any real manifest or function XML (a data type nests two levels per level of type).
MAX_DEPTH = 64


class XmlError(ValueError):
    """A refused XML document: ``str()`` is ``"<file>:<line>: <reason>"``.

    ``line`` is 1 when the problem concerns the whole document (size, encoding, I/O).
    """

    def __init__(self, file: str | Path, line: int, reason: str) -> None:
        self.file = str(file)
        self.line = line
        self.reason = reason
        super().__init__(f"{self.file}:{line}: {reason}")

    @classmethod
    def at(cls, element: etree._Element, reason: str) -> XmlError:
        """An error located at ``element`` of a document returned by :func:`parse_xml`."""
        return cls(element.getroottree().docinfo.URL or "<xml>", element.sourceline or 1, reason)


def parse_xml(
    source: Path | bytes,
    *,
    what: str,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> etree._Element:
    """Parse ``source`` safely and return its root element; raise :class:`XmlError` if refused.

    ``what`` says what the document is ("manifest", "function XML"); for ``bytes`` it also
    stands in for the file name. Comments and processing instructions are dropped, so callers
    see elements and text only.
    """
    name = str(source) if isinstance(source, Path) else f"<{what}>"
    data = _read_bounded(source, name, what, max_bytes)
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser, base_url=name)
    except etree.XMLSyntaxError as e:
        raise XmlError(name, e.lineno or 1, f"{what} could not be parsed: {e.msg}") from None
    _refuse_dtd(root, name, what)
    _refuse_deep_nesting(root, what, max_depth)
    return root


def _read_bounded(source: Path | bytes, name: str, what: str, max_bytes: int) -> bytes:
    too_big = f"{what} is larger than the {max_bytes}-byte limit"
    if isinstance(source, bytes):
        data = source
    else:
        try:
            if source.stat().st_size > max_bytes:
                raise XmlError(name, 1, too_big)
            with source.open("rb") as f:
                data = f.read(max_bytes + 1)  # the file may have grown since stat()
        except OSError as e:
            raise XmlError(name, 1, f"cannot read {what}: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise XmlError(name, 1, too_big)
    return data


def _refuse_dtd(root: etree._Element, name: str, what: str) -> None:
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    if docinfo.system_url or docinfo.public_id:
        raise XmlError(name, 1, f"{what} must not reference an external DTD")
    if dtd is not None and next(dtd.iterentities(), None) is not None:
        raise XmlError(name, 1, f"{what} must not declare entities in its DOCTYPE")


def _refuse_deep_nesting(root: etree._Element, what: str, max_depth: int) -> None:
    depth = 0
    for event, element in etree.iterwalk(root, events=("start", "end")):
        depth += 1 if event == "start" else -1
        if depth > max_depth:
            raise XmlError.at(element, f"{what} nests elements deeper than {max_depth} levels")
