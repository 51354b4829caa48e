"""Runs the checks over app folders and settles each finding.

A finding gets its rule's severity unless the check says otherwise, points at
the scope's file:line unless the check names a more precise line, and is
suppressed when a directive in its scope names its rule with a reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from sim.lint.checks import APP_CHECKS, CROSS_CHECKS
from sim.lint.checks.indexing import check_indexing
from sim.lint.findings import Finding, Issue
from sim.lint.model import App
from sim.lint.peers import Peer, peers_for, peers_from_apps
from sim.lint.reader import LintInputError, read_app
from sim.lint.rules import ERROR, RULES, WARNING
from sim.lint.source import ModuleCache
from sim.lint.suppressions import Suppression

EXIT_CLEAN = 0
EXIT_ERRORS = 1
EXIT_UNREADABLE = 2


@dataclass
class AppReport:
    app_dir: Path
    package: str | None = None
    findings: list[Finding] = field(default_factory=list)  # suppressed ones included
    notes: list[str] = field(default_factory=list)
    error: str | None = None  # the app could not be read

    @property
    def active(self) -> list[Finding]:
        return [f for f in self.findings if f.suppressed_by is None]

    @property
    def suppressed(self) -> list[Finding]:
        return [f for f in self.findings if f.suppressed_by is not None]


@dataclass
class LintReport:
    apps: list[AppReport]

    def count(self, severity: str) -> int:
        return sum(1 for app in self.apps for f in app.active if f.severity == severity)

    @property
    def errors(self) -> int:
        return self.count(ERROR)

    @property
    def warnings(self) -> int:
        return self.count(WARNING)

    @property
    def suppressed(self) -> int:
        return sum(len(app.suppressed) for app in self.apps)

    @property
    def unreadable(self) -> int:
        return sum(1 for app in self.apps if app.error)

    @property
    def exit_code(self) -> int:
        """2 when an app could not be read, else 1 when there is an error, else 0."""
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_ERRORS if self.errors else EXIT_CLEAN


def lint_apps(
    app_dirs: Iterable[Path | str], *, device_peers: Sequence[Peer] = (), import_code: bool = True,
    android16_services: Mapping[Path, Sequence[str]] = {}, suppressions: Sequence[Suppression] = (),
) -> LintReport:
    """Lint app folders together: cross-function rules compare each app with the
    others and with ``device_peers`` (every function on a device). ``android16_services``
    names, for a folder decoded from an APK, the services an Android 16 phone indexes;
    ``suppressions`` (from a file) silence findings as the directives written in an app do."""
    cache = ModuleCache()
    reports: list[AppReport] = []
    read: list[tuple[App, AppReport]] = []
    for app_dir in map(Path, app_dirs):
        try:
            app = read_app(app_dir, import_code=import_code, cache=cache)
        except LintInputError as e:
            reports.append(AppReport(app_dir, error=str(e)))
            continue
        if app_dir in android16_services:
            app.android16_services = list(android16_services[app_dir])
        elif (record := _extract_record(app_dir)) is not None:  # a folder `droidsim apk extract` wrote
            app.android16_services = record.android16_services
        report = AppReport(app_dir, app.package, notes=app.notes)
        reports.append(report)
        read.append((app, report))
    all_peers = peers_from_apps(app for app, _ in read) + list(device_peers)
    for app, report in read:
        report.findings = lint_app(app, peers_for(app, all_peers), suppressions, also=(check_indexing,))
        if import_code:  # a folder without code too: whatever install refuses, lint reports
            report.findings += install_refusal(app)
    return LintReport(reports)


def _extract_record(app_dir: Path):
    from sim.apk.extract_record import read_extract_record

    try:
        return read_extract_record(app_dir)
    except ValueError:
        return None  # lint as a plain folder; install says what is wrong with the record


def install_refusal(app: App) -> list[Finding]:
    """I1: what ``droidsim install`` would refuse, found by install's own checks (stale or
    missing function XML, a service without BIND_APP_FUNCTION_SERVICE...), run here with the
    app's code imported in this process, as the lint's other code rules do."""
    from sim.pm.code_verifier import InProcessCodeVerifier
    from sim.pm.app_parser import parse_app
    from sim.pm.install_error import InstallError

    try:
        parse_app(app.app_dir, InProcessCodeVerifier(), lambda manifest: None)
    except InstallError as error:
        if app.kotlin:  # KSP wrote the XML from the declarations; the manifest is the developer's
            fix = ("Change what the message names in AndroidManifest.xml or the @AppFunction declarations KSP "
                   "reads, and rebuild (./gradlew assembleDebug); install refuses the app until then.")
        elif error.reason in ("INSTALL_FAILED_FUNCTION_MISMATCH", "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML"):
            fix = _compiler_refusal(app.app_dir) or (
                f"Regenerate the function XML: droidsim appfunctions generate {display_path(str(app.app_dir))}"
            )
        else:
            fix = "Change what the message names; install refuses the app until then."
        return [Finding("I1", ERROR, app.package, None, display_path(str(app.app_dir / "AndroidManifest.xml")), 1,
                        str(error), fix)]
    return []


def _compiler_refusal(app_dir: Path) -> str | None:
    """What ``droidsim appfunctions generate`` says it cannot do for this app (a manifest that
    names another XML file than the code's, a service that is no entry point), so the fix lint
    gives is generate's own; None when generate would simply write the XML."""
    from droid.appfunctions.compiler import entry_points
    from droid.appfunctions.loader import AppLoadError
    from droid.appfunctions.typeref import AppFunctionCompileError

    try:
        entry_points(app_dir)
    except (AppFunctionCompileError, AppLoadError) as error:
        return str(error)
    return None


def lint_app(
    app: App, peers: Sequence[Peer] = (), suppressions: Sequence[Suppression] = (),
    also: Sequence[Callable[[App], Iterable[Issue]]] = (),
) -> list[Finding]:
    """``suppressions``: from a file, beside the directives written in the app; ``also``: checks
    ``droidsim lint`` runs but the install-time lint does not."""
    issues = [i for check in (*APP_CHECKS, *also) for i in check(app)]
    issues += [i for check in CROSS_CHECKS for i in check(app, peers)]
    findings: dict[tuple, Finding] = {}
    for issue in issues:
        finding = _settle(app, issue, suppressions)
        findings.setdefault((finding.rule, finding.file, finding.line, finding.function_id, finding.message), finding)
    return sorted(findings.values(), key=lambda f: (f.file, f.line, f.rule))


def lint_installed_app(app_dir: Path, android16_services_known: bool = True) -> list[Finding]:
    """The findings to log when ``app_dir`` is installed, unsuppressed ones only.

    Reads the XML and the source without importing or running app code, and
    compares with nothing else (install does not refuse an app over lint
    findings). Raises ``LintInputError`` only for an app install would refuse
    anyway (missing manifest, invalid XML). ``android16_services_known`` False (an APK's copy,
    decoded for the device's SDK): R1 says nothing, as it cannot tell what Android 16 enables."""
    app = read_app(Path(app_dir), import_code=False)
    if not android16_services_known:
        app.android16_services = []
    return [f for f in lint_app(app) if f.suppressed_by is None]


def _settle(app: App, issue: Issue, suppressions: Sequence[Suppression]) -> Finding:
    written = [s.directive for s in suppressions if s.covers(app.package, issue.scope.function_id)]
    directive = next((d for d in [*issue.scope.directives, *written] if d.silences(issue.rule)), None)
    return Finding(
        rule=issue.rule,
        severity=issue.severity or RULES[issue.rule].severity,
        package=app.package,
        function_id=issue.scope.function_id,
        file=display_path(issue.file or issue.scope.file),
        line=issue.line or issue.scope.line,
        message=issue.message,
        fix=issue.fix,
        suppressed_by=directive,
    )


def display_path(path: str) -> str:
    """Relative to the working directory when inside it, as compilers print paths."""
    if not path:
        return path
    resolved = Path(path).resolve()
    try:
        return str(resolved.relative_to(Path.cwd()))
    except ValueError:
        return os.path.normpath(path) if not Path(path).is_absolute() else str(resolved)
