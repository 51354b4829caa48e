"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


TITLES = ["Dune", "Dune Messiah", "Children of Dune"]


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.books.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def search_books(self, query: str, limit: int = 10) -> list[str]:
        """Searches the catalogue for books whose title contains a query.

        Args:
            query: Part of a title, for example Dune.
            limit: The most titles to return.

        Returns:
            The matching titles.
        """
        return [t for t in TITLES if query.lower() in t.lower()][:limit]
