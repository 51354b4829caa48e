"""Every sample app under apps/ (apps/system included) lints clean, as `make lint` runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli.lint import lint_command
from sim.lint import lint_installed_app
from tests.helpers import SAMPLE_APPS

ROOTS = (SAMPLE_APPS, SAMPLE_APPS / "system")  # the system image holds the preinstalled agent
APPS = [p.parent for root in ROOTS for p in sorted(root.glob("*/AndroidManifest.xml"))]


def test_the_sample_apps_lint_clean_together() -> None:
    """Linted as `droidsim lint apps apps/system`: each app, and the cross-app rules between them."""
    result = CliRunner().invoke(lint_command, [*map(str, ROOTS), "--json", "--show-suppressed"])
    report = json.loads(result.output)
    findings = [f"{f['rule']} {f['file']}:{f['line']} {f['message']}" for a in report["apps"] for f in a["findings"]]
    assert findings == []
    assert [a["app_dir"] for a in report["apps"]] == [str(p) for p in APPS]
    assert all(a["error"] is None and a["notes"] == [] for a in report["apps"])
    assert result.exit_code == 0


@pytest.mark.parametrize("app_dir", APPS, ids=lambda p: p.name)
def test_installing_a_sample_app_logs_no_lint_findings(app_dir: Path) -> None:
    assert [f.one_line() for f in lint_installed_app(app_dir)] == []
