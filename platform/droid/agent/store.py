"""Where sessions keep their history: a JSON file per session, or memory.

``FileSessionStore(directory)`` writes ``<directory>/<session id>.json``,
atomically (write, fsync, rename) and readable by the owner only, so a session
survives a process restart. Give it a folder inside the agent app's data folder,
e.g. ``<device data>/data/<package>/agent_sessions``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Protocol

from droid.agent.errors import AgentError

_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


def check_session_id(session_id: str) -> str:
    if not isinstance(session_id, str) or not _SESSION_ID.match(session_id) or ".." in session_id:
        raise AgentError(f"invalid session id {session_id!r}: use letters, digits, '_', '-' and '.'")
    return session_id


class SessionStore(Protocol):
    def load(self, session_id: str) -> dict[str, Any] | None: ...

    def save(self, session_id: str, state: dict[str, Any]) -> None: ...

    def delete(self, session_id: str) -> None: ...

    def list(self) -> list[str]: ...


class InMemorySessionStore:
    def __init__(self) -> None:
        self._states: dict[str, str] = {}

    def load(self, session_id: str) -> dict[str, Any] | None:
        text = self._states.get(session_id)
        return None if text is None else json.loads(text)

    def save(self, session_id: str, state: dict[str, Any]) -> None:
        self._states[session_id] = json.dumps(state)

    def delete(self, session_id: str) -> None:
        self._states.pop(session_id, None)

    def list(self) -> list[str]:
        return sorted(self._states)


class FileSessionStore:
    SUFFIX = ".json"

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def _path(self, session_id: str) -> Path:
        return self.directory / f"{check_session_id(session_id)}{self.SUFFIX}"

    def load(self, session_id: str) -> dict[str, Any] | None:
        path = self._path(session_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            state = json.loads(text)
        except json.JSONDecodeError as exc:
            raise AgentError(f"session file {path} is corrupt: {exc}") from exc
        if not isinstance(state, dict):
            raise AgentError(f"session file {path} is corrupt: not a JSON object")
        return state

    def save(self, session_id: str, state: dict[str, Any]) -> None:
        path = self._path(session_id)
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{session_id}.", suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(state, handle, ensure_ascii=False, indent=1)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    def delete(self, session_id: str) -> None:
        try:
            self._path(session_id).unlink()
        except FileNotFoundError:
            pass

    def list(self) -> list[str]:
        if not self.directory.is_dir():
            return []
        return sorted(p.name[: -len(self.SUFFIX)] for p in self.directory.glob(f"*{self.SUFFIX}") if not p.name.startswith("."))
