"""The τ² apps as folders: their function XML is what the compiler writes, and the quality lint
finds nothing it does not say why it leaves (a directive with its reason, in the code)."""

from __future__ import annotations

import pytest

from droid.appfunctions.compiler import check
from sim.lint import lint_apps
from sim.tau2.data import APPS, DOMAINS


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_function_xml_is_up_to_date(domain):
    assert check(APPS / domain) == [], f"run: droidsim appfunctions generate {APPS / domain}"


def test_the_lint_finds_nothing_left_unexplained():
    report = lint_apps([APPS / domain for domain in DOMAINS])
    findings = [f for app in report.apps for f in app.findings]
    assert [f.one_line() for f in findings if f.suppressed_by is None] == []
    assert {f.rule for f in findings} == {"D1", "P1", "F9", "P3"}
