"""What τ² and τ-bench count besides the database: whether the agent said what it had to.

Both benchmarks check each required string the same way: it appears, lowercased, in one of
the agent's messages to the user, lowercased with its commas taken out (so "1,000" is said
by "1000" and by "1,000", and "1000" is not said by "1 000"). A message that calls a tool is
not a message to the user (τ-bench v1 reads only the replies; τ² only messages with text).
"""

from __future__ import annotations

from typing import Sequence


def said(info: str, messages: Sequence[str]) -> bool:
    wanted = info.lower()
    return any(wanted in message.lower().replace(",", "") for message in messages)


def communicated(infos: Sequence[str], messages: Sequence[str]) -> bool | None:
    """Whether every required string was said; None when the task requires none."""
    if not infos:
        return None
    return all(said(info, messages) for info in infos)
