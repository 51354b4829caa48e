"""The corpus: one small bad app per rule, each triggering its own rule and no other.

A corpus folder is named ``<rule id>_<what is wrong>``. Python apps are linted
from their declarations (``droidsim lint``) and from their XML and source
(the install-time lint); XML-only apps from their XML both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from droid.appfunctions.compiler import check
from sim.lint import RULES, lint_apps, lint_installed_app
from sim.lint import lint_apps
from tests.unit.lint.conftest import CORPUS

CASES = sorted(p for p in CORPUS.iterdir() if (p / "AndroidManifest.xml").is_file())


def expected_rule(app_dir: Path) -> str:
    return app_dir.name.split("_", 1)[0].upper()


@pytest.mark.parametrize("app_dir", CASES, ids=lambda p: p.name)
def test_each_corpus_app_triggers_its_own_rule_and_no_other(app_dir: Path) -> None:
    report = lint_apps([app_dir])
    (app,) = report.apps
    assert app.error is None and app.notes == []
    assert {f.rule for f in app.findings} == {expected_rule(app_dir)}, [f.one_line() for f in app.findings]
    assert all(f.suppressed_by is None for f in app.findings)


# I1 is what install refuses: an app that has it is never installed, so never install-time linted,
# and its corpus app's XML is stale on purpose. I2 and I3 are what install says itself (the indexer's
# notes, its warning of an app with no AppFunctions).
INSTALLABLE = [d for d in CASES if expected_rule(d) != "I1"]
INSTALL_TIME_LINTED = [d for d in INSTALLABLE if expected_rule(d) not in ("I2", "I3")]


@pytest.mark.parametrize("app_dir", INSTALL_TIME_LINTED, ids=lambda p: p.name)
def test_the_install_time_lint_finds_the_same_rule(app_dir: Path) -> None:
    assert {f.rule for f in lint_installed_app(app_dir)} == {expected_rule(app_dir)}


def test_the_corpus_has_an_app_for_every_rule() -> None:
    assert {expected_rule(d) for d in CASES} == set(RULES)


@pytest.mark.parametrize(
    "app_dir", [d for d in INSTALLABLE if list(d.glob("*.py")) and (d / "assets").is_dir()], ids=lambda p: p.name
)
def test_python_corpus_apps_ship_their_generated_xml(app_dir: Path) -> None:
    """The install-time lint reads the XML, so it must say what the code declares."""
    assert check(app_dir) == [], f"regenerate it: droidsim appfunctions generate {app_dir}"
