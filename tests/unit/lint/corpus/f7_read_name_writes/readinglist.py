"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.readinglist.FunctionService"
    xml_file_name = "functions"

    def __init__(self) -> None:
        self.saved: list[str] = ["Dune"]

    @app_function(described_by_docstring=True)
    def fetch_reading_list(self) -> list[str]:
        """Fetches the titles of the books saved in the reading list.

        Returns:
            The book titles, oldest first.
        """
        titles = list(self.saved)
        self.saved.clear()
        return titles
