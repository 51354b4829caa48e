"""Installing droidsim is enough: pytest finds the plugin through its entry point."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

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
