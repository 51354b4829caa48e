"""What checks report (``Issue``) and what the lint reports (``Finding``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.lint.directives import Directive
from sim.lint.model import Scope
from sim.lint.rules import RULES, Severity


@dataclass(frozen=True)
class Issue:
    """A problem a check found; the runner settles severity, location and suppression."""

    rule: str
    scope: Scope
    message: str
    fix: str
    line: int | None = None  # default: the scope's line (a file line, e.g. a parameter's)
    file: str | None = None  # default: the scope's file
    severity: Severity | None = None  # default: the rule's

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"unknown lint rule {self.rule!r}")


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    package: str
    function_id: str | None
    file: str
    line: int
    message: str
    fix: str
    suppressed_by: Directive | None = None

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def title(self) -> str:
        return RULES[self.rule].title

    def one_line(self) -> str:
        """``warning F3 notes.py:12 com.example#f: message`` (for logs)."""
        where = f" {self.function_id}" if self.function_id else ""
        return f"{self.severity} {self.rule} {self.location}{where}: {self.message} Fix: {self.fix}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "title": self.title,
            "package": self.package,
            "function_id": self.function_id,
            "file": self.file,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "suppressed": self.suppressed_by is not None,
            "reason": self.suppressed_by.reason if self.suppressed_by else None,
        }
