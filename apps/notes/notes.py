"""The notes app's AppFunctions: create, read and update notes."""

from __future__ import annotations

from dataclasses import dataclass

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    SetField,
    app_function,
    app_function_serializable,
)
from droid.net import Uri

from .store import DEFAULT_OWNER, NoteStore, StoredAttachment, StoredNote


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Attachment:
    """A file attached to a note.

    Attributes:
        uri: Where the file is, for example content://com.example.files/42.
        mime_type: The file's MIME type, for example image/png, if known.
    """

    uri: Uri
    mime_type: str | None = None


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Note:
    """A note.

    Attributes:
        note_id: The note's ID.
        title: The note's title.
        content: The note's body text, or null when it has none.
        owner: The ID of the user who owns the note.
        attachments: The files attached to the note.
    """

    note_id: str
    title: str
    content: str | None
    owner: str
    attachments: list[Attachment]


def _note(stored: StoredNote) -> Note:
    return Note(
        stored.id,
        stored.title,
        stored.content,
        stored.owner,
        [Attachment(a.uri, a.mime_type) for a in stored.attachments],
    )


def _check_title(title: str) -> str:
    if not title.strip():
        raise AppFunctionInvalidArgumentException("A note's title cannot be empty")
    return title


class NoteFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.notes.NoteFunctionService"
    xml_file_name = "note_functions"

    def __init__(self) -> None:
        self.store = NoteStore()

    @app_function(described_by_docstring=True)
    async def create_note(
        self,
        title: str,
        content: str | None = None,
        attachments: list[Attachment] = [],  # noqa: B006 - marks it optional; omitted → []
        owner: str | None = None,
    ) -> Note:
        """Creates a note.

        Args:
            title: The title of the note.
            content: The body text of the note.
            attachments: The files to attach to the note.
            owner: The ID of the user who owns the note; the current user when omitted.

        Returns:
            The created note.
        """
        stored = self.store.create(
            title=_check_title(title),
            # An omitted optional parameter arrives as its type's default (None, [])
            # and never as the declared default, so resolve real defaults here.
            content=content,
            owner=owner or DEFAULT_OWNER,
            attachments=[StoredAttachment(a.uri, a.mime_type) for a in attachments],
        )
        return _note(stored)

    @app_function(described_by_docstring=True)
    async def get_note(self, note_id: str) -> Note:
        """Gets a note by its ID.

        Args:
            note_id: The ID of the note, for example note-1.

        Returns:
            The note.
        """
        stored = self.store.get(note_id)
        if stored is None:
            raise AppFunctionElementNotFoundException(f"No note found with ID {note_id}")
        return _note(stored)

    @app_function(described_by_docstring=True)
    async def update_note(
        self,
        note_id: str,
        title: SetField[str] | None = None,
        content: SetField[str | None] | None = None,
    ) -> Note:
        """Updates an existing note. Omitted fields keep their values.

        Args:
            note_id: The ID of the note to update.
            title: The new title of the note.
            content: The new body text of the note; a null value removes the body.

        Returns:
            The updated note.
        """
        if self.store.get(note_id) is None:
            raise AppFunctionElementNotFoundException(f"No note found with ID {note_id}")
        changes: dict[str, object] = {}
        # A null SetField means "don't change"; SetField(None) means "set to null".
        if title is not None:
            changes["title"] = _check_title(title.value)
        if content is not None:
            changes["content"] = content.value
        return _note(self.store.update(note_id, **changes))
