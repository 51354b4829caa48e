"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function

import threading


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.sync.FunctionService"
    xml_file_name = "functions"

    def on_create(self) -> None:
        self.last_status = "never synced"
        threading.Timer(3600, self.sync_with_server).start()

    def sync_with_server(self) -> None:
        self.last_status = "synced"

    @app_function(described_by_docstring=True)
    def get_sync_status(self) -> str:
        """Gets the status of the last sync with the server.

        Returns:
            The status, for example synced.
        """
        return self.last_status
