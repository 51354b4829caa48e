"""Lint corpus app: the code uses its language parameter, but its XML is the generated one of
before the parameter became required (stale), which install refuses."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.quotes.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def get_quote(self, author: str, language: str | None) -> str:
        """Gets a famous quote by an author.

        Args:
            author: The author, for example Seneca.
            language: The language of the quote, for example French.

        Returns:
            The quote.
        """
        return f"{author} ({language or 'en'}): Luck is what happens when preparation meets opportunity."
