"""Lint corpus app."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


NICKNAMES: dict[str, str | None] = {"c-1": "Ada"}


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.people.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def update_contact(self, contact_id: str, nickname: str | None = None) -> str:
        """Updates a contact's nickname.

        Args:
            contact_id: The contact's ID, for example c-1.
            nickname: The new nickname.

        Returns:
            The contact's nickname after the update.
        """
        if nickname is not None:
            NICKNAMES[contact_id] = nickname
        return NICKNAMES.get(contact_id) or ""
