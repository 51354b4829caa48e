"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function

import time


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.jokes.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    async def get_joke(self, topic: str) -> str:
        """Gets a short joke about a topic.

        Args:
            topic: The topic, for example cats.

        Returns:
            The joke.
        """
        time.sleep(0.5)
        return f"Why did the {topic} cross the road?"
