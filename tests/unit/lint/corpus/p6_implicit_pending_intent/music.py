"""Lint corpus app."""

from __future__ import annotations

from droid.app import Intent, PendingIntent
from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.music.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def open_playlist(self, playlist_id: str) -> PendingIntent:
        """Opens a playlist in the music player.

        Args:
            playlist_id: The playlist's ID, for example road-trip.

        Returns:
            The screen that plays the playlist.
        """
        intent = Intent(action=f"com.example.music.PLAY/{playlist_id}")
        return PendingIntent.get_activity(self.context, 0, intent, PendingIntent.FLAG_IMMUTABLE)
