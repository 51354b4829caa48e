"""``droidsim lint --junit FILE``: the lint as CI test results (sim/junit.py writes them).

One testcase per app and rule, so a CI's test view lists what was checked, not only what
failed: it fails when the rule found an error in that app (what makes the lint exit 1), with
every finding of the rule as its text; a rule with warnings only passes, as the exit status
does. An app the lint could not read is one testcase in error.
"""

from __future__ import annotations

from pathlib import Path

from sim.junit import JUnitCase, write_junit
from sim.lint.rules import ERROR, RULES
from sim.lint.runner import LintReport


def write_lint_junit(path: Path, report: LintReport) -> None:
    write_junit(path, "droidsim lint", [case for app in report.apps for case in _cases(app)])


def _cases(app) -> list[JUnitCase]:
    classname = app.package or str(app.app_dir)
    if app.error:
        return [JUnitCase(classname, "read", failure=app.error, error=True)]
    cases = []
    for rule in RULES.values():
        findings = [f for f in app.active if f.rule == rule.id]
        errors = [f for f in findings if f.severity == ERROR]
        details = "\n".join(f"{f.location}: {f.severity} {f.rule} {f.message}\nfix: {f.fix}" for f in findings)
        cases.append(JUnitCase(classname, f"{rule.id} {rule.title}",
                               failure=f"{errors[0].location}: {errors[0].message}" if errors else None,
                               details=details))
    return cases
