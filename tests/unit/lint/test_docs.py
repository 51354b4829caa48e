"""docs/lint-rules.md lists every rule, each with a bad and a good form."""

from __future__ import annotations

import re

from sim.lint import RULES
from tests.helpers import REPO


def test_every_rule_is_documented_with_a_bad_and_a_good_example() -> None:
    text = (REPO / "docs" / "lint-rules.md").read_text()
    sections = dict(re.findall(r"^### (\w+) — .*?\n(.*?)(?=^### |\Z)", text, re.M | re.S))
    assert set(sections) == set(RULES)
    for rule, body in sections.items():
        assert "Bad" in body and "Good" in body, rule
    for rule in RULES.values():
        heading = re.search(rf"^### {rule.id} — (.*)$", text, re.M).group(1)
        assert heading.startswith(rule.title) and f"({rule.severity}" in heading, rule.id


def test_the_suppressions_file_shown_is_the_example_the_page_runs() -> None:
    text = (REPO / "docs" / "lint-rules.md").read_text()
    shown = re.search(r"```xml\n(<lint>.*?</lint>)\n```", text, re.S).group(1)
    example = (REPO / "docs" / "examples" / "bank-lint.xml").read_text()
    assert shown in example
