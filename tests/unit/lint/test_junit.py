"""droidsim lint --junit FILE: a testcase per app and rule, failed exactly when the rule found an
error there (what makes the lint exit 1); an app the lint cannot read is a testcase in error."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from click.testing import CliRunner

from sim.cli.main import cli
from sim.lint import RULES
from tests.helpers import REPO

BANK = REPO / "tests" / "apks" / "bank.apk"


def test_the_report_lists_every_rule_per_app_and_fails_the_ones_with_errors(tmp_path):
    report = tmp_path / "lint.xml"
    not_an_app = tmp_path / "empty"
    not_an_app.mkdir()
    result = CliRunner().invoke(cli, ["lint", str(BANK), str(REPO / "apps" / "orders"), str(not_an_app),
                                      "--junit", str(report)])
    assert result.exit_code == 2  # one app could not be read
    suite = ET.parse(report).getroot().find("testsuite")
    cases = {(c.get("classname"), c.get("name").split()[0]): c for c in suite.iter("testcase")}
    assert suite.get("tests") == str(2 * len(RULES) + 1)
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    failure = cases[("com.example.bank", "D1")].find("failure")
    assert failure.get("message").startswith("bank.apk!/assets/app_functions_v2.xml:68: sendPayment performs a 'send'")
    assert "the KDoc of sendPayment in PaymentFunctions" in failure.text
    assert cases[("com.example.bank", "P3")].find("failure") is None  # a warning passes, as the exit status says
    assert all(c.find("failure") is None for (package, _), c in cases.items() if package == "com.example.orders")
    assert cases[(str(not_an_app), "read")].find("error") is not None


def test_a_suppressed_error_passes(tmp_path):
    report = tmp_path / "lint.xml"
    result = CliRunner().invoke(cli, ["lint", str(BANK), "--junit", str(report),
                                      "--suppressions", str(REPO / "docs" / "examples" / "bank-lint.xml")])
    assert result.exit_code == 0
    assert ET.parse(report).getroot().get("failures") == "0"


def test_a_report_that_could_not_be_written_is_refused_before_any_lint(tmp_path):
    result = CliRunner().invoke(cli, ["lint", str(BANK), "--junit", str(tmp_path / "missing" / "lint.xml")])
    assert result.exit_code == 2
    assert "the folder" in result.output and "does not exist" in result.output
