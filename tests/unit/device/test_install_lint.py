"""Install logs quality-lint findings as warnings and still installs the app."""

from __future__ import annotations

import logging

from tests.helpers import REPO, copy_app

CORPUS = REPO / "tests" / "unit" / "lint" / "corpus"


def test_lint_findings_are_logged_not_refused(device, tmp_path, caplog):
    app = copy_app(CORPUS / "a1_no_app_description", tmp_path)
    (app / "__init__.py").touch()
    (app / "forecast.py").write_text(
        "from droid.appfunctions import AppFunctionService\n\n\n"
        "class FunctionService(AppFunctionService):\n"
        "    pass\n"
    )
    with caplog.at_level(logging.WARNING, logger="droidsim.pm"):
        package = device.install(app)
    assert package.package_name == "com.example.lint.forecast"
    warnings = [r.getMessage() for r in caplog.records if r.name == "droidsim.pm"]
    assert any("com.example.lint.forecast lint:" in w and "A1" in w for w in warnings), warnings
