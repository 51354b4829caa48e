"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.quotes.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def get_quote(self, author: str, language: str | None = None) -> str:
        """Gets a famous quote by an author.

        Args:
            author: The author, for example Seneca.
            language: The language of the quote, for example French.

        Returns:
            The quote.
        """
        return f"{author}: Luck is what happens when preparation meets opportunity."
