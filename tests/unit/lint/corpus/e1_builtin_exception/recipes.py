"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


RECIPES = {"pancakes": "Mix flour, eggs and milk; fry."}


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.recipes.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def get_recipe(self, name: str) -> str:
        """Gets a recipe by its name.

        Args:
            name: The recipe's name, for example pancakes.

        Returns:
            The recipe's steps.
        """
        if name not in RECIPES:
            raise KeyError(name)
        return RECIPES[name]
