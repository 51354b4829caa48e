"""The app's note store, in memory and thread-safe."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field, replace

from droid.net import Uri

DEFAULT_OWNER = "me"


@dataclass(frozen=True)
class StoredAttachment:
    uri: Uri
    mime_type: str | None


@dataclass(frozen=True)
class StoredNote:
    id: str
    title: str
    content: str | None
    owner: str
    attachments: tuple[StoredAttachment, ...] = field(default_factory=tuple)


class NoteStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(2)
        welcome = StoredNote("note-1", "Welcome", "Notes you create appear here.", DEFAULT_OWNER)
        self._notes: dict[str, StoredNote] = {welcome.id: welcome}

    def get(self, note_id: str) -> StoredNote | None:
        with self._lock:
            return self._notes.get(note_id)

    def create(self, title: str, content: str | None, owner: str, attachments: list[StoredAttachment]) -> StoredNote:
        with self._lock:
            note = StoredNote(f"note-{next(self._ids)}", title, content, owner, tuple(attachments))
            self._notes[note.id] = note
            return note

    def update(self, note_id: str, **changes: object) -> StoredNote:
        with self._lock:
            note = replace(self._notes[note_id], **changes)
            self._notes[note_id] = note
            return note
