"""The AppFunctions lint: spec/quality-guidelines.md as checks (docs/lint-rules.md).

``lint_apps`` lints app folders for ``droidsim lint``; ``lint_installed_app`` is
the install-time variant, which never runs app code.
"""

from sim.lint.findings import Finding
from sim.lint.peers import Peer, peers_from_device
from sim.lint.reader import LintInputError
from sim.lint.rules import RULES, Rule
from sim.lint.runner import AppReport, LintReport, lint_apps, lint_installed_app

__all__ = [
    "RULES",
    "AppReport",
    "Finding",
    "LintInputError",
    "LintReport",
    "Peer",
    "Rule",
    "lint_apps",
    "lint_installed_app",
    "peers_from_device",
]
