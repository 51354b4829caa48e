"""What τ² and τ-bench count besides the database: whether the agent said what it had to.

Both benchmarks check each required string the same way: it appears, lowercased, in one of
the agent's messages, lowercased with its commas taken out (so "1,000" is said by "1000" and by
"1,000", and "1000" is not said by "1 000"). Which messages differ: τ² reads every assistant
message with text, a tool-calling one's text included; τ-bench v1 only its replies (a message
that calls a tool was never one). The caller gives the texts its benchmark reads.
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
