"""Installing droidsim is enough: pytest finds the plugin through its entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from tests.helpers import COMMAND_BOUND, SAMPLE_APPS


def test_the_plugin_is_a_pytest11_entry_point() -> None:
    plugins = {e.name: e.value for e in entry_points(group="pytest11")}
    assert plugins.get("droidsim") == "sim.testing.plugin"


def test_a_project_outside_this_repository_gets_the_fixture_and_option(tmp_path) -> None:
    (tmp_path / "test_app.py").write_text(
        "import os\n"
        f"ORDERS = {str(SAMPLE_APPS / 'orders')!r}\n\n"
        "def test_it(droid_device):\n"
        "    droid_device.install(ORDERS)\n"
        "    assert droid_device.call('fetch_order_details', order_id='ORD-8492').status == 'SHIPPED'\n"
        "    assert droid_device.process_id('com.example.orders') not in (None, os.getpid())\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--droid-processes", "test_app.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_loading_the_plugin_does_not_import_the_device() -> None:
    """pytest loads it in every run where droidsim is installed, fixture used or not."""
    probe = "import sys, sim.testing.plugin; print('sim.device' in sys.modules, 'grpc' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_BOUND)
    assert result.stdout.split() == ["False", "False"], result.stderr


def _pytest(project, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, "test_sdk.py"],
                          cwd=project, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "400"})  # the summary's lines whole


def test_droid_sdk_sets_every_unmarked_test_and_the_marker_wins(tmp_path) -> None:
    (tmp_path / "test_sdk.py").write_text(
        "import pytest\n\n"
        "def test_unmarked(droid_device):\n"
        "    assert droid_device.sdk == 36\n\n"
        "@pytest.mark.droid_sdk(37)\n"
        "def test_marked(droid_device):\n"
        "    assert droid_device.sdk == 37\n"
    )
    result = _pytest(tmp_path, "--droid-sdk", "36")
    assert result.returncode == 0 and "2 passed" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize(("marker", "outcome", "message"), [
    ("@pytest.mark.droid_sdk(35)", "1 passed, 1 skipped",
     "SKIPPED [1] test_sdk.py:6: @pytest.mark.droid_sdk(35): no platform version with SDK 35: this simulator has 36, 37"),
    ("@pytest.mark.droid_sdk(35, 37)", "2 passed, 1 skipped",
     "SKIPPED [1] test_sdk.py:6: @pytest.mark.droid_sdk(35, 37): no platform version with SDK 35"),
    ("@pytest.mark.droid_sdk('36')", "1 passed, 1 error",
     "ERROR test_sdk.py::test_it[sdk36] - Failed: @pytest.mark.droid_sdk('36'): an SDK level is an int, not '36'"),
    ("@pytest.mark.droid_sdk()", "1 passed, 1 error",
     "ERROR test_sdk.py::test_it[sdk] - Failed: @pytest.mark.droid_sdk(): name an SDK level, e.g. @pytest.mark.droid_sdk(37)"),
])
def test_a_marked_sdk_the_simulator_lacks_costs_that_test_alone(tmp_path, marker, outcome, message) -> None:
    """An Android droidsim does not simulate skips the test; a marker that names no SDK fails it; the
    module's other tests run."""
    (tmp_path / "test_sdk.py").write_text(
        f"import pytest\n\ndef test_other(droid_device):\n    pass\n\n{marker}\ndef test_it(droid_device):\n    pass\n")
    result = _pytest(tmp_path, "-rsE")
    assert outcome in result.stdout and message in result.stdout, result.stdout + result.stderr


def test_an_sdk_option_the_simulator_lacks_is_refused_naming_the_ones_it_has(tmp_path) -> None:
    (tmp_path / "test_sdk.py").write_text("def test_it(droid_device):\n    pass\n")
    result = _pytest(tmp_path, "--droid-sdk", "35")
    assert result.returncode != 0
    assert "--droid-sdk 35: no platform version with SDK 35: this simulator has 36, 37" in result.stderr, result.stderr
