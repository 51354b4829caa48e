"""The lint's output: a table per app and a summary line, or JSON for scripts.

Colour comes from rich, which leaves it out when the output is not a terminal.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from sim.lint.findings import Finding
from sim.lint.runner import AppReport, LintReport, display_path

_STYLE = {"error": "bold red", "warning": "yellow", "suppressed": "dim"}


def report_json(report: LintReport, show_suppressed: bool) -> dict[str, Any]:
    """``{"apps": [{app_dir, package, error, notes, findings: [...]}], "summary": {...}}``;
    suppressed findings are listed only with ``show_suppressed``, always counted."""
    return {
        "apps": [
            {
                "app_dir": str(app.app_dir),
                "package": app.package,
                "error": app.error,
                "notes": app.notes,
                "findings": [f.to_dict() for f in _shown(app, show_suppressed)],
            }
            for app in report.apps
        ],
        "summary": summary_counts(report),
    }


def summary_counts(report: LintReport) -> dict[str, int]:
    return {
        "apps": len(report.apps),
        "errors": report.errors,
        "warnings": report.warnings,
        "suppressed": report.suppressed,
        "unreadable": report.unreadable,
        "exit_code": report.exit_code,
    }


def print_report(report: LintReport, show_suppressed: bool, console: Console) -> None:
    for app in report.apps:
        _print_app(app, show_suppressed, console)
    console.print(summary_line(report))


def summary_line(report: LintReport) -> Text:
    parts = [
        _count(report.errors, "error", "bold red"),
        _count(report.warnings, "warning", "yellow"),
        Text(f"{report.suppressed} suppressed"),
    ]
    if report.unreadable:
        parts.append(_count(report.unreadable, "unreadable app", "bold red"))
    apps = len(report.apps)
    line = Text(f"Linted {apps} app{'s' if apps != 1 else ''}: ")
    return line + Text(", ").join(parts)


def _count(n: int, noun: str, style: str) -> Text:
    return Text(f"{n} {noun}{'s' if n != 1 else ''}", style=style if n else "")


def _print_app(app: AppReport, show_suppressed: bool, console: Console) -> None:
    console.print(Text.assemble((app.package or "?", "bold"), f"  {app.app_dir}"), soft_wrap=True)
    if app.error:
        console.print(Text.assemble(("  cannot lint: ", "bold red"), app.error), soft_wrap=True)
        return
    for note in app.notes:
        console.print(Text(f"  note: {note}", style="dim"), soft_wrap=True)
    findings = _shown(app, show_suppressed)
    if not findings:
        console.print(Text("  no findings", style="green"))
    for finding in findings:
        console.print(_diagnostic(finding), soft_wrap=True)


def _diagnostic(finding: Finding) -> Text:
    """``  file:line: severity RULE [function] message`` then the fix (and reason),
    one finding per entry, in the form editors and CI logs link to their source."""
    severity = "suppressed" if finding.suppressed_by else finding.severity
    function = (finding.function_id or "").rsplit("#", 1)[-1]
    text = Text.assemble(
        f"  {finding.location}: ", (severity, _STYLE[severity]), " ", (finding.rule, "bold"),
        f" [{function}] " if function else " ", finding.message,
    )
    text.append(f"\n      fix: {finding.fix}", style="dim")
    if finding.suppressed_by:
        text.append(
            f"\n      suppressed {finding.severity} ({display_path(finding.suppressed_by.file)}:"
            f"{finding.suppressed_by.line}): "
            f"{finding.suppressed_by.reason}",
            style="italic",
        )
    return text


def _shown(app: AppReport, show_suppressed: bool) -> list[Finding]:
    return app.findings if show_suppressed else app.active
