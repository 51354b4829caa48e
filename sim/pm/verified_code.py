"""What verified code declared, remembered by the code's bytes for the rest of the process.

A verification imports the app in a process of its own (sim/pm/code_verifier.py), some 30 ms
an app; eval's devices and a test suite's install the same apps again and again (eval
installs each distractor app in every device it boots). The answer depends only on the
files the child imports, so the same bytes get the same answer without running them again.
Only answers are kept, never failures: a verification that timed out on a loaded machine is
tried again. The key is a digest of every file's path and bytes (a link's target), read from
the device's staged copy, which no app can write while it installs.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable

# Distinct builds kept: an eval with a thousand distractor apps fits, each a few kilobytes.
MAX_REMEMBERED = 4096


def code_digest(code_dir: Path) -> str:
    """sha256 over every entry under ``code_dir``: its relative path, its kind and its bytes."""
    digest = hashlib.sha256()
    pending = [code_dir]
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                relative = os.path.relpath(entry.path, code_dir).encode("utf-8", "surrogateescape")
                if entry.is_symlink():
                    digest.update(b"L%d:%s%s" % (len(relative), relative, os.readlink(entry.path).encode()))
                elif entry.is_dir(follow_symlinks=False):
                    digest.update(b"D%d:%s" % (len(relative), relative))
                    pending.append(Path(entry.path))
                else:
                    content = Path(entry.path).read_bytes()
                    digest.update(b"F%d:%s%d:" % (len(relative), relative, len(content)))
                    digest.update(content)
    return digest.hexdigest()


class VerifiedCode:
    """Answers by (code digest, service name), the oldest forgotten past MAX_REMEMBERED."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: OrderedDict[tuple[str, str], dict] = OrderedDict()

    def answer(self, code_dir: Path, service_name: str, verify: Callable[[], dict]) -> dict:
        """The remembered answer for these bytes, else ``verify()``'s, remembered unless it is an error."""
        key = (code_digest(code_dir), service_name)
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        reply = verify()
        if "error" not in reply:
            with self._lock:
                self._answers[key] = reply
                while len(self._answers) > MAX_REMEMBERED:
                    self._answers.popitem(last=False)
        return reply
