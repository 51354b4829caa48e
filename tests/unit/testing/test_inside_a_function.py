"""What a function knows inside (docs/declaring-functions.md, "Inside a function"): the calling
package, the app's own Context and data folder, and what `pm clear` removes; the same on threads
and in the app's own process."""

from __future__ import annotations

import pytest

from sim.cli.scaffold import new_app
from sim.testing import TestDevice
from tests.helpers import SAMPLE_APPS

AGENT = "com.example.assistant"
NOTEBOOK = '''"""Notebook's AppFunctions: what a function knows inside."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class NotebookFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.notebook.NotebookFunctionService"
    xml_file_name = "notebook_functions"

    def __init__(self) -> None:
        self.calls = 0

    @app_function(described_by_docstring=True)
    async def write_line(self, text: str) -> str:
        """Adds a line to the notebook and says who asked.

        Args:
            text: The line to add, for example Buy milk.

        Returns:
            The caller's package, the app's package, the lines kept and the calls since the app started.
        """
        self.calls += 1
        notebook = self.context.data_dir / "notebook.txt"
        with notebook.open("a") as lines:
            lines.write(text + "\\n")
        kept = len(notebook.read_text().splitlines())
        return f"{self.calling_package} {self.context.package_name} {kept} {self.calls}"
'''


@pytest.fixture
def notebook(tmp_path):
    app = tmp_path / "notebook"
    new_app(app, "com.example.notebook", "Notebook")
    (app / "notebook.py").write_text(NOTEBOOK)
    from droid.appfunctions.compiler import generate

    generate(app)
    return app


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_a_function_knows_its_caller_and_its_data_folder_and_pm_clear_empties_it(notebook, processes) -> None:
    with TestDevice(processes=processes) as device:
        device.install(notebook)
        device.install(SAMPLE_APPS / "system" / "assistant", system=True)
        device.pregrant_agent(AGENT)
        assert device.call("write_line", text="Buy milk") == "com.android.shell com.example.notebook 1 1"
        assert device.caller(AGENT).call("write_line", text="Call Ada") == f"{AGENT} com.example.notebook 2 2"
        device.device.package_manager.clear_package_data("com.example.notebook")  # pm clear
        # the app was stopped (its memory is gone) and its files with it
        assert device.call("write_line", text="Start again") == "com.android.shell com.example.notebook 1 1"


def test_calling_package_outside_a_call_says_so(notebook) -> None:
    from droid.appfunctions.loader import load_app_service_class

    service = load_app_service_class(notebook, "com.example.notebook.NotebookFunctionService")()
    with pytest.raises(RuntimeError, match="calling_package is known only while an AppFunction of this service runs"):
        service.calling_package
