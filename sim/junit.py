"""JUnit XML, the test report every CI reads (GitHub's and GitLab's test reports, Jenkins).

One ``<testsuite>`` of ``<testcase>`` elements, each passed, failed (``<failure>``: the
check said no, with the reason) or in error (``<error>``: it could not be checked), in the
shape pytest's ``--junitxml`` writes and those tools read (Jenkins' junit-10.xsd, plus
``<error>``). ``droidsim eval
--junit`` writes one testcase per case and trial, ``droidsim lint --junit`` one per check; each
says what ran and how it went, this module only how CI reads it.
"""

from __future__ import annotations

import os
import re
import socket
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

# What XML 1.0 cannot hold at all (a model's reply may contain anything).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class JUnitPathError(ValueError):
    """The report cannot be written where it was asked for."""


@dataclass(frozen=True)
class JUnitCase:
    classname: str  # how CI groups the cases (dots nest)
    name: str
    seconds: float = 0.0
    failure: str | None = None  # the reason in one line; None: passed
    details: str = ""  # everything about it, as the failure's text
    error: bool = False  # could not be checked (infrastructure), rather than checked and wrong
    properties: tuple[tuple[str, str], ...] = ()  # name, value: what CI shows beside the case


def check_writable(path: Path) -> None:
    """Refuse, before any work is done, a report that could not be written at the end."""
    if path.is_dir():
        raise JUnitPathError(f"--junit {path}: is a folder; give the report's file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise JUnitPathError(f"--junit {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise JUnitPathError(f"--junit {path}: not writable")


def write_junit(path: Path, suite: str, cases: Iterable[JUnitCase]) -> None:
    """The report, replacing ``path`` whole (a reader never sees half of it)."""
    cases = list(cases)
    failures = sum(1 for c in cases if c.failure is not None and not c.error)
    errors = sum(1 for c in cases if c.error)
    seconds = f"{sum(c.seconds for c in cases):.3f}"
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": str(errors), "time": seconds}
    root = ET.Element("testsuites", {"name": _text(suite), **counts})
    testsuite = ET.SubElement(root, "testsuite", {"name": _text(suite), **counts, "skipped": "0",
                                                  "hostname": socket.gethostname()})
    for case in cases:
        element = ET.SubElement(testsuite, "testcase", {"classname": _text(case.classname), "name": _text(case.name),
                                                        "time": f"{case.seconds:.3f}"})
        if case.properties:
            listed = ET.SubElement(element, "properties")
            for name, value in case.properties:
                ET.SubElement(listed, "property", {"name": _text(name), "value": _text(value)})
        if case.failure is not None:
            kind = "error" if case.error else "failure"
            outcome = ET.SubElement(element, kind, {"message": _text(case.failure), "type": kind})
            outcome.text = _text(case.details or case.failure)
    ET.indent(root)
    data = ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
    with tempfile.NamedTemporaryFile(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.",
                                     delete=False) as file:
        file.write(data)
    os.chmod(file.name, 0o644)
    os.replace(file.name, path)


def _text(value: str) -> str:
    return _NOT_XML.sub("\ufffd", value)
