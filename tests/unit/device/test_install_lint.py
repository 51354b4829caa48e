"""Install writes quality-lint findings to the device log (INFO) and still installs the app;
the device's window (WARNING and up) stays free of them, as `make conformance` needs."""

from __future__ import annotations

import io
import logging

from sim.logcat import LOG_NAME, configure_device_logging
from tests.helpers import REPO, copy_app

CORPUS = REPO / "tests" / "unit" / "lint" / "corpus"


def _app_with_findings(tmp_path):
    app = copy_app(CORPUS / "a1_no_app_description", tmp_path)
    (app / "__init__.py").touch()
    (app / "forecast.py").write_text(
        "from droid.appfunctions import AppFunctionService\n\n\n"
        "class FunctionService(AppFunctionService):\n"
        "    pass\n"
    )
    return app


def test_lint_findings_are_logged_not_refused(device, tmp_path, caplog):
    app = _app_with_findings(tmp_path)
    with caplog.at_level(logging.INFO, logger="droidsim.pm"):
        package = device.install(app)
    assert package.package_name == "com.example.lint.forecast"
    logged = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "droidsim.pm"]
    assert any(level == logging.INFO and "com.example.lint.forecast lint:" in m and "A1" in m for level, m in logged)
    assert not [m for level, m in logged if level >= logging.WARNING and "lint" in m]


def test_lint_findings_reach_the_log_file_not_the_device_window(device, tmp_path):
    root = logging.getLogger()
    window = logging.StreamHandler(io.StringIO())
    saved_level, saved_handlers = root.level, list(root.handlers)
    root.addHandler(window)
    try:
        configure_device_logging(tmp_path / "logdir")
        device.install(_app_with_findings(tmp_path))
    finally:
        for handler in root.handlers[:]:
            if handler not in saved_handlers:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(saved_level)
    assert "lint" not in window.stream.getvalue()
    assert "com.example.lint.forecast lint:" in (tmp_path / "logdir" / LOG_NAME).read_text()
